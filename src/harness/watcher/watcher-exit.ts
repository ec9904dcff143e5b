import type { ErrorCode } from "../../protocol/index.ts";

/**
 * Why the watcher (`runWatcher`) returned: `claude_gone` (Claude Code's pid is dead, a zombie or reused),
 * `map_gone` (the by-pid map is missing or unreadable), `map_changed` (it names another Brigade
 * session), `signal` (SIGTERM / SIGINT, or the caller's abort), `already_running` (a live watcher
 * holds the pidfile), `fatal_error` (the watch failed with `unauthenticated`, `unauthorized`,
 * `protocol_mismatch` or `config`), `not_in_session` (no valid `--claude-pid` / `CLAUDE_PID` or
 * no map at start), `state_dir_relative` (no absolute state folder), `pidfile_failed` (the
 * pidfile could not be written), `no_config_dir` (no absolute adapter config folder),
 * `inbound_gate` (Claude Code's gate would hold every post: the session bypasses permission
 * prompts and its user settings do not accept, so the watcher stands aside and the hooks deliver
 * at prompts and between tool calls, docs/41-watcher.md "The gate rule").
 *
 * @example WATCHER_EXIT_REASONS.includes("claude_gone") === true
 */
export const WATCHER_EXIT_REASONS = [
  "claude_gone",
  "map_gone",
  "map_changed",
  "signal",
  "already_running",
  "fatal_error",
  "not_in_session",
  "state_dir_relative",
  "pidfile_failed",
  "no_config_dir",
  "inbound_gate",
] as const;

/** One exit reason of the watcher. */
export type WatcherExitReason = (typeof WATCHER_EXIT_REASONS)[number];

/** How the watcher ended: the reason and the process exit status. */
export interface WatcherExit {
  readonly reason: WatcherExitReason;
  readonly status: number;
  /** The error code, for `fatal_error`. */
  readonly code?: ErrorCode;
}
