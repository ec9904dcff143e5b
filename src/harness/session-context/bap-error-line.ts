import {
  type BapError,
  type ErrorCode,
  RATE_LIMITED_REASONS,
  type RateLimitedReason,
} from "../../protocol/index.ts";

const TEAM_JOIN = "your user can run brigade team join in their own terminal";

/**
 * The session CLI's own fixed sentence per BAP/1 code. The server's `error.message` is remote text
 * and never printed; these sentences name a remedy the model (or its user) can act on.
 *
 * @example BAP_ERROR_SENTENCES.not_found === "no such session or message in your team"
 */
export const BAP_ERROR_SENTENCES: Readonly<Record<ErrorCode, string>> = Object.freeze({
  internal: "the adapter failed unexpectedly",
  usage: "the adapter refused the command line",
  invalid_input: "the request is invalid",
  unauthenticated: `no usable Brigade credential for this team on this machine; ${TEAM_JOIN}`,
  unauthorized: `this machine's credential is not an active member of the team; ${TEAM_JOIN}`,
  not_found: "no such session or message in your team",
  conflict: "the request conflicts with the session's state on the server",
  rate_limited: "a rate limit is exhausted",
  unavailable: "the Brigade server is unreachable or failing; try again later",
  protocol_mismatch: "the adapter speaks another protocol version; update the Brigade plugin",
  config: `the team profile on this machine is not configured; ${TEAM_JOIN}`,
  loop_detected: "the reply chain exceeds the hop limit; do not answer this message",
});

const RATE_SENTENCES: Readonly<Record<RateLimitedReason, string>> = {
  send_per_minute: "this session sent too many messages in the last minute",
  send_per_hour: "this session sent too many messages in the last hour",
  principal_per_minute: "your sessions together sent too many messages in the last minute",
  principal_per_hour: "your sessions together sent too many messages in the last hour",
  sender_quota_for_recipient:
    "the recipient has not yet taken 15 earlier messages from this session",
  recipient_inbox_full: "the recipient's inbox is full",
  join_attempts: "too many join attempts",
  register_session: "too many session registrations",
  realtime: "the push service's rate limit is exhausted",
  register_principal: "too many new credentials were minted from this address",
  server_principal_budget: "the server minted too many new credentials; try again later",
  create_team: "this credential created too many teams recently",
  create_invitation: "this team made too many invitations in the last 24 hours",
  dashboard_login: "you made too many dashboard login links in the last hour",
  team_storage_full:
    "the team's attachment storage on the server is full until older attachments expire",
};

function isRateReason(value: string | undefined): value is RateLimitedReason {
  return value !== undefined && (RATE_LIMITED_REASONS as readonly string[]).includes(value);
}

/**
 * One value-free line for a {@link BapError}: `<code>: <fixed sentence>`, the sentence taken from
 * `sentences` (per-command wording) or {@link BAP_ERROR_SENTENCES}. `rate_limited` names its
 * reason (only a reason of the protocol's list; anything else reads generically) and ends with
 * `; retry after <n> ms` when the error carries `retry_after_ms`. Nothing of the server's own text
 * is printed.
 *
 * @example bapErrorLine(new BapError(notFoundError())) === "not_found: no such session or message in your team"
 */
export function bapErrorLine(
  error: BapError,
  sentences: Partial<Readonly<Record<ErrorCode, string>>> = {},
): string {
  const code = error.code;
  if (code === "rate_limited") {
    const reason = error.details?.reason;
    const what = isRateReason(reason) ? RATE_SENTENCES[reason] : BAP_ERROR_SENTENCES.rate_limited;
    const after = error.retryAfterMs;
    const wait =
      after === undefined || !Number.isSafeInteger(after) || after < 0
        ? "; retry later"
        : `; retry after ${after} ms`;
    return `${code}: ${what}${wait}`;
  }
  return `${code}: ${sentences[code] ?? BAP_ERROR_SENTENCES[code]}`;
}
