import {
  BapError,
  notCreatorError,
  notFoundError,
  notMemberError,
  type ProtocolError,
} from "../protocol/index.ts";
import type { MembershipRow, SessionRow, StoreTx, TeamRow } from "./store.ts";

/** Throws `error` as a `BapError`: every service failure leaves through here or a validator. */
export function fail(error: ProtocolError): never {
  throw new BapError(error);
}

/**
 * The team and the caller's membership when the caller is an active member; `null` when not
 * (unknown team, never a member, left, revoked).
 */
export async function activeMembership(
  tx: StoreTx,
  teamRef: string,
  principalRef: string,
): Promise<{ team: TeamRow; membership: MembershipRow } | null> {
  const team = await tx.getTeam(teamRef);
  const membership = team === null ? null : await tx.getMembership(teamRef, principalRef);
  if (team === null || membership === null || membership.status !== "active") return null;
  return { team, membership };
}

/**
 * The team and the caller's membership when the caller is an active member; otherwise (unknown
 * team, never a member, left, revoked) the uniform `unauthorized`.
 */
export async function requireMember(
  tx: StoreTx,
  teamRef: string,
  principalRef: string,
): Promise<{ team: TeamRow; membership: MembershipRow }> {
  return (await activeMembership(tx, teamRef, principalRef)) ?? fail(notMemberError());
}

/**
 * The team when the caller is its creator. A non-member (or unknown team) gets the uniform
 * `unauthorized` first, so only a member ever learns that the verb is creator-only
 * (`unauthorized` `not_creator`).
 */
export async function requireCreator(
  tx: StoreTx,
  teamRef: string,
  principalRef: string,
): Promise<TeamRow> {
  const { team } = await requireMember(tx, teamRef, principalRef);
  if (team.creator_principal_ref !== principalRef) fail(notCreatorError());
  return team;
}

/** The session when it exists, is in the team and belongs to the caller; else `null`. */
export async function ownedSession(
  tx: StoreTx,
  teamRef: string,
  principalRef: string,
  sessionId: string,
): Promise<SessionRow | null> {
  const session = await tx.getSession(sessionId);
  if (session === null || session.team_ref !== teamRef || session.principal_ref !== principalRef)
    return null;
  return session;
}

/** The session when it exists, is in the team and belongs to the caller; else uniform `not_found`. */
export async function requireOwnedSession(
  tx: StoreTx,
  teamRef: string,
  principalRef: string,
  sessionId: string,
): Promise<SessionRow> {
  return (await ownedSession(tx, teamRef, principalRef, sessionId)) ?? fail(notFoundError());
}
