import {
  conflictError,
  notFoundError,
  type TeamAcceptTransferResult,
  type TeamRevokeMemberResult,
  type TeamRotateSecretResult,
  type TeamTransferResult,
  TRANSFER_OFFER_LIMITS,
  transferOfferExpiredError,
  validateTeamMemberTarget,
  validateTeamTransferTarget,
  valueOrThrow,
} from "../protocol/index.ts";
import { fail, requireCreator, requireMember } from "./access-checks.ts";
import { mintJoinSecret } from "./mint-join-secret.ts";
import type { ServiceContext } from "./service-context.ts";
import { offerStands } from "./transfer-offer.ts";

/** `team rotate-secret` (cap `team.admin`); the contract is `BrigadeService.rotateSecret`. */
export async function rotateSecret(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
): Promise<TeamRotateSecretResult> {
  return ctx.store.transact(async (tx) => {
    await tx.lockTeam(teamRef);
    const team = await requireCreator(tx, teamRef, principalRef);
    const { secret, digest } = mintJoinSecret(ctx.deps, team.team_ref);
    await tx.updateTeam({ ...team, secret_digest: digest });
    // A rotation is the one answer to "something leaked": nothing handed out before it admits.
    const revoked = await tx.revokeActiveInvitations(team.team_ref, ctx.deps.now());
    return {
      team_ref: team.team_ref,
      team_name: team.team_name,
      join_secret: secret,
      invitations_revoked: revoked,
    };
  });
}

/** `team revoke-member` (cap `team.admin`); the contract is `BrigadeService.revokeMember`. */
export async function revokeMember(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  target: unknown,
): Promise<TeamRevokeMemberResult> {
  const { principal_ref: targetRef } = valueOrThrow(validateTeamMemberTarget(target));
  await ctx.store.transact(async (tx) => {
    await tx.lockTeam(teamRef);
    const team = await requireCreator(tx, teamRef, principalRef);
    const membership = await tx.getMembership(team.team_ref, targetRef);
    if (membership === null) fail(notFoundError());
    if (targetRef === team.creator_principal_ref) fail(conflictError("team_creator"));
    if (membership.status === "revoked") return;
    const now = ctx.deps.now();
    await tx.putMembership({ ...membership, status: "revoked", updated_at: now });
    await tx.closeOpenSessions(team.team_ref, targetRef, now);
    if (team.offered_to_principal_ref === targetRef) {
      await tx.updateTeam({ ...team, offered_to_principal_ref: null, offer_expires_at: null });
    }
  });
  ctx.hub.revoke(targetRef, teamRef);
  ctx.store.watchFeed?.membershipEnded(targetRef, teamRef);
  return { team_ref: teamRef, principal_ref: targetRef, revoked: true };
}

/** `team transfer` (cap `team.admin`); the contract is `BrigadeService.transferTeam`. */
export async function transferTeam(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  target: unknown,
): Promise<TeamTransferResult> {
  const wanted = valueOrThrow(validateTeamTransferTarget(target));
  const seconds = wanted.expires_in_seconds ?? TRANSFER_OFFER_LIMITS.default_expires_in_seconds;
  return ctx.store.transact(async (tx) => {
    await tx.lockTeam(teamRef);
    const team = await requireCreator(tx, teamRef, principalRef);
    // An offer to the creator itself withdraws the one that stands.
    const offered = wanted.principal_ref === principalRef ? null : wanted.principal_ref;
    if (offered !== null) {
      const membership = await tx.getMembership(team.team_ref, offered);
      if (membership?.status !== "active") fail(notFoundError());
    }
    const expiresAt = offered === null ? null : ctx.deps.now() + seconds * 1000;
    await tx.updateTeam({
      ...team,
      offered_to_principal_ref: offered,
      offer_expires_at: expiresAt,
    });
    return {
      team_ref: team.team_ref,
      creator_principal_ref: principalRef,
      offered_to_principal_ref: offered,
      expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    };
  });
}

/** `team accept-transfer` (cap `team.admin`); the contract is `BrigadeService.acceptTransfer`. */
export async function acceptTransfer(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
): Promise<TeamAcceptTransferResult> {
  const outcome = await ctx.store.transact(async (tx) => {
    await tx.lockTeam(teamRef);
    const { team } = await requireMember(tx, teamRef, principalRef);
    if (team.offered_to_principal_ref !== principalRef) fail(notFoundError());
    if (!offerStands(team, ctx.deps.now())) {
      // The lapsed offer is cleared in this unit, which must commit: the refusal leaves after it.
      await tx.updateTeam({ ...team, offered_to_principal_ref: null, offer_expires_at: null });
      return null;
    }
    await tx.updateTeam({
      ...team,
      creator_principal_ref: principalRef,
      offered_to_principal_ref: null,
      offer_expires_at: null,
    });
    return {
      team_ref: team.team_ref,
      creator_principal_ref: principalRef,
      previous_creator_principal_ref: team.creator_principal_ref,
    };
  });
  return outcome ?? fail(transferOfferExpiredError());
}
