/**
 * The watcher (`brigade watch`, docs/spec/claude-code.md §7.4): its files (pidfile, status,
 * notice), the process probe (start token, zombie check), spawning and stopping it, and its loop.
 */

export { ACK_LIMITS, AckBatcher, type AckBatcherOptions } from "./ack-batcher.ts";
export { GATE_CLOSED_NOTICE } from "./delivery-notices.ts";
export { deliveryOwned, PUSH_LANE_INBOX_LINE } from "./delivery-owner.ts";
export {
  ENSURE_WATCHER_FAILURES,
  type EnsureWatcherFailure,
  type EnsureWatcherOptions,
  type EnsureWatcherResult,
  ensureWatcher,
  type StopWatcherOptions,
  stopWatcher,
  WATCHER_BUILD_VERSION,
  watcherEnvironment,
  watcherVersion,
} from "./ensure-watcher.ts";
export { successorPacer } from "./inbox-delivery.ts";
export { harnessLiveDelivery } from "./live-delivery-report.ts";
export {
  PROC_STAT_FAILURES,
  type ProcessLiveness,
  type ProcessProbe,
  type ProcStatFailure,
  type ProcStatParse,
  parentPid,
  parseProcStat,
  processLiveness,
  processStartToken,
  systemProcessProbe,
} from "./process-probe.ts";
export { RedeliverySchedule } from "./redelivery-schedule.ts";
export {
  type RunWatcherOptions,
  runWatcher,
  WATCHER_EXIT_REASONS,
  type WatcherExit,
  type WatcherExitReason,
} from "./run-watcher.ts";
export { checkSession, type SessionCheck } from "./session-check.ts";
export { SessionHeartbeats, type SessionHeartbeatsOptions } from "./session-heartbeats.ts";
export { SupervisedWatch, type SupervisedWatchOptions } from "./supervised-watch.ts";
export { WakeableWait } from "./wakeable-wait.ts";
export { WatchSupervision } from "./watch-supervision.ts";
export { watcherAdapterLogger } from "./watcher-adapter-logger.ts";
export { nextRetryDelay, WATCHER_BACKOFF, type WatcherBackoff } from "./watcher-backoff.ts";
export { errorCodeOf } from "./watcher-error-code.ts";
export {
  acquirePidfile,
  deletePidfileIfNames,
  isPidfileLive,
  isWatcherRunning,
  MAX_WATCHER_FILE_BYTES,
  type PidfileAcquisition,
  readWatcherPidfile,
  readWatcherStatus,
  tokenSha256,
  WATCHER_STATES,
  type WatcherPidfile,
  type WatcherState,
  type WatcherStatus,
  watcherStatusPath,
  writeWatcherNotice,
  writeWatcherStatus,
} from "./watcher-files.ts";
export {
  fileWatcherLog,
  silentWatcherLog,
  WATCHER_LOG_MAX_BYTES,
  type WatcherLog,
  type WatcherLogFields,
} from "./watcher-log.ts";
export { WatcherStatusBoard } from "./watcher-status-board.ts";
