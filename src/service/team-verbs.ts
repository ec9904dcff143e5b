import {
  conflictError,
  digestJoinSecret,
  invitationSpentError,
  joinRejectedError,
  notMemberError,
  type ProtocolError,
  type TeamCreateResult,
  type TeamJoinResult,
  type TeamLabelResult,
  type TeamLeaveResult,
  type TeamMembersResult,
  validateTeamCreateRequest,
  validateTeamJoinRequest,
  validateTeamLabelRequest,
  valueOrThrow,
  verifyJoinSecretDigest,
} from "../protocol/index.ts";
import { fail, requireMember } from "./access-checks.ts";
import { mintJoinSecret } from "./mint-join-secret.ts";
import { enforceRateRules } from "./rate-rules.ts";
import type { ServiceContext } from "./service-context.ts";
import { joinByInvitation } from "./team-invitation-verbs.ts";
import { isoTime } from "./wire-records.ts";

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
      offer_expires_at: null,
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
  type Outcome = { ok: true; result: TeamJoinResult } | { ok: false; error: ProtocolError };
  const outcome = await ctx.store.transact(async (tx): Promise<Outcome> => {
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
    // A refusal is recorded for the join limiter and answered after the unit, which commits it.
    const refuse = async (error: ProtocolError): Promise<Outcome> => {
      await tx.recordJoinFailure(principalRef, now);
      return { ok: false, error };
    };
    if (team === null || existing?.status === "revoked") return refuse(joinRejectedError());
    if (!matches) {
      // Not the team's secret: perhaps one of its invitations (capability team.invitations).
      const invited = await joinByInvitation(
        tx,
        team.team_ref,
        digestJoinSecret(secret),
        existing?.status === "active",
        now,
      );
      if (invited.kind === "unknown") return refuse(joinRejectedError());
      if (invited.kind === "spent")
        return refuse(invitationSpentError(`invitation_${invited.state}`));
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
      ok: true,
      result: {
        team_ref: team.team_ref,
        team_name: team.team_name,
        principal_ref: principalRef,
        rejoined: existing !== null,
      },
    };
  });
  if (!outcome.ok) fail(outcome.error);
  return outcome.result;
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
      await tx.updateTeam({ ...team, offered_to_principal_ref: null, offer_expires_at: null });
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
      creator_principal_ref: team.creator_principal_ref,
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

/** `team label` (cap `team.labels`); the contract is `BrigadeService.setLabel`. */
export async function setLabel(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  request: unknown,
): Promise<TeamLabelResult> {
  const { human_label: label } = valueOrThrow(validateTeamLabelRequest(request));
  return ctx.store.transact(async (tx) => {
    await tx.lockTeam(teamRef);
    const { team, membership } = await requireMember(tx, teamRef, principalRef);
    await tx.putMembership({ ...membership, human_label: label, updated_at: ctx.deps.now() });
    return { team_ref: team.team_ref, principal_ref: principalRef, human_label: label };
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
