import { PROTOCOL_LIMITS } from "../../protocol/index.ts";
import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";

/**
 * Mutant `caps_swapped` (docs/22-conformance.md, "Mutant contract"): the service checks
 * `sender_quota_for_recipient` (per-pair unacked count) before `recipient_inbox_full`
 * (docs/spec/protocol.md §6.16 step i). While the recipient's inbox is at its cap (60 unacked), the
 * per-pair count reads 0, so the inbox check fires first — the two checks in reversed order;
 * otherwise the count is the real one. The suite must fail C-28 ("pair and inbox both at limit"),
 * and nothing else.
 *
 * @example new DecoratedStore(store, capsSwappedTx)
 */
export function capsSwappedTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, {
    async unackedFromTo(senderSessionId, recipientSessionId) {
      const inbox = await tx.unackedFor(recipientSessionId);
      if (inbox >= PROTOCOL_LIMITS.max_unacked_per_recipient) return 0;
      return tx.unackedFromTo(senderSessionId, recipientSessionId);
    },
  });
}
