/**
 * The watcher (`brigade watch`, docs/spec/claude-code.md §7.4): its files (pidfile, status,
 * notice), the process probe (start token, zombie check), spawning and stopping it, and its loop.
 */

export { GATE_CLOSED_NOTICE } from "./delivery-notices.ts";
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
export {
  type RunWatcherOptions,
  runWatcher,
  WATCHER_EXIT_REASONS,
  type WatcherExit,
  type WatcherExitReason,
} from "./run-watcher.ts";
export { nextRetryDelay, WATCHER_BACKOFF, type WatcherBackoff } from "./watcher-backoff.ts";
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
