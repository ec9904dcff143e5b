import type { ErrorCode } from "./error-codes.ts";
import type { InvalidInputReason, RateLimitedReason, UsageReason } from "./error-reasons.ts";

/**
 * The fixed, value-free `error.message` per code, used when no more specific fixed text applies.
 * Safe to show a model: no server text, no SQL, no token, no input value
 * (docs/spec/protocol.md §3.1).
 *
 * @example
 * ERROR_MESSAGES.not_found === "session or message not found";
 */
export const ERROR_MESSAGES: Readonly<Record<ErrorCode, string>> = Object.freeze({
  internal: "internal error",
  usage: "invalid command line",
  invalid_input: "the input document is invalid",
  unauthenticated: "no usable credential for this profile",
  unauthorized: "not an active member of this team",
  not_found: "session or message not found",
  conflict: "the request conflicts with the current state",
  rate_limited: "rate limit exceeded",
  unavailable: "the backend is unavailable",
  protocol_mismatch: "the adapter speaks another protocol major version",
  config: "the profile is not configured for this command",
  loop_detected: "the reply chain exceeds the hop limit",
});

/** Fixed `message` per `invalid_input` reason. */
export const INVALID_INPUT_MESSAGES: Readonly<Record<InvalidInputReason, string>> = Object.freeze({
  required: "a required input member is missing",
  too_long: "an input member exceeds its length limit",
  invalid_value: "an input member has an invalid value",
  not_utf8: "the input is not valid UTF-8",
  forbidden_member: "the request carries a member the caller may not set",
  out_of_range: "an input number is out of range",
  malformed_json: "the input is not a JSON document",
  read_error: "the input could not be read",
  duplicate_member: "the input repeats a member name",
  digest_mismatch: "the uploaded bytes do not match the declared SHA-256; nothing was kept",
  size_mismatch: "the uploaded bytes do not match the declared size; nothing was kept",
});

/** Fixed `message` per `usage` reason; none repeats an argument. */
export const USAGE_MESSAGES: Readonly<Record<UsageReason, string>> = Object.freeze({
  unknown_command: "unknown command",
  unknown_flag: "unknown flag for this command",
  missing_value: "a flag is missing its value",
  missing_flag: "a required flag is missing",
  invalid_value: "a flag has an invalid value",
  out_of_range: "a flag value is out of range",
  duplicate_flag: "a flag is given more than once",
  unexpected_argument: "unexpected argument",
  secret_on_argv: "secrets are never accepted on the command line; pass them on stdin",
  terminal: "this command reads a JSON document on stdin, not from a terminal",
  prompt_requires_terminal: "--prompt needs a terminal on stdin",
});

/** Fixed `message` per `rate_limited` reason (the first is the spec's example text). */
export const RATE_LIMITED_MESSAGES: Readonly<Record<RateLimitedReason, string>> = Object.freeze({
  send_per_minute: "the send rate limit for this session is exhausted",
  send_per_hour: "the send rate limit for this session is exhausted",
  principal_per_minute: "the send rate limit for this principal is exhausted",
  principal_per_hour: "the send rate limit for this principal is exhausted",
  sender_quota_for_recipient: "too many unacknowledged messages from this session to the recipient",
  recipient_inbox_full: "the recipient's inbox is full",
  join_attempts: "too many join attempts",
  register_session: "too many session registrations",
  realtime: "the push service rate limit is exhausted",
  register_principal: "too many new principals from this address",
  server_principal_budget: "the server's budget for new principals is exhausted",
  create_team: "too many teams created by this principal",
  create_invitation: "too many invitations made for this team in the last 24 hours",
  dashboard_login: "too many dashboard login links made in the last hour",
  team_storage_full:
    "the team's attachment storage is full; space frees as messages with attachments are acknowledged and expire",
});

/** Fixed `message` of the uniform `team join` rejection (wrong secret, unknown team, banned). */
export const JOIN_REJECTED_MESSAGE = "the join secret was rejected";

/**
 * Fixed `message` per `team join` refusal of an invitation that was good once (capability
 * `team.invitations`): no part of the invitation, its team or its creator.
 */
export const INVITATION_SPENT_MESSAGES: Readonly<
  Record<"invitation_used" | "invitation_expired" | "invitation_revoked", string>
> = Object.freeze({
  invitation_used: "the invitation was already used",
  invitation_expired: "the invitation has expired",
  invitation_revoked: "the invitation was revoked",
});

/**
 * Fixed `message` of `unauthorized` `transfer_offer_expired`: the team's transfer offer to the
 * caller lapsed before it was accepted.
 */
export const TRANSFER_OFFER_EXPIRED_MESSAGE =
  "the offer of this team has expired: ask its creator to offer it again";

/** Fixed `message` of `unauthorized` `not_creator`: a member asked for a creator-only verb. */
export const NOT_CREATOR_MESSAGE = "only the team's creator may do this";

/**
 * Fixed `message` of an `invalid_input` about `team_name` in `team create` (too long, empty, or
 * not a string): the rule itself, so a person reading it knows what to type.
 */
export const TEAM_NAME_MESSAGE = "team_name must be 1 to 64 characters (Unicode code points)";

/**
 * Fixed `message` for a malformed join secret (docs/spec/protocol.md §9: contains no part of the
 * input).
 */
export const MALFORMED_JOIN_SECRET_MESSAGE = "the join secret is malformed";
