import { sessionRefusal } from "./session-refusal.ts";
import type { FetchCommand, FetchOutcome, MessageRow, StoreTx } from "./store.ts";

/**
 * Answers one watch's fetch inside a unit of work: the path of every store without its own
 * {@link Store.fetchMessages}. The checks are the ones of every session verb, in their order
 * ({@link sessionRefusal}: active membership, then the owned session); then each id is read, and
 * kept when it is still unacknowledged and addressed to the session now. Reads only.
 */
export async function fetchInTx(tx: StoreTx, command: FetchCommand): Promise<FetchOutcome> {
  const refused = await sessionRefusal(tx, command);
  if (refused !== null) return refused;
  const messages: MessageRow[] = [];
  for (const id of command.messageIds) {
    const row = await tx.getMessage(id);
    if (row !== null && row.recipient_session_id === command.sessionId && row.acked_at === null)
      messages.push(row);
  }
  return { ok: true, messages };
}
