import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";

/**
 * Mutant `token_kept` (docs/22-conformance.md, "Mutant contract"): a token rotation answers as
 * usual (a new token, which the server's principal cache then accepts) but the store keeps the
 * old token's digest, so the old token, wherever a copy of it went, keeps working. Every other
 * verb is the real one. The suite must fail C-58, and nothing else.
 *
 * @example new DecoratedStore(store, tokenKeptTx)
 */
export function tokenKeptTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, { replacePrincipalToken: async () => true });
}
