import type { ErrorCode } from "../../protocol/index.ts";

/**
 * Why a push lane (`brigade host-watch`) returned (docs/errors.md `PUSH_LANE_EXIT_REASONS`):
 * `host_gone` (the client process is dead, a zombie or reused), `map_gone` (its by-pid map is
 * missing or unreadable), `map_changed` (it names another Brigade session), `signal` (SIGTERM /
 * SIGINT, or the caller's abort), `already_running` (a live lane or watcher holds the pidfile),
 * `fatal_error` (the watch was refused: `unauthenticated`, `unauthorized`, `protocol_mismatch`,
 * `config`), `not_in_session` (no by-pid map of this client for the pid), `state_dir_relative`
 * (no absolute state folder), `pidfile_failed` (the pidfile could not be written),
 * `no_config_dir` (no absolute configuration folder), `no_door` (the client opened no door for
 * this session: it keeps the pull lane), `unknown_client` (no such client, or one without a door).
 *
 * @example PUSH_LANE_EXIT_REASONS.includes("host_gone") === true
 */
export const PUSH_LANE_EXIT_REASONS = [
  "host_gone",
  "map_gone",
  "map_changed",
  "signal",
  "already_running",
  "fatal_error",
  "not_in_session",
  "state_dir_relative",
  "pidfile_failed",
  "no_config_dir",
  "no_door",
  "unknown_client",
] as const;

/** One exit reason of a push lane. */
export type PushLaneExitReason = (typeof PUSH_LANE_EXIT_REASONS)[number];

/** How a push lane ended: the reason and the process exit status. */
export interface PushLaneExit {
  readonly reason: PushLaneExitReason;
  readonly status: number;
  /** The error code, for `fatal_error`. */
  readonly code?: ErrorCode;
}
