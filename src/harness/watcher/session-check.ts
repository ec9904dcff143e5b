import { type ByPidMap, readByPidMap } from "../state/index.ts";
import type { ProcessProbe } from "./process-probe.ts";
import type { WatcherLog } from "./watcher-log.ts";

/** One look at the watcher's session: still ours (with the map as it is now), or why to stop. */
export type SessionCheck =
  | { readonly ok: true; readonly map: ByPidMap }
  | { readonly ok: false; readonly reason: "claude_gone" | "map_gone" | "map_changed" };

/** What {@link checkSession} looks at. */
export interface SessionCheckOptions {
  readonly probe: Pick<ProcessProbe, "liveness">;
  /** Claude Code's pid, from the map the watcher started with. */
  readonly claudePid: number;
  /** The Brigade session the watcher serves. */
  readonly sessionId: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly uid: number;
  readonly log: WatcherLog;
}

/**
 * The first steps of the watcher's liveness tick (docs/41-watcher.md "Liveness tick"): Claude
 * Code's pid not `alive` (dead, a zombie, reused) → `claude_gone`; the by-pid map failing
 * `readByPidMap` → `map_gone`; naming another Brigade session → `map_changed`. Each stop is
 * logged with its own event (`claude_gone` with the liveness, `map_gone` with the read's reason,
 * `map_changed`); nothing is logged while the session is still ours. Never throws.
 *
 * @example const check = checkSession(options); if (!check.ok) stop(check.reason);
 */
export function checkSession(options: SessionCheckOptions): SessionCheck {
  const { log } = options;
  const liveness = options.probe.liveness(options.claudePid);
  if (liveness !== "alive") {
    log.write("info", "claude_gone", { liveness });
    return { ok: false, reason: "claude_gone" };
  }
  const claudePid = String(options.claudePid);
  const read = readByPidMap({ claudePid, env: options.env, uid: options.uid });
  if (!read.ok) {
    log.write("info", "map_gone", { reason: read.reason });
    return { ok: false, reason: "map_gone" };
  }
  if (read.map.brigade_session_id !== options.sessionId) {
    log.write("info", "map_changed");
    return { ok: false, reason: "map_changed" };
  }
  return { ok: true, map: read.map };
}
