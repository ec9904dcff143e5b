/**
 * Test-only adapter pieces: the adapter half of the conformance positive controls (mutant
 * `trusted_sender`) and the `adapter-mutant` entry. Production code never imports this folder.
 */
export type { AdapterMutant } from "./adapter-mutant-command.ts";
export { ADAPTER_MUTANTS, runAdapterMutant } from "./adapter-mutant-command.ts";
export type { SendClaims } from "./trusted-sender-claims.ts";
export { claimsForwardingFetch, claimsSplittingStdin } from "./trusted-sender-claims.ts";
