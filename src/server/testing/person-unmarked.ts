import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";

/**
 * Mutant `person_unmarked` (docs/22-conformance.md, "Mutant contract"): a person's message
 * (capability `message.person`) is stored under a sender id of its own (`u-` and the principal
 * ref) instead of the principal's ref, so the server no longer stamps it as a person's — the
 * recipient's envelope carries no `sender.kind`, the person's listing reads it as a session's,
 * and its idempotency key is never found again. Every other message is stored as usual. The
 * suite must fail C-90, C-93 and C-94, and nothing else.
 *
 * @example new DecoratedStore(store, personUnmarkedTx)
 */
export function personUnmarkedTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, {
    async insertMessage(row) {
      const person = row.sender_session_id === row.sender_principal_ref;
      await tx.insertMessage(
        person ? { ...row, sender_session_id: `u-${row.sender_principal_ref}` } : row,
      );
    },
  });
}
