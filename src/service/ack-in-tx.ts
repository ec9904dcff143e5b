import { sessionRefusal } from "./session-refusal.ts";
import type { AckCommand, AckOutcome, StoreTx } from "./store.ts";

/**
 * Runs one `message ack` inside a unit of work: the path of every store without its own
 * {@link Store.ackMessages}. The checks are the ones of every session verb, in their order
 * ({@link sessionRefusal}: active membership, then the owned session); then each id is
 * acknowledged at `command.at` when it is addressed to the session now (`acked`, also when it was
 * already), else it is `unknown`.
 */
export async function ackInTx(tx: StoreTx, command: AckCommand): Promise<AckOutcome> {
  const refused = await sessionRefusal(tx, command);
  if (refused !== null) return refused;
  const acked: string[] = [];
  const unknown: string[] = [];
  for (const id of command.messageIds) {
    if (await tx.ackMessage(id, command.sessionId, command.at)) acked.push(id);
    else unknown.push(id);
  }
  return { ok: true, acked, unknown };
}
