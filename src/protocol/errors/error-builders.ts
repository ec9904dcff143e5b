import type { ErrorCode } from "./error-codes.ts";
import { isRetryableCode } from "./error-codes.ts";
import {
  ERROR_MESSAGES,
  INVALID_INPUT_MESSAGES,
  INVITATION_SPENT_MESSAGES,
  JOIN_REJECTED_MESSAGE,
  NOT_CREATOR_MESSAGE,
  RATE_LIMITED_MESSAGES,
  TRANSFER_OFFER_EXPIRED_MESSAGE,
  USAGE_MESSAGES,
} from "./error-messages.ts";
import type {
  CapUnit,
  ConflictReason,
  InternalReason,
  InvalidInputReason,
  ProfileReason,
  RateLimitedReason,
  UnavailableReason,
  UsageReason,
} from "./error-reasons.ts";
import type { ErrorDetails, ProtocolError } from "./protocol-error.ts";

/**
 * Builds a wire error with the code's fixed message and `retryable` (docs/spec/protocol.md §3.1).
 * `details`, when given, must hold no input value.
 *
 * @example
 * protocolError("conflict", { reason: "session_closed" });
 */
export function protocolError(
  code: ErrorCode,
  details?: ErrorDetails,
  message: string = ERROR_MESSAGES[code],
): ProtocolError {
  const error: ProtocolError = { code, message, retryable: isRetryableCode(code) };
  if (details !== undefined) error.details = details;
  return error;
}

/**
 * Extra `details` of a validation failure (docs/spec/protocol.md §3.2); all values are decimal
 * strings or tokens.
 */
export interface InvalidInputExtras {
  readonly limit?: string;
  readonly actual?: string;
  readonly unit?: CapUnit;
  readonly allowed?: string;
  readonly min?: string;
  readonly max?: string;
}

/**
 * `invalid_input` about member `field` (dotted wire name, or `stdin`; `undefined` for errors that
 * name no member such as `malformed_json`). Details keep the order field, reason, limit, actual,
 * unit, allowed, min, max.
 *
 * @example
 * invalidInputError("body", "too_long", { limit: "16384", actual: "16385", unit: "bytes" });
 * // { code: "invalid_input", message: "an input member exceeds its length limit", retryable: false,
 * //   details: { field: "body", reason: "too_long", limit: "16384", actual: "16385", unit: "bytes" } }
 */
export function invalidInputError(
  field: string | undefined,
  reason: InvalidInputReason,
  extras?: InvalidInputExtras,
): ProtocolError {
  const details: ErrorDetails = {};
  if (field !== undefined) details.field = field;
  details.reason = reason;
  if (extras !== undefined) {
    if (extras.limit !== undefined) details.limit = extras.limit;
    if (extras.actual !== undefined) details.actual = extras.actual;
    if (extras.unit !== undefined) details.unit = extras.unit;
    if (extras.allowed !== undefined) details.allowed = extras.allowed;
    if (extras.min !== undefined) details.min = extras.min;
    if (extras.max !== undefined) details.max = extras.max;
  }
  return protocolError("invalid_input", details, INVALID_INPUT_MESSAGES[reason]);
}

/**
 * `usage` (exit 2) with a fixed message; `flag` may name a flag **we define** (never an argument
 * the caller typed that we do not know).
 *
 * @example
 * usageError("out_of_range", "--limit"); // details { reason: "out_of_range", flag: "--limit" }
 */
export function usageError(reason: UsageReason, flag?: string): ProtocolError {
  const details: ErrorDetails = { reason };
  if (flag !== undefined) details.flag = flag;
  return protocolError("usage", details, USAGE_MESSAGES[reason]);
}

/**
 * The uniform `not_found` (docs/spec/protocol.md §3.5): unknown, foreign-team and not-owned session
 * or message ids all get this byte-identical object, with no details.
 *
 * @example
 * JSON.stringify(notFoundError()) ===
 *   '{"code":"not_found","message":"session or message not found","retryable":false}';
 */
export function notFoundError(): ProtocolError {
  return protocolError("not_found");
}

/**
 * The uniform `unauthorized` for "not an active member of this team" and for a `team_ref` that does
 * not exist (docs/spec/protocol.md §3.5), with no details.
 *
 * @example
 * notMemberError().message === "not an active member of this team";
 */
export function notMemberError(): ProtocolError {
  return protocolError("unauthorized");
}

/**
 * The uniform `unauthorized` from `team join` for a wrong secret, an unknown team and a banned
 * principal (docs/spec/protocol.md §3.5), with no details.
 *
 * @example
 * joinRejectedError().code === "unauthorized";
 */
export function joinRejectedError(): ProtocolError {
  return protocolError("unauthorized", undefined, JOIN_REJECTED_MESSAGE);
}

/**
 * `unauthorized` with `details.reason` `invitation_used`, `invitation_expired` or
 * `invitation_revoked` and its fixed message: a `team join` presented a whole invitation that
 * admits nobody any more (capability `team.invitations`).
 *
 * @example
 * invitationSpentError("invitation_used").details?.reason === "invitation_used";
 */
