import {
  BrigadeService,
  type ServiceDeps,
  type ServiceOptions,
  type Store,
} from "../../service/index.ts";
import { blobLeakTx } from "./blob-leak.ts";
import { capsSwappedTx } from "./caps-swapped.ts";
import { CreatorLeavesService } from "./creator-leaves.ts";
import { DecoratedStore } from "./decorated-store.ts";
import { EagerTransferService } from "./eager-transfer.ts";
import { invitationReuseTx } from "./invitation-reuse.ts";
import { liveStaleTx } from "./live-stale.ts";
import { noAckPersistenceTx } from "./no-ack-persistence.ts";
import { personUnmarkedTx } from "./person-unmarked.ts";
import { RemovedReachableService } from "./removed-reachable.ts";
import { StateLeakService } from "./state-leak.ts";
import { TeamLeakService } from "./team-leak.ts";
import { tokenKeptTx } from "./token-kept.ts";
import { TrustedSenderService } from "./trusted-sender.ts";
import { weakAdminTx } from "./weak-admin.ts";

/**
 * The mutants the test server knows: the keys of `CONFORMANCE_MUTANTS` (src/conformance/mutants.ts;
 * repeated here because the server layer may not import the conformance layer, and
 * test/conformance-mutants.test.ts checks the two lists are equal).
 *
 * @example SERVER_MUTANTS.includes("caps_swapped") // true
 */
export const SERVER_MUTANTS = [
  "no_ack_persistence",
  "team_leak",
  "trusted_sender",
  "caps_swapped",
  "weak_admin",
  "state_leak",
  "live_stale",
  "removed_reachable",
  "creator_leaves",
  "eager_transfer",
  "token_kept",
  "invitation_reuse",
  "blob_leak",
  "person_unmarked",
] as const;

/** One of {@link SERVER_MUTANTS}. */
export type ServerMutant = (typeof SERVER_MUTANTS)[number];

/**
 * Whether `name` is exactly one of {@link SERVER_MUTANTS} (case-sensitive).
 *
 * @example isServerMutant("caps_swapped") // true; isServerMutant("CAPS_SWAPPED") // false
 */
export function isServerMutant(name: unknown): name is ServerMutant {
  return typeof name === "string" && (SERVER_MUTANTS as readonly string[]).includes(name);
}

/**
 * The service factory (for `startServer`'s test-only `createService`) that builds the server half
 * of `mutant` over the real store, with the options `brigade serve --limit` gave it:
 * `no_ack_persistence`, `caps_swapped`, `weak_admin`, `live_stale`, `token_kept`,
 * `invitation_reuse`, `blob_leak` and `person_unmarked` are store decorators
 * under the real service; `team_leak`, `trusted_sender`, `state_leak`, `removed_reachable`,
 * `creator_leaves` and `eager_transfer` are service subclasses over decorated stores. Contract: docs/22-conformance.md, "Mutant contract".
 *
 * @example startServer({ …, createService: mutantServiceFactory("caps_swapped") })
 */
export function mutantServiceFactory(
  mutant: ServerMutant,
): (store: Store, deps: ServiceDeps, options?: ServiceOptions) => BrigadeService {
  switch (mutant) {
    case "no_ack_persistence":
      return (store, deps, options) =>
        new BrigadeService(new DecoratedStore(store, noAckPersistenceTx), deps, options);
    case "caps_swapped":
      return (store, deps, options) =>
        new BrigadeService(new DecoratedStore(store, capsSwappedTx), deps, options);
    case "team_leak":
      return (store, deps) => new TeamLeakService(store, deps);
    case "trusted_sender":
      return (store, deps) => new TrustedSenderService(store, deps);
    case "weak_admin":
      return (store, deps, options) =>
        new BrigadeService(new DecoratedStore(store, weakAdminTx), deps, options);
    case "state_leak":
      return (store, deps) => new StateLeakService(store, deps);
    case "live_stale":
      return (store, deps, options) =>
        new BrigadeService(new DecoratedStore(store, liveStaleTx), deps, options);
    case "removed_reachable":
      return (store, deps) => new RemovedReachableService(store, deps);
    case "creator_leaves":
      return (store, deps) => new CreatorLeavesService(store, deps);
    case "invitation_reuse":
      return (store, deps) =>
        new BrigadeService(new DecoratedStore(store, invitationReuseTx), deps);
    case "eager_transfer":
      return (store, deps) => new EagerTransferService(store, deps);
    case "token_kept":
      return (store, deps, options) =>
        new BrigadeService(new DecoratedStore(store, tokenKeptTx), deps, options);
    case "blob_leak":
      return (store, deps, options) =>
        new BrigadeService(new DecoratedStore(store, blobLeakTx), deps, options);
    case "person_unmarked":
      return (store, deps, options) =>
        new BrigadeService(new DecoratedStore(store, personUnmarkedTx), deps, options);
  }
}
