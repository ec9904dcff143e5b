/**
 * The positive controls of docs/spec/protocol.md §12.4: each mutant of our real stack
 * (docs/22-conformance.md, "Mutant contract") and the exact set of cases the suite must fail
 * against it — no more, no fewer.
 *
 * @example CONFORMANCE_MUTANTS.caps_swapped // ["C-28"]
 */
export const CONFORMANCE_MUTANTS: {
  readonly no_ack_persistence: readonly ["C-30", "C-36", "C-51", "C-93"];
  readonly team_leak: readonly ["C-12", "C-26"];
  readonly trusted_sender: readonly ["C-23", "C-24"];
  readonly caps_swapped: readonly ["C-28"];
  readonly weak_admin: readonly ["C-48", "C-49", "C-50", "C-57", "C-85", "C-95"];
  readonly state_leak: readonly ["C-51", "C-52"];
  readonly live_stale: readonly ["C-53", "C-88", "C-89"];
  readonly removed_reachable: readonly ["C-55"];
  readonly creator_leaves: readonly ["C-56"];
  readonly eager_transfer: readonly ["C-57", "C-95"];
  readonly token_kept: readonly ["C-58"];
  readonly blob_leak: readonly ["C-63"];
  readonly invitation_reuse: readonly ["C-80", "C-81", "C-86"];
  readonly person_unmarked: readonly ["C-90", "C-93", "C-94"];
} = {
  no_ack_persistence: ["C-30", "C-36", "C-51", "C-93"],
  team_leak: ["C-12", "C-26"],
  trusted_sender: ["C-23", "C-24"],
  caps_swapped: ["C-28"],
  weak_admin: ["C-48", "C-49", "C-50", "C-57", "C-85", "C-95"],
  state_leak: ["C-51", "C-52"],
  live_stale: ["C-53", "C-88", "C-89"],
  removed_reachable: ["C-55"],
  creator_leaves: ["C-56"],
  eager_transfer: ["C-57", "C-95"],
  token_kept: ["C-58"],
  blob_leak: ["C-63"],
  invitation_reuse: ["C-80", "C-81", "C-86"],
  person_unmarked: ["C-90", "C-93", "C-94"],
};

/** A mutant name (the value of `BRIGADE_TEST_MUTANT` / the adapter's `--test-mutant`). */
export type ConformanceMutant = keyof typeof CONFORMANCE_MUTANTS;
