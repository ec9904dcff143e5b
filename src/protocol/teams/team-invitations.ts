import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  failField,
  fieldPath,
  nullableString,
  optionalInteger,
  requiredArray,
  requiredEnum,
  requiredInteger,
  requiredString,
  requiredTimestamp,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { parseJoinSecret } from "./join-secret.ts";

/**
 * The bounds of an invitation **[ours]** (capability `team.invitations`, docs/20-protocol.md,
 * "Invitations"): single use and 24 hours unless the creator asks for more; at most 100 uses and
 * 7 days, so an invitation that leaks is a bounded risk; at most 100 invitations made per team in
 * any 24 hours (`rate_limited`, `create_invitation`); `team invitations` lists at most the 200
 * newest.
 *
 * @example INVITATION_LIMITS.max_uses === 100
 */
export const INVITATION_LIMITS: {
  readonly default_uses: 1;
  readonly max_uses: 100;
  readonly default_expires_in_seconds: 86400;
  readonly min_expires_in_seconds: 1;
  readonly max_expires_in_seconds: 604800;
  readonly per_team_per_day: 100;
  readonly max_listed: 200;
} = Object.freeze({
  default_uses: 1,
  max_uses: 100,
  default_expires_in_seconds: 86400,
  min_expires_in_seconds: 1,
  max_expires_in_seconds: 604800,
  per_team_per_day: 100,
  max_listed: 200,
});

/**
 * The `team invite` request: how many joins the invitation admits (`max_uses`, 1..100, default 1)
 * and for how long (`expires_in_seconds`, 1..604,800, default 86,400). Both optional.
 *
 * @example { max_uses: 3, expires_in_seconds: 3600 }
 */
export interface TeamInviteRequest {
  max_uses?: number;
  expires_in_seconds?: number;
}

/**
 * Validates a `team invite` request: an object whose two optional members are JSON integers in
 * range (`invalid_value`, `out_of_range` with `min`/`max`, naming the member). Never throws.
 *
 * @example validateTeamInviteRequest({ max_uses: 0 }).ok === false; // out_of_range, max_uses
 */
export function validateTeamInviteRequest(value: unknown): ValidationResult<TeamInviteRequest> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const uses = optionalInteger(o, "max_uses", "", 1, INVITATION_LIMITS.max_uses);
    const expires = optionalInteger(
      o,
      "expires_in_seconds",
      "",
      INVITATION_LIMITS.min_expires_in_seconds,
      INVITATION_LIMITS.max_expires_in_seconds,
    );
    return {
      ...(uses === undefined ? {} : { max_uses: uses }),
      ...(expires === undefined ? {} : { expires_in_seconds: expires }),
    };
  });
}

/**
 * The `team invite` result (creator only). `invitation` is the secret: a docs/spec/protocol.md §9
 * join secret (`brg1.<team_ref>.<secret>`) that `team join` takes like the team's own secret, so it
 * is shown once and never logged; with `--secret-file` it goes to that file and is left out.
 * `invitation_id` names it in `team invitations` and `team revoke-invite` and is no secret.
 *
 * @example
 * { team_ref: "t-9c1e", team_name: "core", invitation_id: "iv-3f2a", invitation: "brg1.t-9c1e.…",
 *   max_uses: 1, expires_at: "2026-10-03T09:15:42Z" }
 */
export interface TeamInviteResult {
  team_ref: string;
  team_name: string;
  invitation_id: string;
  /** Absent when written to `--secret-file`. */
  invitation?: string;
  max_uses: number;
  expires_at: string;
}

/**
 * Validates a `team invite` result: ids non-empty, `invitation` (when present) a join secret
 * (docs/spec/protocol.md §9: no space, control or format character), `max_uses` 1..100,
 * `expires_at` a timestamp.
 *
 * @example validateTeamInviteResult({ team_ref: "t" }).ok === false;
 */
export function validateTeamInviteResult(value: unknown): ValidationResult<TeamInviteResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    const team_ref = requiredString(o, "team_ref", "", id);
    const team_name = requiredString(o, "team_name", "", {
      cap: PROTOCOL_LIMITS.max_team_name_codepoints,
    });
    const invitation_id = requiredString(o, "invitation_id", "", id);
    const invitation = nullableString(o, "invitation", "", id);
    // A join secret's shape: nothing a hostile server could smuggle onto a terminal.
    if (invitation === null || (invitation !== undefined && !parseJoinSecret(invitation).ok)) {
      failField("invitation", "invalid_value");
    }
    return {
      team_ref,
      team_name,
      invitation_id,
      ...(invitation === undefined ? {} : { invitation }),
      max_uses: requiredInteger(o, "max_uses", "", 1, INVITATION_LIMITS.max_uses),
      expires_at: requiredTimestamp(o, "expires_at", ""),
    };
  });
}

/**
 * Where an invitation stands, first match wins: `revoked` (by the creator, or by a
 * `team rotate-secret`), `used` (every use taken), `expired`, else `active`.
 */
export const INVITATION_STATES = ["active", "used", "expired", "revoked"] as const;

