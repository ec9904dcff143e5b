import { join } from "node:path";
import { fileStem } from "./file-stem.ts";

/**
 * The paths of docs/spec/claude-code.md §7.1 under one state directory. `pid` arguments must be
 * decimal process ids (the caller validated `CLAUDE_PID`); session ids go through {@link fileStem}.
 *
 * @example stateLayout("/s").seen("s-1") === "/s/state/seen/s-1.json"
 */
export interface StateLayout {
  readonly root: string;
  /** `sessions/by-pid/<claude_pid>.json`: the by-pid map. */
  byPid(claudePid: string): string;
  /** `sessions/by-native/<stem(claude_session_id)>.json`: the resume hint. */
  byNative(claudeSessionId: string): string;
  /** `watchers/<claude_pid>.json`: the watcher pidfile. */
  watcher(claudePid: string): string;
  /** `watchers/<claude_pid>.status.json`: the watcher's status (state, deliveries). */
  watcherStatus(claudePid: string): string;
  /** `state/seen/<stem>.json`: ids injected for our session. */
  seen(brigadeSessionId: string): string;
  /** `state/pending/<stem>.json`: held records. */
  pending(brigadeSessionId: string): string;
  /** `state/release/<stem>.json`: release requests from a terminal. */
  release(brigadeSessionId: string): string;
  /** `state/sent/<stem>.json`: our sent messages whose end the prompt hook still watches for. */
  sent(brigadeSessionId: string): string;
  /** `state/checkouts/<stem(key)>.json`: the Brigade sessions one checkout had, for adoption. */
  checkout(checkoutKey: string): string;
  /** `state/shown/<stem>.json`: frames a hook or `brigade inbox show` showed, not yet confirmed. */
  shown(brigadeSessionId: string): string;
  /** `state/<pid>.notice`: the next prompt hook's one-shot line. */
  notice(claudePid: string): string;
  /** `logs/watcher-<pid>.log`. */
  watcherLog(claudePid: string): string;
}

/**
 * Builds the {@link StateLayout} under `root` (an absolute `BRIGADE_STATE_DIR`).
 *
 * @example stateLayout("/home/dana/.local/state/brigade").byPid("4242")
 */
export function stateLayout(root: string): StateLayout {
  return {
    root,
    byPid: (pid) => join(root, "sessions", "by-pid", `${pid}.json`),
    byNative: (id) => join(root, "sessions", "by-native", `${fileStem(id)}.json`),
    watcher: (pid) => join(root, "watchers", `${pid}.json`),
    watcherStatus: (pid) => join(root, "watchers", `${pid}.status.json`),
    seen: (id) => join(root, "state", "seen", `${fileStem(id)}.json`),
    pending: (id) => join(root, "state", "pending", `${fileStem(id)}.json`),
    release: (id) => join(root, "state", "release", `${fileStem(id)}.json`),
    sent: (id) => join(root, "state", "sent", `${fileStem(id)}.json`),
    checkout: (key) => join(root, "state", "checkouts", `${fileStem(key)}.json`),
    shown: (id) => join(root, "state", "shown", `${fileStem(id)}.json`),
    notice: (pid) => join(root, "state", `${pid}.notice`),
    watcherLog: (pid) => join(root, "logs", `watcher-${pid}.log`),
  };
}
