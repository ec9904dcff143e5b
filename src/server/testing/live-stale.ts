import type { SessionRow, StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";

/**
 * Mutant `live_stale` (docs/22-conformance.md, "Mutant contract"): a session's live delivery is
 * written once, at registration, and never again — `updateSession` and `updateOpenSession` keep
 * the stored `live_delivery` and the time it was said whatever the heartbeat (or resume) said;
 * every other column is written as usual. A sender would keep reading a stale "not live" (or
 * "live") mark, and a `yes` the harness keeps renewing ages into `watcher_silent`. The suite must
 * fail C-53 (and, with `--slow`, C-54) and nothing else.
 *
 * @example new DecoratedStore(store, liveStaleTx)
 */
export function liveStaleTx(tx: StoreTx): StoreTx {
  const keepStored = async (row: SessionRow): Promise<SessionRow> => {
    const stored = await tx.getSession(row.session_id);
    return {
      ...row,
      live_delivery: stored?.live_delivery ?? row.live_delivery,
      live_delivery_at: stored?.live_delivery_at ?? row.live_delivery_at,
    };
  };
  return overrideTx(tx, {
    async updateSession(row) {
      return tx.updateSession(await keepStored(row));
    },
    async updateOpenSession(row) {
      return tx.updateOpenSession(await keepStored(row));
    },
  });
}
