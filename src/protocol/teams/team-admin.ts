import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  failField,
  member,
  nullableString,
  optionalInteger,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { parseJoinSecret } from "./join-secret.ts";

/**
 * The input of `team revoke-member` and `team transfer` (cap `team.admin`, creator only): the
 * member the verb acts on, by its `principal_ref` as `team members` lists it. The process binding
 * builds it from `--principal <ref>`; over HTTP it is the request body.
 *
 * @example
 * { principal_ref: "p-77aa" }
 */
export interface TeamMemberTarget {
  /** Non-empty. */
  principal_ref: string;
}

/**
 * Validates a {@link TeamMemberTarget}: `principal_ref` required, a non-empty string. Unknown
 * members are dropped.
 *
 * @example
 * validateTeamMemberTarget({ principal_ref: "" }).ok === false; // field "principal_ref"
 */
export function validateTeamMemberTarget(value: unknown): ValidationResult<TeamMemberTarget> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return { principal_ref: requiredString(o, "principal_ref", "", { nonEmpty: true }) };
  });
}

/**
 * How long a `team transfer` offer stands **[ours]** (docs/20-protocol.md, "Team lifecycle"):
 * 7 days unless the creator asks for less (`expires_in_seconds`, 1..604,800), so an offer the
 * creator forgot cannot hand the team away months later.
 *
 * @example TRANSFER_OFFER_LIMITS.default_expires_in_seconds === 604800
 */
export const TRANSFER_OFFER_LIMITS: {
  readonly default_expires_in_seconds: 604800;
  readonly min_expires_in_seconds: 1;
  readonly max_expires_in_seconds: 604800;
} = Object.freeze({
  default_expires_in_seconds: 604800,
  min_expires_in_seconds: 1,
  max_expires_in_seconds: 604800,
});

/**
 * The input of `team transfer` (cap `team.admin`, creator only): the member offered the team
 * (as {@link TeamMemberTarget}) and, optionally, how long the offer stands
 * (`expires_in_seconds`, 1..604,800, default 604,800 = 7 days; `--expires-in` on argv).
 * Withdrawing (the creator naming itself) ignores it.
 *
 * @example
 * { principal_ref: "p-77aa", expires_in_seconds: 3600 }
 */
export interface TeamTransferTarget extends TeamMemberTarget {
  expires_in_seconds?: number;
}

/**
 * Validates a {@link TeamTransferTarget}: `principal_ref` as {@link validateTeamMemberTarget};
 * `expires_in_seconds`, when present, a JSON integer in 1..604,800 (`invalid_value`,
 * `out_of_range` naming the member). Unknown members are dropped. Never throws.
 *
 * @example
 * validateTeamTransferTarget({ principal_ref: "p", expires_in_seconds: 0 }).ok === false;
 */
export function validateTeamTransferTarget(value: unknown): ValidationResult<TeamTransferTarget> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const principal_ref = requiredString(o, "principal_ref", "", { nonEmpty: true });
    const expires = optionalInteger(
      o,
      "expires_in_seconds",
      "",
      TRANSFER_OFFER_LIMITS.min_expires_in_seconds,
      TRANSFER_OFFER_LIMITS.max_expires_in_seconds,
    );
    return { principal_ref, ...(expires === undefined ? {} : { expires_in_seconds: expires }) };
  });
}

/**
 * The `team rotate-secret` result (cap `team.admin`, creator only): the team's new join secret.
 * The old secret stops admitting anyone the moment this result exists. Besides `team create`, this
 * is the only output that carries a secret; with `--secret-file` the secret is written there (mode
 * 0600) and omitted from stdout.
 *
 * @example
 * { team_ref: "t-9c1e", team_name: "core", join_secret: "brg1.t-9c1e.Zm9vYmFy" }
 */
export interface TeamRotateSecretResult {
  team_ref: string;
  team_name: string;
  join_secret: string;
  /**
   * **[ours]** (capability `team.invitations`): how many active invitations the rotation revoked
   * with the old secret; absent from an adapter without invitations.
   */
  invitations_revoked?: number;
}

/**
 * Validates a `team rotate-secret` result; `join_secret` must parse (`field = "join_secret"`);
 * `invitations_revoked`, when present, is an integer ≥ 0.
 *
 * @example
 * validateTeamRotateSecretResult({ team_ref: "t", team_name: "core", join_secret: "x" }).ok === false;
 */
