/**
 * Test-only server pieces: the server halves of the conformance positive controls (mutants) and
 * the `serve-mutant` entry. Production code never imports this folder.
 */
export { capsSwappedTx } from "./caps-swapped.ts";
export { CreatorLeavesService, nobodyElseTx } from "./creator-leaves.ts";
export type { TxDecorator } from "./decorated-store.ts";
export { DecoratedStore, overrideTx } from "./decorated-store.ts";
export { EagerTransferService, handOverAtOnceTx } from "./eager-transfer.ts";
export { invitationReuseTx } from "./invitation-reuse.ts";
export { liveStaleTx } from "./live-stale.ts";
export { noAckPersistenceTx } from "./no-ack-persistence.ts";
export { ownersStayActiveTx, RemovedReachableService } from "./removed-reachable.ts";
export type { ServeMutantIo } from "./serve-mutant-command.ts";
export { MUTANT_ENV, runServeMutant } from "./serve-mutant-command.ts";
export type { ServerMutant } from "./server-mutants.ts";
export { isServerMutant, mutantServiceFactory, SERVER_MUTANTS } from "./server-mutants.ts";
export { leakingStatesTx, ownAnySessionTx, StateLeakService } from "./state-leak.ts";
export { leakingSessionListTx, membershipBypassTx, TeamLeakService } from "./team-leak.ts";
export { tokenKeptTx } from "./token-kept.ts";
export type { ClaimedMembers } from "./trusted-sender.ts";
export {
  applyClaims,
  splitClaims,
  TrustedSenderService,
  trustedSendTx,
} from "./trusted-sender.ts";
export { UnitDecoratingService } from "./unit-decorating-service.ts";
export { weakAdminTx } from "./weak-admin.ts";