export function invitationSpentError(
  reason: "invitation_used" | "invitation_expired" | "invitation_revoked",
): ProtocolError {
  return protocolError("unauthorized", { reason }, INVITATION_SPENT_MESSAGES[reason]);
}

/**
 * `unauthorized` `transfer_offer_expired` and its fixed message: `team accept-transfer` by the
 * member a `team transfer` offer named, after the offer lapsed. Only that member gets it; anyone
 * else gets the uniform `not_found`.
 *
 * @example
 * transferOfferExpiredError().details?.reason === "transfer_offer_expired";
 */
export function transferOfferExpiredError(): ProtocolError {
  return protocolError(
    "unauthorized",
    { reason: "transfer_offer_expired" },
    TRANSFER_OFFER_EXPIRED_MESSAGE,
  );
}

/**
 * `unauthorized` `not_creator`: an active member asked for a creator-only `team.admin` verb. Only
 * ever given to an active member; anyone else gets {@link notMemberError}.
 *
 * @example
 * notCreatorError().details?.reason === "not_creator";
 */
export function notCreatorError(): ProtocolError {
  return protocolError("unauthorized", { reason: "not_creator" }, NOT_CREATOR_MESSAGE);
}

/**
 * `rate_limited` (exit 8, retryable) with `retry_after_ms` (whole ms, clamped to ≥ 1 as
 * docs/spec/protocol.md §6.12 requires > 0) and `details.reason`.
 *
 * @example
 * rateLimitedError("send_per_minute", 41250);
 * // { code: "rate_limited", message: "the send rate limit for this session is exhausted",
 * //   retryable: true, retry_after_ms: 41250, details: { reason: "send_per_minute" } }
 */
export function rateLimitedError(reason: RateLimitedReason, retryAfterMs: number): ProtocolError {
  const ms = Number.isFinite(retryAfterMs) ? Math.max(1, Math.ceil(retryAfterMs)) : 1;
  return {
    code: "rate_limited",
    message: RATE_LIMITED_MESSAGES[reason],
    retryable: true,
    retry_after_ms: ms,
    details: { reason },
  };
}

/**
 * `rate_limited` `team_storage_full` **[ours]** (capability `message.attachments`): storing the
 * upload would take the team's attachment storage past `limitBytes`. `retry_after_ms` is a fixed
 * hint (space frees only as the retention sweep removes blobs no message needs); `details` add
 * `limit` and `unit: "bytes"`.
 *
 * @example
 * teamStorageFullError(1073741824).details; // { reason: "team_storage_full", limit: "1073741824", unit: "bytes" }
 */
export function teamStorageFullError(limitBytes: number, retryAfterMs: number): ProtocolError {
  const error = rateLimitedError("team_storage_full", retryAfterMs);
  error.details = { reason: "team_storage_full", limit: String(limitBytes), unit: "bytes" };
  return error;
}

/**
 * `conflict` (exit 7) with `details.reason`.
 *
 * @example
 * conflictError("session_live");
 */
export function conflictError(reason: ConflictReason): ProtocolError {
  return protocolError("conflict", { reason });
}

/**
 * `unavailable` (exit 9, retryable), optionally with a reason (`timeout`, `adapter_not_found`).
 *
 * @example
 * unavailableError("timeout");
 */
export function unavailableError(reason?: UnavailableReason): ProtocolError {
  return protocolError("unavailable", reason === undefined ? undefined : { reason });
}

/**
 * `internal` (exit 1), optionally with a harness-side reason.
 *
 * @example
 * internalError("stdout_not_json");
 */
export function internalError(reason?: InternalReason): ProtocolError {
  return protocolError("internal", reason === undefined ? undefined : { reason });
}

/**
 * `config` (exit 11), optionally with a reason (`profile_missing`, `no_team_bound`).
 *
 * @example
 * configError("no_team_bound");
 */
export function configError(reason?: ProfileReason): ProtocolError {
  return protocolError("config", reason === undefined ? undefined : { reason });
}

/**
 * `unauthenticated` (exit 4), optionally with a reason (`credential_missing`).
 *
 * @example
 * unauthenticatedError("credential_missing");
 */
export function unauthenticatedError(reason?: ProfileReason): ProtocolError {
  return protocolError("unauthenticated", reason === undefined ? undefined : { reason });
}

/**
 * `loop_detected` (exit 12), reason `max_hop_count`.
 *
 * @example
 * loopDetectedError().details?.reason === "max_hop_count";
 */
export function loopDetectedError(): ProtocolError {
  return protocolError("loop_detected", { reason: "max_hop_count" });
}

/**
 * `protocol_mismatch` (exit 10): the harness refuses an adapter whose `describe` reports another
 * major.
 *
 * @example
 * protocolMismatchError().code === "protocol_mismatch";
 */
export function protocolMismatchError(): ProtocolError {
  return protocolError("protocol_mismatch");
}
