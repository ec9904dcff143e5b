/**
 * The harness's local state (docs/spec/claude-code.md §7.1–§7.2): the state directory, its layout,
 * the `<stem>` rule, private atomic writes, the by-pid map writer and its trust-boundary reader,
 * the seen file, the hold (pending / release) files, the shown records of the hook paths, and a session's inbound pipeline over them
 * (`openSessionInbound`, the one way to open it).
 */
export {
  BY_PID_MAP_REASONS,
  type ByPidMap,
  type ByPidMapRead,
  type ByPidMapReason,
  type ByPidMapValidation,
  MAX_BY_PID_MAP_BYTES,
  type ReadByPidMapOptions,
  readByPidMap,
  readSessionMapFile,
  serializeByPidMap,
  UNKNOWN_PERMISSION_MODE,
  validateByPidMap,
  writeByPidMap,
} from "./by-pid-map.ts";
export {
  checkoutKey,
  MAX_CHECKOUT_SESSIONS,
  readCheckoutSessions,
  rememberCheckoutSession,
} from "./checkout-sessions.ts";
export { fileStem } from "./file-stem.ts";
export {
  consumeReleaseRequests,
  MAX_HOLD_FILE_BYTES,
  pendingFileStore,
  readPendingRecords,
  readReleaseRequests,
  requestRelease,
} from "./pending-file.ts";
export {
  type PrivateStateRead,
  type PrivateStateReadOptions,
  readPrivateStateFile,
  takePrivateStateFile,
  writePrivateStateFile,
} from "./private-state-file.ts";
export { FileSeenStore, MAX_SEEN_FILE_BYTES, parseSeenFile, type SeenFile } from "./seen-file.ts";
export {
  MAX_TRACKED_SENDS,
  readTrackedSends,
  TRACKED_SEND_MS,
  type TrackedSend,
  updateTrackedSends,
} from "./sent-file.ts";
export { openSessionInbound, type SessionInboundOptions } from "./session-inbound.ts";
export { sha256Hex } from "./sha256-hex.ts";
export { confirmShown, shownRecord } from "./shown-confirmation.ts";
export {
  MAX_SHOWN_RECORDS,
  readShownRecords,
  SHOWN_AS,
  type ShownAs,
  type ShownRecord,
  writeShownRecords,
} from "./shown-file.ts";
export { lockShown, SHOWN_LOCK_STALE_MS } from "./shown-lock.ts";
export { resolveStateDir, type StateDirEnv, type StateDirResult } from "./state-dir.ts";
export { type StateLayout, stateLayout } from "./state-layout.ts";