export function validateTeamRotateSecretResult(
  value: unknown,
): ValidationResult<TeamRotateSecretResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const team_ref = requiredString(o, "team_ref", "", { nonEmpty: true });
    const team_name = requiredString(o, "team_name", "", {
      cap: PROTOCOL_LIMITS.max_team_name_codepoints,
    });
    const join_secret = requiredString(o, "join_secret", "");
    if (!parseJoinSecret(join_secret).ok) failField("join_secret", "invalid_value");
    const revoked = optionalInteger(o, "invitations_revoked", "", 0, Number.MAX_SAFE_INTEGER);
    return {
      team_ref,
      team_name,
      join_secret,
      ...(revoked === undefined ? {} : { invitations_revoked: revoked }),
    };
  });
}

/**
 * The `team revoke-member` result (cap `team.admin`, creator only): the member is `revoked` — its
 * sessions in the team are closed, its token no longer acts in the team and no join secret admits
 * it again. Revoking a revoked member again gives the same result.
 *
 * @example
 * { team_ref: "t-9c1e", principal_ref: "p-77aa", revoked: true }
 */
export interface TeamRevokeMemberResult {
  team_ref: string;
  principal_ref: string;
  revoked: true;
}

/**
 * Validates a `team revoke-member` result; `revoked` must be `true`.
 *
 * @example
 * validateTeamRevokeMemberResult({ team_ref: "t", principal_ref: "p", revoked: false }).ok === false;
 */
export function validateTeamRevokeMemberResult(
  value: unknown,
): ValidationResult<TeamRevokeMemberResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const team_ref = requiredString(o, "team_ref", "", { nonEmpty: true });
    const principal_ref = requiredString(o, "principal_ref", "", { nonEmpty: true });
    const revoked = member(o, "revoked");
    if (revoked === undefined) failField("revoked", "required");
    if (revoked !== true) failField("revoked", "invalid_value");
    return { team_ref, principal_ref, revoked };
  });
}

/**
 * The `team transfer` result (cap `team.admin`, creator only): the team is **offered** to
 * `offered_to_principal_ref`, an active member, and stays the caller's until that member accepts
 * it (`team accept-transfer`); a new offer replaces the previous one, and an offer to the creator
 * itself withdraws it (`offered_to_principal_ref: null`). `creator_principal_ref` is the creator
 * still, the caller. `expires_at` **[ours]** (RFC 3339 UTC, ms) is when the offer lapses unless
 * accepted (7 days by default), `null` once withdrawn; absent from a server older than offer
 * expiry.
 *
 * @example
 * { team_ref: "t-9c1e", creator_principal_ref: "p-41c9", offered_to_principal_ref: "p-77aa",
 *   expires_at: "2026-01-08T00:00:00.000Z" }
 */
export interface TeamTransferResult {
  team_ref: string;
  creator_principal_ref: string;
  offered_to_principal_ref: string | null;
  expires_at?: string | null;
}

/**
 * Validates a `team transfer` result: `team_ref` and `creator_principal_ref` required and
 * non-empty; `offered_to_principal_ref` required, a non-empty string or `null`; `expires_at`
 * optional, a non-empty string or `null` (kept only when present).
 *
 * @example
 * validateTeamTransferResult({ team_ref: "t", creator_principal_ref: "p" }).ok === false;
 */
export function validateTeamTransferResult(value: unknown): ValidationResult<TeamTransferResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    const team_ref = requiredString(o, "team_ref", "", id);
    const creator_principal_ref = requiredString(o, "creator_principal_ref", "", id);
    const offered = nullableString(o, "offered_to_principal_ref", "", id);
    if (offered === undefined) failField("offered_to_principal_ref", "required");
    const expires = nullableString(o, "expires_at", "", id);
    return {
      team_ref,
      creator_principal_ref,
      offered_to_principal_ref: offered,
      ...(expires === undefined ? {} : { expires_at: expires }),
    };
  });
}

/**
 * The `team accept-transfer` result (cap `team.admin`; the member the team was offered to):
 * `creator_principal_ref` (the caller) is now the team's creator; `previous_creator_principal_ref`
 * stays an active member without admin rights.
 *
 * @example
 * { team_ref: "t-9c1e", creator_principal_ref: "p-77aa", previous_creator_principal_ref: "p-41c9" }
 */
export interface TeamAcceptTransferResult {
  team_ref: string;
  creator_principal_ref: string;
  previous_creator_principal_ref: string;
}

/**
 * Validates a `team accept-transfer` result (all three members required, non-empty).
 *
 * @example
 * validateTeamAcceptTransferResult({ team_ref: "t", creator_principal_ref: "p" }).ok === false;
 */
export function validateTeamAcceptTransferResult(
  value: unknown,
): ValidationResult<TeamAcceptTransferResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    return {
      team_ref: requiredString(o, "team_ref", "", id),
      creator_principal_ref: requiredString(o, "creator_principal_ref", "", id),
      previous_creator_principal_ref: requiredString(o, "previous_creator_principal_ref", "", id),
    };
  });
}
