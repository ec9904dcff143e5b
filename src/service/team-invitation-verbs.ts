import {
  INVITATION_LIMITS,
  type InvitationRecord,
  type InvitationState,
  notFoundError,
  type TeamInvitationsResult,
  type TeamInviteResult,
  type TeamRevokeInviteResult,
  validateTeamInvitationTarget,
  validateTeamInviteRequest,
  valueOrThrow,
} from "../protocol/index.ts";
import { fail, requireCreator } from "./access-checks.ts";
import { mintJoinSecret } from "./mint-join-secret.ts";
import { enforceRateRules } from "./rate-rules.ts";
import type { ServiceContext } from "./service-context.ts";
import type { InvitationRow, StoreTx } from "./store.ts";
import { isoTime } from "./wire-records.ts";

const SECOND_MS = 1000;

/**
 * Where `row` stands at `now` (ms), first match wins: `revoked`, `used` (every use taken),
 * `expired` (`now` at or past `expires_at`), else `active`.
 *
 * @example invitationState({ ...row, uses: 1, max_uses: 1 }, now) === "used"
 */
export function invitationState(row: InvitationRow, now: number): InvitationState {
  if (row.revoked_at !== null) return "revoked";
  if (row.uses >= row.max_uses) return "used";
  if (now >= row.expires_at) return "expired";
  return "active";
}

function record(row: InvitationRow, now: number): InvitationRecord {
  return {
    invitation_id: row.invitation_id,
    state: invitationState(row, now),
    max_uses: row.max_uses,
    uses: row.uses,
    created_at: isoTime(row.created_at),
    expires_at: isoTime(row.expires_at),
    last_used_at: row.last_used_at === null ? null : isoTime(row.last_used_at),
    revoked_at: row.revoked_at === null ? null : isoTime(row.revoked_at),
  };
}

/** `team invite` (cap `team.invitations`); the contract is `BrigadeService.createInvitation`. */
export async function createInvitation(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  request: unknown,
): Promise<TeamInviteResult> {
  const wanted = valueOrThrow(validateTeamInviteRequest(request));
  const maxUses = wanted.max_uses ?? INVITATION_LIMITS.default_uses;
  const expiresIn = wanted.expires_in_seconds ?? INVITATION_LIMITS.default_expires_in_seconds;
  return ctx.store.transact(async (tx) => {
    // The team's lock keeps two invites of one team from both passing the limit with its last slot.
    await tx.lockTeam(teamRef);
    const team = await requireCreator(tx, teamRef, principalRef);
    const now = ctx.deps.now();
    await enforceRateRules(tx, "team_invite", { teamRef: team.team_ref }, now);
    const { secret, digest } = mintJoinSecret(ctx.deps, team.team_ref);
    const row: InvitationRow = {
      invitation_id: ctx.deps.newId("i"),
      team_ref: team.team_ref,
      secret_digest: digest,
      created_by: principalRef,
      max_uses: maxUses,
      uses: 0,
      created_at: now,
      expires_at: now + expiresIn * SECOND_MS,
      last_used_at: null,
      revoked_at: null,
    };
    await tx.insertInvitation(row);
    return {
      team_ref: team.team_ref,
      team_name: team.team_name,
      invitation_id: row.invitation_id,
      invitation: secret,
      max_uses: row.max_uses,
      expires_at: isoTime(row.expires_at),
    };
  });
}

/** `team invitations` (cap `team.invitations`); the contract is `BrigadeService.listInvitations`. */
export async function listInvitations(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
): Promise<TeamInvitationsResult> {
  return ctx.store.transact(async (tx) => {
    const team = await requireCreator(tx, teamRef, principalRef);
    const now = ctx.deps.now();
    const rows = await tx.listInvitations(team.team_ref, INVITATION_LIMITS.max_listed + 1);
    return {
      team_ref: team.team_ref,
      server_time: isoTime(now),
      invitations: rows.slice(0, INVITATION_LIMITS.max_listed).map((row) => record(row, now)),
      truncated: rows.length > INVITATION_LIMITS.max_listed,
    };
  });
}

/** `team revoke-invite` (cap `team.invitations`); the contract is `BrigadeService.revokeInvitation`. */
export async function revokeInvitation(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  target: unknown,
): Promise<TeamRevokeInviteResult> {
  const { invitation_id: invitationId } = valueOrThrow(validateTeamInvitationTarget(target));
  return ctx.store.transact(async (tx) => {
    await tx.lockTeam(teamRef);
    const team = await requireCreator(tx, teamRef, principalRef);
    const now = ctx.deps.now();
    if ((await tx.getInvitation(team.team_ref, invitationId)) === null) fail(notFoundError());
    await tx.revokeInvitation(invitationId, now);
    const after = await tx.getInvitation(team.team_ref, invitationId);
    if (after === null) fail(notFoundError());
    const state = invitationState(after, now);
    // Only an active invitation is revoked: one that already ended keeps how it ended.
    return {
      team_ref: team.team_ref,
      invitation_id: invitationId,
      state: state === "active" ? "revoked" : state,
    };
  });
}

/**
 * What an invitation did for a `team join` whose secret is not the team's own:
 * `admitted` (a use was taken), `member` (the caller is already an active member: a rejoin that
 * takes no use, whatever the invitation's state), `unknown` (no invitation of the team has this
 * secret), or the state that refuses it.
 */
export type InvitationJoin =
  | { readonly kind: "admitted" | "member" | "unknown" }
  | { readonly kind: "spent"; readonly state: Exclude<InvitationState, "active"> };

/**
 * Inside a `team join` unit that holds the team's lock: looks the invitation up by the digest of
 * the presented secret and takes one use of it (`StoreTx.useInvitation`, a conditional write that
 * sees every committed use, so racing joins never take more than `max_uses`). A refused use is
 * explained by the invitation as committed after the write.
 */
export async function joinByInvitation(
  tx: StoreTx,
  teamRef: string,
  secretDigest: string,
  alreadyActive: boolean,
  now: number,
): Promise<InvitationJoin> {
  const invitation = await tx.invitationByDigest(teamRef, secretDigest);
  if (invitation === null) return { kind: "unknown" };
  if (alreadyActive) return { kind: "member" };
  if (await tx.useInvitation(invitation.invitation_id, now)) return { kind: "admitted" };
  const current = (await tx.getInvitation(teamRef, invitation.invitation_id)) ?? invitation;
  const state = invitationState(current, now);
  // A use refused by the write while the row reads active can only be the clock's edge.
  return { kind: "spent", state: state === "active" ? "expired" : state };
}
