import { spawn } from "node:child_process";
import { closeSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { ensurePrivateFolders, openAppendFile } from "../../local-files/index.ts";
import { isClaudePid, messagingSocketFromEnv } from "../claude-code/index.ts";
import { type ByPidMap, resolveStateDir, type StateLayout, sha256Hex } from "../state/index.ts";
import { type ProcessProbe, systemProcessProbe } from "./process-probe.ts";
import {
  deletePidfileIfNames,
  isPidfileLive,
  readWatcherPidfile,
  tokenSha256,
} from "./watcher-files.ts";

/** The Brigade build the watcher belongs to (the first half of {@link watcherVersion}). */
export const WATCHER_BUILD_VERSION = "0.1.0";

/**
 * The `version` a watcher records in its pidfile: {@link WATCHER_BUILD_VERSION} plus 12 hex of
 * the SHA-256 of the absolute entry script path. A plugin update moves `CLAUDE_PLUGIN_ROOT` (so
 * the entry script), so a watcher of an older copy is respawned even without a version bump.
 *
 * @example watcherVersion("/p/bin/brigade") === `0.1.0+${sha256Hex("/p/bin/brigade").slice(0, 12)}`
 */
export function watcherVersion(entryScript: string): string {
  return `${WATCHER_BUILD_VERSION}+${sha256Hex(resolve(entryScript)).slice(0, 12)}`;
}

/**
 * Why {@link ensureWatcher} could not leave a watcher running: `pid_invalid` (the map's
 * `claude_pid` is not a pid), `entry_invalid` (the entry script is not an absolute path),
 * `state_dir_mismatch` (the watcher's environment cannot resolve the layout's state folder),
 * `stop_failed` (the old watcher would not exit), `log_unwritable` (its log file cannot be
 * opened privately), `spawn_failed` (the process could not be started), `exited_early` (it
 * exited before taking its pidfile and no other watcher serves the session).
 *
 * @example ENSURE_WATCHER_FAILURES.includes("spawn_failed") === true
 */
export const ENSURE_WATCHER_FAILURES = [
  "pid_invalid",
  "entry_invalid",
  "state_dir_mismatch",
  "stop_failed",
  "log_unwritable",
  "spawn_failed",
  "exited_early",
] as const;

/** One failure of {@link ensureWatcher}. */
export type EnsureWatcherFailure = (typeof ENSURE_WATCHER_FAILURES)[number];

/**
 * The result of {@link ensureWatcher}: `running` (a live watcher already serves this session
 * with the same socket, token and version), `spawned` (none existed), `respawned` (an old or
 * stale one was replaced), `failed` with a {@link EnsureWatcherFailure}.
 */
export interface EnsureWatcherResult {
  readonly outcome: "running" | "spawned" | "respawned" | "failed";
  readonly reason?: EnsureWatcherFailure;
}

/** Inputs of {@link ensureWatcher}. */
export interface EnsureWatcherOptions {
  readonly layout: StateLayout;
  /** The by-pid map just written (its session, socket, config). */
  readonly map: ByPidMap;
  /** The running CLI script (`process.argv[1]`): `plugin/bin/brigade` or `dist/cli/main.js`. */
  readonly entryScript: string;
  /** `CLAUDE_CODE_MESSAGING_TOKEN`: passed to the watcher by environment only. */
  readonly token: string;
  /** The hook's environment; only the allow-listed members reach the watcher. */
  readonly env: NodeJS.ProcessEnv;
  /** How long to wait for the new watcher's pidfile, ms (default 3,000). */
  readonly waitMs?: number;
  readonly probe?: ProcessProbe;
}

const PASSED = ["PATH", "HOME", "TMPDIR", "CLAUDE_CONFIG_DIR"];

/**
 * The watcher's environment, built from an allow-list only (docs/spec/claude-code.md §7.4): `PATH`,
 * `HOME`, `TMPDIR`, every `XDG_*`, `CLAUDE_CONFIG_DIR` from `env`; then `CLAUDE_PID`,
 * `CLAUDE_CODE_MESSAGING_SOCKET` and `CLAUDE_CODE_MESSAGING_TOKEN`; and, when needed, a computed
 * `XDG_STATE_HOME` so the watcher resolves the same state folder as `layout`. `undefined` when
 * no such environment exists (a state folder not named `brigade`). Nothing else is inherited:
 * no `BRIGADE_*`, no `NODE_OPTIONS`.
 *
 * @example watcherEnvironment({ HOME: "/home/dana", PATH: "/usr/bin" }, layout, "4242", "/tmp/s.sock", "tok")
 */
export function watcherEnvironment(
  env: NodeJS.ProcessEnv,
  layout: StateLayout,
  claudePid: string,
  socketPath: string,
  token: string,
): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of PASSED) {
    const value = env[name];
    if (value !== undefined && value !== "") out[name] = value;
  }
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith("XDG_") && value !== undefined && value !== "") out[name] = value;
  }
  out.CLAUDE_PID = claudePid;
  out.CLAUDE_CODE_MESSAGING_SOCKET = socketPath;
  out.CLAUDE_CODE_MESSAGING_TOKEN = token;
  const resolved = resolveStateDir(out);
  if (!resolved.ok || resolved.dir !== layout.root) {
    if (basename(layout.root) !== "brigade" || !isAbsolute(layout.root)) return undefined;
    out.XDG_STATE_HOME = dirname(layout.root);
  }
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `pid` is no longer alive, up to `ms`; true when it is gone. */
async function waitGone(pid: number, ms: number, probe: ProcessProbe): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (probe.liveness(pid) !== "alive") return true;
    if (Date.now() >= deadline) return false;
    await sleep(20);
  }
}

