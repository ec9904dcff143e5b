import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";

/**
 * Mutant `no_ack_persistence` (docs/22-conformance.md, "Mutant contract"): `ackMessage` answers as
 * the real store does — true exactly when the message exists and is addressed to the session — but
 * writes nothing, so an acked message stays unacked: `receive` keeps returning it and a new watch
 * re-emits it. The suite must fail C-30 and C-36, and nothing else.
 *
 * @example new DecoratedStore(store, noAckPersistenceTx)
 */
export function noAckPersistenceTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, {
    async ackMessage(messageId, recipientSessionId) {
      const message = await tx.getMessage(messageId);
      return message !== null && message.recipient_session_id === recipientSessionId;
    },
  });
}
