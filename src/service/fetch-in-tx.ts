import { activeMembership, ownedSession } from "./access-checks.ts";
import type { FetchCommand, FetchOutcome, MessageRow, StoreTx } from "./store.ts";

/**
 * Answers one watch's fetch inside a unit of work: the path of every store without its own
 * {@link Store.fetchMessages}. The checks are the ones of every session verb, in their order
 * (active membership, then the owned session); then each id is read, and kept when it is still
 * unacknowledged and addressed to the session now. Reads only.
 */
export async function fetchInTx(tx: StoreTx, command: FetchCommand): Promise<FetchOutcome> {
  const { principalRef, teamRef, sessionId } = command;
  if ((await activeMembership(tx, teamRef, principalRef)) === null)
    return { ok: false, refusal: "unauthorized" };
  if ((await ownedSession(tx, teamRef, principalRef, sessionId)) === null)
    return { ok: false, refusal: "not_found" };
  const messages: MessageRow[] = [];
  for (const id of command.messageIds) {
    const row = await tx.getMessage(id);
    if (row !== null && row.recipient_session_id === sessionId && row.acked_at === null)
      messages.push(row);
  }
  return { ok: true, messages };
}
