/**
 * The watcher (`brigade watch`, claude-code.md §7.4): its files (pidfile, status, notice), the
 * process probe (start token, zombie check), spawning and stopping it, and its loop.
 */
export {
  PROC_STAT_FAILURES,
  type ProcessLiveness,
  type ProcessProbe,
  type ProcStatFailure,
  type ProcStatParse,
  parseProcStat,
  processLiveness,
  processStartToken,
  systemProcessProbe,
} from "./process-probe.ts";
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
