import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";

/**
 * Mutant `weak_admin` (docs/22-conformance.md, "Mutant contract"): the `team.admin` verbs answer
 * as usual but their effect is weakened where it matters most. A team's admin columns are never
 * rewritten, so `team rotate-secret` hands out a secret that admits nobody while the old one
 * keeps admitting, and `team transfer` records no offer (so the member it names has nothing to
 * accept and the creator never changes); a revocation is stored as `left`, so the revoked
 * member's sessions close and its token stops working in the team, yet any valid join secret
 * (an invitation too) lets it back. The suite must fail C-48, C-49, C-50, C-57, C-85 and C-95
 * (no offer, so none lapses), and nothing else.
 *
 * @example new DecoratedStore(store, weakAdminTx)
 */
export function weakAdminTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, {
    async updateTeam() {},
    async putMembership(row) {
      return tx.putMembership(row.status === "revoked" ? { ...row, status: "left" } : row);
    },
  });
}