/** Inputs of {@link stopWatcher}. */
export interface StopWatcherOptions {
  readonly layout: StateLayout;
  readonly claudePid: string;
  /** How long the watcher gets after SIGTERM, ms (default 1,000); then SIGKILL. */
  readonly graceMs?: number;
  readonly probe?: ProcessProbe;
}

/**
 * Stops the watcher of `claudePid`: SIGTERM to the pid of a live pidfile (pid alive with its
 * start token, so a reused pid is never signalled), waits up to `graceMs`, then SIGKILL (and up
 * to 500 ms more), then removes the pidfile compare-then-delete (only if it still names that
 * watcher). A missing or stale pidfile is just removed the same way. Never throws.
 *
 * @example await stopWatcher({ layout, claudePid: "4242" });
 */
export async function stopWatcher(options: StopWatcherOptions): Promise<void> {
  const probe = options.probe ?? systemProcessProbe;
  const pidfile = readWatcherPidfile(options.layout, options.claudePid);
  if (pidfile === undefined) return;
  if (isPidfileLive(pidfile, probe)) {
    try {
      process.kill(pidfile.pid, "SIGTERM");
    } catch {
      // gone meanwhile
    }
    if (!(await waitGone(pidfile.pid, options.graceMs ?? 1_000, probe))) {
      try {
        process.kill(pidfile.pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
      await waitGone(pidfile.pid, 500, probe);
    }
  }
  deletePidfileIfNames(options.layout, options.claudePid, pidfile.pid, pidfile.start_token);
}

/**
 * Makes sure a watcher serves `map`'s session for `map.claude_pid`
 * (docs/spec/claude-code.md §7.3–§7.4):
 *
 * 1. a live watcher (pidfile pid alive with its start token) for the same Brigade session, socket
 *    path, token SHA-256 and {@link watcherVersion} → `running`;
 * 2. otherwise the old one, if any, is stopped ({@link stopWatcher}) and
 *    `process.execPath entryScript watch --claude-pid <pid>` is spawned detached (new session),
 *    stdin `/dev/null`, stdout and stderr appended to `layout.watcherLog(pid)` (0600), cwd `$HOME`,
 *    environment from {@link watcherEnvironment} — the token by environment only, never argv;
 * 3. it waits up to `waitMs` for the child's pidfile: `spawned` (no pidfile existed) or
 *    `respawned`; a child that exits first is `failed` `exited_early` unless another live watcher
 *    now serves the session (a concurrent hook won: `running`).
 *
 * Never throws: every failure is `{ outcome: "failed", reason }`.
 *
 * @example const r = await ensureWatcher({ layout, map, entryScript: process.argv[1]!, token, env: process.env });
 */
export async function ensureWatcher(options: EnsureWatcherOptions): Promise<EnsureWatcherResult> {
  try {
    return await ensure(options);
  } catch {
    return { outcome: "failed", reason: "spawn_failed" };
  }
}

function serves(options: EnsureWatcherOptions, socketPath: string, probe: ProcessProbe): boolean {
  const claudePid = String(options.map.claude_pid);
  const pidfile = readWatcherPidfile(options.layout, claudePid);
  return (
    pidfile !== undefined &&
    isPidfileLive(pidfile, probe) &&
    pidfile.brigade_session_id === options.map.brigade_session_id &&
    pidfile.socket_path === socketPath &&
    pidfile.token_sha256 === tokenSha256(options.token) &&
    pidfile.version === watcherVersion(options.entryScript)
  );
}

async function ensure(options: EnsureWatcherOptions): Promise<EnsureWatcherResult> {
  const probe = options.probe ?? systemProcessProbe;
  const claudePid = String(options.map.claude_pid);
  if (!isClaudePid(claudePid)) return { outcome: "failed", reason: "pid_invalid" };
  if (!isAbsolute(options.entryScript)) return { outcome: "failed", reason: "entry_invalid" };
  const socketPath =
    options.map.socket_path !== "" ? options.map.socket_path : messagingSocketFromEnv(options.env);
  if (serves(options, socketPath, probe)) return { outcome: "running" };
  const env = watcherEnvironment(options.env, options.layout, claudePid, socketPath, options.token);
  if (env === undefined) return { outcome: "failed", reason: "state_dir_mismatch" };

  const existed = readWatcherPidfile(options.layout, claudePid) !== undefined;
  await stopWatcher({ layout: options.layout, claudePid, probe });
  const left = readWatcherPidfile(options.layout, claudePid);
  if (left !== undefined && isPidfileLive(left, probe)) {
    return { outcome: "failed", reason: "stop_failed" };
  }

  const logPath = options.layout.watcherLog(claudePid);
  const log = ensurePrivateFolders(options.layout.root, dirname(logPath)).ok
    ? openAppendFile(logPath)
    : undefined;
  if (log === undefined || !log.ok) return { outcome: "failed", reason: "log_unwritable" };
  const logFd = log.fd;
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(process.execPath, [options.entryScript, "watch", "--claude-pid", claudePid], {
      detached: true,
      stdio: ["ignore", logFd, logFd],
      cwd: env.HOME ?? "/",
      env,
    });
  } catch {
    return { outcome: "failed", reason: "spawn_failed" };
  } finally {
    closeSync(logFd);
  }
  let exited = false;
  let spawnError = false;
  child.once("exit", () => {
    exited = true;
  });
  child.once("error", () => {
    spawnError = true;
  });
  child.unref();
  const deadline = Date.now() + (options.waitMs ?? 3_000);
  for (;;) {
    await sleep(25);
    if (spawnError) return { outcome: "failed", reason: "spawn_failed" };
    const pidfile = readWatcherPidfile(options.layout, claudePid);
    if (pidfile !== undefined && pidfile.pid === child.pid) {
      return { outcome: existed ? "respawned" : "spawned" };
    }
    if (exited) {
      return serves(options, socketPath, probe)
        ? { outcome: "running" }
        : { outcome: "failed", reason: "exited_early" };
    }
    if (Date.now() >= deadline) return { outcome: existed ? "respawned" : "spawned" };
  }
}