/** One of {@link INVITATION_STATES}. */
export type InvitationState = (typeof INVITATION_STATES)[number];

/**
 * One invitation as `team invitations` lists it: never its secret.
 *
 * @example
 * { invitation_id: "iv-3f2a", state: "used", max_uses: 1, uses: 1,
 *   created_at: "2026-10-02T09:15:42Z", expires_at: "2026-10-03T09:15:42Z",
 *   last_used_at: "2026-10-02T10:00:00Z", revoked_at: null }
 */
export interface InvitationRecord {
  invitation_id: string;
  state: InvitationState;
  max_uses: number;
  uses: number;
  created_at: string;
  expires_at: string;
  /** The last join it admitted, `null` when none. */
  last_used_at: string | null;
  /** When it was revoked, `null` unless it was. */
  revoked_at: string | null;
}

/**
 * The `team invitations` result (creator only): the team's invitations, newest first, at most
 * {@link INVITATION_LIMITS}`.max_listed` (`truncated` when more exist); ended ones stay listed
 * until the retention sweep removes them.
 *
 * @example { team_ref: "t-9c1e", server_time: "2026-10-02T09:15:42Z", invitations: [], truncated: false }
 */
export interface TeamInvitationsResult {
  team_ref: string;
  server_time: string;
  invitations: InvitationRecord[];
  truncated: boolean;
}

function nullableTime(o: WireObject, name: string, prefix: string): string | null {
  const value = nullableString(o, name, prefix);
  if (value === undefined) failField(fieldPath(prefix, name), "required");
  return value === null ? null : requiredTimestamp(o, name, prefix);
}

function readRecord(o: WireObject, prefix: string): InvitationRecord {
  return {
    invitation_id: requiredString(o, "invitation_id", prefix, { nonEmpty: true }),
    state: requiredEnum(o, "state", prefix, INVITATION_STATES),
    max_uses: requiredInteger(o, "max_uses", prefix, 1, INVITATION_LIMITS.max_uses),
    uses: requiredInteger(o, "uses", prefix, 0, INVITATION_LIMITS.max_uses),
    created_at: requiredTimestamp(o, "created_at", prefix),
    expires_at: requiredTimestamp(o, "expires_at", prefix),
    last_used_at: nullableTime(o, "last_used_at", prefix),
    revoked_at: nullableTime(o, "revoked_at", prefix),
  };
}

/**
 * Validates a `team invitations` result; an absent `invitations` reads as `[]`, an absent
 * `truncated` as `false`; element failures name `invitations.<index>.<member>`.
 *
 * @example validateTeamInvitationsResult({ team_ref: "t", server_time: "2026-10-02T09:15:42Z" }).ok === true;
 */
export function validateTeamInvitationsResult(
  value: unknown,
): ValidationResult<TeamInvitationsResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const truncated = o.truncated;
    if (truncated !== undefined && typeof truncated !== "boolean") {
      failField("truncated", "invalid_value");
    }
    return {
      team_ref: requiredString(o, "team_ref", "", { nonEmpty: true }),
      server_time: requiredTimestamp(o, "server_time", ""),
      invitations: requiredArray(o, "invitations", "", true, (element, path) =>
        readRecord(expectObject(element, path), path),
      ),
      truncated: truncated === true,
    };
  });
}

/**
 * The invitation a `team revoke-invite` acts on: `{invitation_id}`, a non-empty string of at most
 * 256 code points (an id is no secret; on argv it is `--invitation <id>`).
 *
 * @example { invitation_id: "iv-3f2a" }
 */
export interface TeamInvitationTarget {
  invitation_id: string;
}

/**
 * Validates a {@link TeamInvitationTarget} (`invalid_input` naming `invitation_id`).
 *
 * @example validateTeamInvitationTarget({ invitation_id: "" }).ok === false;
 */
export function validateTeamInvitationTarget(
  value: unknown,
): ValidationResult<TeamInvitationTarget> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      invitation_id: requiredString(o, "invitation_id", "", { nonEmpty: true, cap: 256 }),
    };
  });
}

/**
 * The `team revoke-invite` result: the invitation's state after the call — `revoked`, or the
 * state it had already ended in (`used`, `expired`, `revoked`): revoking is idempotent and never
 * rewrites how an invitation ended.
 *
 * @example { team_ref: "t-9c1e", invitation_id: "iv-3f2a", state: "revoked" }
 */
export interface TeamRevokeInviteResult {
  team_ref: string;
  invitation_id: string;
  state: InvitationState;
}

/**
 * Validates a `team revoke-invite` result (`state` one of {@link INVITATION_STATES} but `active`).
 *
 * @example validateTeamRevokeInviteResult({ team_ref: "t", invitation_id: "i", state: "active" }).ok === false;
 */
export function validateTeamRevokeInviteResult(
  value: unknown,
): ValidationResult<TeamRevokeInviteResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    return {
      team_ref: requiredString(o, "team_ref", "", id),
      invitation_id: requiredString(o, "invitation_id", "", id),
      state: requiredEnum(o, "state", "", ["used", "expired", "revoked"] as const),
    };
  });
}
