import { activeMembership, ownedSession } from "./access-checks.ts";
import type { SessionRefusal, StoreTx } from "./store.ts";

/** Whose session a session verb acts on: the caller, the team and the session. */
export interface SessionCaller {
  readonly principalRef: string;
  readonly teamRef: string;
  readonly sessionId: string;
}

/**
 * The two checks every session verb starts with, in their order, as an outcome instead of a
 * thrown error: `unauthorized` when the caller is not an active member of the team (or the team
 * is unknown), else `not_found` when the session is not the caller's in that team, else `null`
 * (both hold). The unit-of-work fetch and ack (`fetchInTx`, `ackInTx`) start here; the
 * PostgreSQL one-statement fetch and ack mirror it in SQL (`SESSION_ACCESS_SQL`, in
 * src/store/postgres/postgres-tx.ts). Reads only.
 *
 * @example
 * const refused = await sessionRefusal(tx, command);
 * if (refused !== null) return refused;
 */
export async function sessionRefusal(
  tx: StoreTx,
  caller: SessionCaller,
): Promise<SessionRefusal | null> {
  const { principalRef, teamRef, sessionId } = caller;
  if ((await activeMembership(tx, teamRef, principalRef)) === null)
    return { ok: false, refusal: "unauthorized" };
  if ((await ownedSession(tx, teamRef, principalRef, sessionId)) === null)
    return { ok: false, refusal: "not_found" };
  return null;
}
