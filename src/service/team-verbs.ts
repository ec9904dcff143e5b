import {
  conflictError,
  digestJoinSecret,
  generateJoinSecret,
  joinRejectedError,
  notMemberError,
  parseJoinSecret,
  protocolError,
  type TeamCreateResult,
  type TeamJoinResult,
  type TeamLeaveResult,
  type TeamMembersResult,
  validateTeamCreateRequest,
  validateTeamJoinRequest,
  valueOrThrow,
  verifyJoinSecretDigest,
} from "../protocol/index.ts";
import { fail, requireMember } from "./access-checks.ts";
import { enforceRateRules } from "./rate-rules.ts";
import type { ServiceContext } from "./service-context.ts";
import type { ServiceDeps } from "./service-deps.ts";
import { isoTime } from "./wire-records.ts";

/** A new join secret for the team (32 random bytes) and the digest the store keeps of it. */
export function mintJoinSecret(
  deps: ServiceDeps,
  teamRef: string,
): { secret: string; digest: string } {
  const secret = generateJoinSecret(teamRef, deps.randomBytes(32));
  const parsed = parseJoinSecret(secret);
  if (!parsed.ok) fail(protocolError("internal"));
  return { secret, digest: digestJoinSecret(parsed.value) };
}

/** `team create`; the contract is `BrigadeService.createTeam`. */
export async function createTeam(
  ctx: ServiceContext,
  principalRef: string,
  request: unknown,
): Promise<TeamCreateResult> {
  const { team_name: teamName, human_label: label } = valueOrThrow(
    validateTeamCreateRequest(request),
  );
  const teamRef = ctx.deps.newId("t");
  const { secret: joinSecret, digest } = mintJoinSecret(ctx.deps, teamRef);
  const now = ctx.deps.now();
  await ctx.store.transact(async (tx) => {
    await enforceRateRules(tx, "team_create", { principalRef }, now);
    await tx.insertTeam({
      team_ref: teamRef,
      team_name: teamName,
      secret_digest: digest,
      creator_principal_ref: principalRef,
      offered_to_principal_ref: null,
      created_at: now,
    });
    await tx.putMembership({
      team_ref: teamRef,
      principal_ref: principalRef,
      human_label: label === undefined || label === "" ? null : label,
      status: "active",
      joined_at: now,
      updated_at: now,
    });
  });
  return {
    team_ref: teamRef,
    team_name: teamName,
    join_secret: joinSecret,
    principal_ref: principalRef,
  };
}

/** `team join`; the contract (and its check order) is `BrigadeService.joinTeam`. */
export async function joinTeam(
  ctx: ServiceContext,
  principalRef: string,
  request: unknown,
): Promise<TeamJoinResult> {
  const { parsed_secret: secret, human_label: label } = valueOrThrow(
    validateTeamJoinRequest(request),
  );
  const outcome = await ctx.store.transact(async (tx): Promise<TeamJoinResult | null> => {
    await tx.lockTeam(secret.teamRef);
    const now = ctx.deps.now();
    await enforceRateRules(tx, "team_join", { principalRef }, now);
    const team = await tx.getTeam(secret.teamRef);
    // Compare against a digest even for an unknown team so both paths do the same work.
    const matches = verifyJoinSecretDigest(
      secret,
      team?.secret_digest ?? digestJoinSecret(secret).replace(/./g, "0"),
    );
    const existing = team === null ? null : await tx.getMembership(team.team_ref, principalRef);
    if (team === null || !matches || existing?.status === "revoked") {
      await tx.recordJoinFailure(principalRef, now);
      return null;
    }
    if (principalRef !== team.creator_principal_ref) await tx.markTeamUsed(team.team_ref, now);
    const humanLabel =
      label === undefined || label === "" ? (existing?.human_label ?? null) : label;
    await tx.putMembership({
      team_ref: team.team_ref,
      principal_ref: principalRef,
      human_label: humanLabel,
      status: "active",
      joined_at: existing?.joined_at ?? now,
      updated_at: now,
    });
    return {
      team_ref: team.team_ref,
      team_name: team.team_name,
      principal_ref: principalRef,
      rejoined: existing !== null,
    };
  });
  if (outcome === null) fail(joinRejectedError());
  return outcome;
}

/** `team leave`; the contract is `BrigadeService.leaveTeam`. */
export async function leaveTeam(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
): Promise<TeamLeaveResult> {
  await ctx.store.transact(async (tx) => {
    await tx.lockTeam(teamRef);
    const team = await tx.getTeam(teamRef);
    const membership = team === null ? null : await tx.getMembership(teamRef, principalRef);
    if (team === null || membership === null) fail(notMemberError());
    if (membership.status !== "active") return;
    const now = ctx.deps.now();
    // The creator hands the team on before it goes: a team whose creator left has nobody to
    // rotate a leaked secret or remove a member. With no one else left there is nobody to hand
    // it to, and the creator keeps the role for a rejoin.
    if (principalRef === team.creator_principal_ref) {
      const others = (await tx.listActiveMembers(teamRef, now)).some(
        (m) => m.principal_ref !== principalRef,
      );
      if (others) fail(conflictError("team_creator"));
    }
    await tx.putMembership({ ...membership, status: "left", updated_at: now });
    await tx.closeOpenSessions(teamRef, principalRef, now);
    // An offer stands for an active member only: a member who rejoins is offered the team anew.
    if (team.offered_to_principal_ref === principalRef) {
      await tx.updateTeam({ ...team, offered_to_principal_ref: null });
    }
  });
  ctx.hub.revoke(principalRef, teamRef);
  ctx.store.watchFeed?.membershipEnded(principalRef, teamRef);
  return { team_ref: teamRef, principal_ref: principalRef, left: true };
}

/** `team members`; the contract is `BrigadeService.listMembers`. */
export async function listMembers(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
): Promise<TeamMembersResult> {
  return ctx.store.transact(async (tx) => {
    const { team } = await requireMember(tx, teamRef, principalRef);
    const now = ctx.deps.now();
    const rows = await tx.listActiveMembers(teamRef, now);
    return {
      team_ref: team.team_ref,
      team_name: team.team_name,
      server_time: isoTime(now),
      members: rows.map((row) => ({
        principal_ref: row.principal_ref,
        human_label: row.human_label ?? "",
        status: "active",
        joined_at: isoTime(row.joined_at),
        last_seen_at: row.last_seen_at === null ? null : isoTime(row.last_seen_at),
        session_count: row.live_session_count,
      })),
    };
  });
}

/** Whether the principal is an active member of the team (never throws for a stranger). */
export async function isActiveMember(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
): Promise<boolean> {
  return ctx.store.transact(async (tx) => {
    const membership = await tx.getMembership(teamRef, principalRef);
    return membership?.status === "active";
  });
}
