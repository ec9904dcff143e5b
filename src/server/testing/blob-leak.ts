import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";

/**
 * Mutant `blob_leak` (docs/22-conformance.md, "Mutant contract"): the recipient's side of a
 * blob's access rule (capability `message.attachments`) answers "a message names it for you" for
 * every blob of the team, so any member reads any teammate's uploads, and may name them in a
 * send of its own — the isolation of attachments inside a team is gone, the team's boundary and
 * every other rule stand. The suite must fail C-63, and nothing else.
 *
 * @example new DecoratedStore(store, blobLeakTx)
 */
export function blobLeakTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, {
    blobNamedFor: async (teamRef, sha256) => (await tx.getBlob(teamRef, sha256)) !== null,
  });
}
