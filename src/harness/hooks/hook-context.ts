import type { Adapter } from "../../protocol/index.ts";
import { openHarnessAdapter } from "../adapter/index.ts";
import { resolveSessionTeam, type SessionTeam } from "../binding/index.ts";
import type { StateLayout } from "../state/index.ts";
import {
  type EnsureWatcherOptions,
  type EnsureWatcherResult,
  ensureWatcher,
  isWatcherRunning,
  readWatcherPidfile,
  type StopWatcherOptions,
  stopWatcher,
} from "../watcher/index.ts";

/**
 * The collaborators a hook calls, injected so tests can replace the watcher (a detached process)
 * and the adapter. {@link defaultHookServices} wires the real ones.
 *
 * @example const services: HookServices = { ...defaultHookServices(), ensureWatcher: async () => ({ outcome: "spawned" }) };
 */
export interface HookServices {
  resolveSessionTeam(options: { cwd: string; configDir: string | undefined }): SessionTeam;
  openAdapter(target: { configDir: string; teamKey: string }): Adapter;
  ensureWatcher(options: EnsureWatcherOptions): Promise<EnsureWatcherResult>;
  stopWatcher(options: StopWatcherOptions): Promise<void>;
  isWatcherRunning(layout: StateLayout, claudePid: string): boolean;
  /** The session a live watcher of `claudePid` serves, if one runs. */
  watcherSession(layout: StateLayout, claudePid: string): string | undefined;
}

/**
 * The real collaborators: `resolveSessionTeam` (src/harness/binding), `openHarnessAdapter`, and the
 * watcher's `ensureWatcher` / `stopWatcher` / `isWatcherRunning` / `readWatcherPidfile`
 * (src/harness/watcher).
 *
 * @example await runSessionStart(input, { ...context, services: defaultHookServices() });
 */
export function defaultHookServices(): HookServices {
  return {
    resolveSessionTeam: (options) => resolveSessionTeam(options),
    openAdapter: (target) => openHarnessAdapter(target),
    ensureWatcher: (options) => ensureWatcher(options),
    stopWatcher: (options) => stopWatcher(options),
    isWatcherRunning: (layout, claudePid) => isWatcherRunning(layout, claudePid),
    watcherSession(layout, claudePid) {
      if (!isWatcherRunning(layout, claudePid)) return undefined;
      return readWatcherPidfile(layout, claudePid)?.brigade_session_id;
    },
  };
}

/**
 * Everything a hook flow needs besides its stdin document: the environment, our uid, the clock
 * (ms since the epoch), the CLI script the watcher is spawned from, the collaborators, and a
 * diagnostics sink (stderr: Claude Code's debug log, never the model).
 *
 * @example const ctx: HookContext = { env: process.env, uid: process.getuid!(), now: Date.now, entryScript: "/p/bin/brigade", services: defaultHookServices(), log: (l) => process.stderr.write(l) };
 */
export interface HookContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly uid: number;
  readonly now: () => number;
  readonly entryScript: string;
  readonly services: HookServices;
  readonly log: (line: string) => void;
}
