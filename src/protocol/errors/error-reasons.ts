/**
 * `details.reason` tokens for `invalid_input` (docs/spec/protocol.md §3.2, informative list we
 * adopt), plus **[ours]**: `duplicate_member` (a stdin document or NDJSON line repeating a member
 * name), and `digest_mismatch` / `size_mismatch` (an uploaded blob's bytes do not hash to, or do
 * not count up to, what the upload declared: nothing is kept).
 *
 * @example
 * invalidInputError("session_name", "too_long", { limit: "64", actual: "65", unit: "codepoints" });
 */
export const INVALID_INPUT_REASONS = [
  "required",
  "too_long",
  "invalid_value",
  "not_utf8",
  "forbidden_member",
  "out_of_range",
  "malformed_json",
  "read_error",
  "duplicate_member",
  "digest_mismatch",
  "size_mismatch",
] as const;

/** A `details.reason` for `invalid_input`. */
export type InvalidInputReason = (typeof INVALID_INPUT_REASONS)[number];

/**
 * `details.reason` tokens for `usage` **[ours]** except `terminal` (docs/spec/protocol.md §1.3):
 * why an argv or terminal check failed. None of them carries the offending argument.
 *
 * @example
 * usageError("unknown_flag");
 */
export const USAGE_REASONS = [
  "unknown_command",
  "unknown_flag",
  "missing_value",
  "missing_flag",
  "invalid_value",
  "out_of_range",
  "duplicate_flag",
  "unexpected_argument",
  "secret_on_argv",
  "terminal",
  "prompt_requires_terminal",
] as const;

/** A `details.reason` for `usage`. */
export type UsageReason = (typeof USAGE_REASONS)[number];

/**
 * `details.reason` tokens for `conflict` (docs/spec/protocol.md §3.4): `session_live` and
 * `profile_bound` are fixed, the next three are the reference's and ours; `team_creator`
 * **[ours]**: `team revoke-member` named the team's creator, who cannot be revoked (transfer the
 * team first).
 */
export const CONFLICT_REASONS = [
  "session_live",
  "profile_bound",
  "session_closed",
  "idempotency_key_reused",
  "profile_exists",
  "team_creator",
] as const;

/** A `details.reason` for `conflict`. */
export type ConflictReason = (typeof CONFLICT_REASONS)[number];

/**
 * `details.reason` tokens for `unauthorized` **[ours]**. The uniform "not an active member" answer
 * (docs/spec/protocol.md §3.5) carries no details at all; `not_creator` answers an active member
 * who asks for a creator-only `team.admin` verb (the caller already knows the team, so telling it
 * why leaks nothing). The three `invitation_*` reasons answer a `team join` with an invitation
 * that was once good (capability `team.invitations`): every use taken, past its time, or revoked
 * (by its creator or a secret rotation). Only a caller holding the whole invitation secret can get
 * them, so they tell nothing a guesser could use; a wrong, unknown or banned join is still the
 * uniform rejection. `transfer_offer_expired` answers `team accept-transfer` by the member a
 * `team transfer` offer named once it lapsed (7 days unless the creator chose less): only that
 * member, who was told of the offer, can get it.
 */
export const UNAUTHORIZED_REASONS = [
  "not_creator",
  "invitation_used",
  "invitation_expired",
  "invitation_revoked",
  "transfer_offer_expired",
] as const;

/** A `details.reason` for `unauthorized`. */
export type UnauthorizedReason = (typeof UNAUTHORIZED_REASONS)[number];

/**
 * `details.reason` tokens for `rate_limited` (docs/spec/protocol.md §3.4). `realtime` is Brigade's
 * push-service limit, kept for compatibility; we never emit it. `register_principal`,
 * `server_principal_budget` and `create_team` are **[ours]**: the limits of `brigade serve` on
 * minting principals and creating teams; `create_invitation` **[ours]**: a team's invitations made
 * in the last 24 hours (capability `team.invitations`); `team_storage_full` **[ours]**: the team's
 * attachment storage quota (capability `message.attachments`); `dashboard_login` **[ours]**: a
 * person's dashboard login links made in the last hour (docs/52-dashboard.md).
 */
export const RATE_LIMITED_REASONS = [
  "send_per_minute",
  "send_per_hour",
  "principal_per_minute",
  "principal_per_hour",
  "sender_quota_for_recipient",
  "recipient_inbox_full",
  "join_attempts",
  "register_session",
  "realtime",
  "register_principal",
  "server_principal_budget",
  "create_team",
  "create_invitation",
  "team_storage_full",
  "dashboard_login",
] as const;

/** A `details.reason` for `rate_limited`. */
export type RateLimitedReason = (typeof RATE_LIMITED_REASONS)[number];

/**
 * `details.reason` tokens for `unavailable` (docs/spec/protocol.md §3.4). `project_paused` is
 * Brigade/Supabase only (we never emit it); `timeout` and `adapter_not_found` are harness-side.
 */
export const UNAVAILABLE_REASONS = ["project_paused", "timeout", "adapter_not_found"] as const;

/** A `details.reason` for `unavailable`. */
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/**
 * `details.reason` tokens for `internal`: harness-side (docs/spec/protocol.md §1.6, §3.4), and
 * **[ours]** `blob_digest_mismatch`: a finished `message download` does not hash to the blob's
 * digest (the file is removed).
 */
export const INTERNAL_REASONS = [
  "stdout_overflow",
  "stdout_not_json",
  "stdout_invalid_envelope",
  "blob_digest_mismatch",
] as const;

/** A `details.reason` for `internal`. */
export type InternalReason = (typeof INTERNAL_REASONS)[number];

/** `details.reason` tokens for `loop_detected` (docs/spec/protocol.md §3.4, reference). */
export const LOOP_DETECTED_REASONS = ["max_hop_count"] as const;

/** A `details.reason` for `loop_detected`. */
export type LoopDetectedReason = (typeof LOOP_DETECTED_REASONS)[number];

/**
 * `details.reason` tokens for `config` and `unauthenticated` (docs/spec/protocol.md §3.4:
 * adapter-defined; these are the reference's).
 */
export const PROFILE_REASONS = ["profile_missing", "no_team_bound", "credential_missing"] as const;

/** A `details.reason` for `config` or `unauthenticated`. */
export type ProfileReason = (typeof PROFILE_REASONS)[number];

/**
 * The `details` keys the spec names (docs/spec/protocol.md §3.2, §1.6): `field`, `reason`, `limit`,
 * `actual`, `unit`, `allowed`, `min`, `max`, `signal`. All values are strings.
 */
export const DETAILS_KEYS = [
  "field",
  "reason",
  "limit",
  "actual",
  "unit",
  "allowed",
  "min",
  "max",
  "signal",
] as const;

/** A `details` key the spec names. */
export type DetailsKey = (typeof DETAILS_KEYS)[number];

/** Units a cap failure names in `details.unit` (docs/spec/protocol.md §2.5). */
export const CAP_UNITS = ["bytes", "codepoints"] as const;

/** A cap unit. */
export type CapUnit = (typeof CAP_UNITS)[number];
