import { spawn } from "node:child_process";
import { closeSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { ensurePrivateFolders, openAppendFile } from "../../local-files/index.ts";
import { type ByPidMap, resolveStateDir, type StateLayout, stateLayout } from "../state/index.ts";
import {
  isPidfileLive,
  type ProcessProbe,
  readWatcherPidfile,
  stopWatcher,
  systemProcessProbe,
  watcherVersion,
} from "../watcher/index.ts";

/**
 * Why {@link ensurePushLane} started nothing (docs/errors.md `ENSURE_PUSH_LANE_FAILURES`):
 * `entry_invalid` (the CLI entry is not an absolute path), `stop_failed` (a lane of another
 * session of the same client process would not stop), `log_unwritable`, `spawn_failed`,
 * `exited_early` (the lane ended before it took its pidfile: no door, or another lane won).
 */
export const ENSURE_PUSH_LANE_FAILURES = [
  "entry_invalid",
  "stop_failed",
  "log_unwritable",
  "spawn_failed",
  "exited_early",
] as const;

/** The outcome of {@link ensurePushLane}. */
export type EnsurePushLaneResult =
  | { readonly outcome: "running" | "spawned" }
  | { readonly outcome: "failed"; readonly reason: (typeof ENSURE_PUSH_LANE_FAILURES)[number] };

/** Inputs of {@link ensurePushLane}. */
export interface EnsurePushLaneOptions {
  readonly layout: StateLayout;
  /** The by-pid map the session-start hook just wrote. */
  readonly map: ByPidMap;
  /** The client's name (`brigade host-watch <client>`). */
  readonly client: string;
  /** The client's own variables the lane needs to find the client's files (Qwen Code: its home). */
  readonly passed?: readonly string[];
  /** The running CLI script (`process.argv[1]`, absolute). */
  readonly entryScript: string;
  /** The hook's environment; only the allow-listed members reach the lane. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long to wait for the lane's pidfile, ms (default 2,000). */
  readonly waitMs?: number;
  readonly probe?: ProcessProbe;
}

const PASSED = ["PATH", "HOME", "TMPDIR"];

/**
 * The lane's environment from an allow-list only: `PATH`, `HOME`, `TMPDIR`, every `XDG_*`, and
 * the client's own `passed` names. Nothing else is inherited — no `BRIGADE_*`, no
 * `NODE_OPTIONS`, and none of the client's messaging variables a hook inherits.
 *
 * @example pushLaneEnvironment({ HOME: "/home/dana", QWEN_HOME: "/q", SECRET: "x" }, ["QWEN_HOME"])
 */
export function pushLaneEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  passed: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...PASSED, ...passed]) {
    const value = env[name];
    if (value !== undefined && value !== "") out[name] = value;
  }
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith("XDG_") && value !== undefined && value !== "") out[name] = value;
  }
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Makes sure one push lane serves `map`'s session (docs/49-hosts.md, "The push lane"), from the
 * client's session-start hook:
 *
 * 1. a live lane (pidfile `watchers/<host pid>.json`, pid alive with its start token) for the
 *    same Brigade session and build → `running`;
 * 2. otherwise a lane of the same client process for another session (the client started a new
 *    one) is stopped (`stopWatcher`: SIGTERM, then SIGKILL), and
 *    `node <entry> host-watch <client> --host-pid <pid>` is spawned detached (a new session),
 *    stdin `/dev/null`, stdout and stderr appended to `logs/watcher-<pid>.log` (0600), cwd
 *    `$HOME`, with {@link pushLaneEnvironment};
 * 3. it waits up to `waitMs` for the lane's pidfile: `spawned`; a lane that exits first is
 *    `exited_early` unless another live lane now serves the session (`running`).
 *
 * A second start never makes two lanes: the lane itself takes the pidfile exclusively. Never
 * throws.
 *
 * @example await ensurePushLane({ layout, map, client: "qwen", entryScript: process.argv[1] ?? "", env: process.env });
 */
export async function ensurePushLane(
  options: EnsurePushLaneOptions,
): Promise<EnsurePushLaneResult> {
  try {
    return await ensure(options);
  } catch {
    return { outcome: "failed", reason: "spawn_failed" };
  }
}

function serves(options: EnsurePushLaneOptions, probe: ProcessProbe): boolean {
  const pidfile = readWatcherPidfile(options.layout, String(options.map.claude_pid));
  return (
    pidfile !== undefined &&
    isPidfileLive(pidfile, probe) &&
    pidfile.brigade_session_id === options.map.brigade_session_id &&
    pidfile.version === watcherVersion(options.entryScript)
  );
}

async function ensure(options: EnsurePushLaneOptions): Promise<EnsurePushLaneResult> {
  const probe = options.probe ?? systemProcessProbe;
  const hostPid = String(options.map.claude_pid);
  if (!isAbsolute(options.entryScript)) return { outcome: "failed", reason: "entry_invalid" };
  if (serves(options, probe)) return { outcome: "running" };
  await stopWatcher({ layout: options.layout, claudePid: hostPid, probe });
  const left = readWatcherPidfile(options.layout, hostPid);
  if (left !== undefined && isPidfileLive(left, probe)) {
    return { outcome: "failed", reason: "stop_failed" };
  }
  const env = pushLaneEnvironment(options.env, options.passed);
  const logPath = options.layout.watcherLog(hostPid);
  const log = ensurePrivateFolders(options.layout.root, dirname(logPath)).ok
    ? openAppendFile(logPath)
    : undefined;
  if (log === undefined || !log.ok) return { outcome: "failed", reason: "log_unwritable" };
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(
      process.execPath,
      [options.entryScript, "host-watch", options.client, "--host-pid", hostPid],
      { detached: true, stdio: ["ignore", log.fd, log.fd], cwd: env.HOME ?? "/", env },
    );
  } catch {
    return { outcome: "failed", reason: "spawn_failed" };
  } finally {
    closeSync(log.fd);
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
  const deadline = Date.now() + (options.waitMs ?? 2_000);
  for (;;) {
    await sleep(25);
    if (spawnError) return { outcome: "failed", reason: "spawn_failed" };
    const pidfile = readWatcherPidfile(options.layout, hostPid);
    if (pidfile !== undefined && pidfile.pid === child.pid) return { outcome: "spawned" };
    if (exited) {
      return serves(options, probe)
        ? { outcome: "running" }
        : { outcome: "failed", reason: "exited_early" };
    }
    if (Date.now() >= deadline) return { outcome: "spawned" };
  }
}

/**
 * Starts the push lane of a session a client's start just bound, as that client's hook does:
 * {@link ensurePushLane} in the state folder `env` names, with this process's CLI entry, passing
 * on the client's own variables `passed`. Answers the outcome word (`running`, `spawned`), or why
 * not (`state_dir_relative`, an {@link ENSURE_PUSH_LANE_FAILURES} reason). Never throws.
 *
 * @example await startPushLane("qwen", QWEN_LANE_ENVIRONMENT, map, process.env) === "spawned"
 */
export async function startPushLane(
  client: string,
  passed: readonly string[],
  map: ByPidMap,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const dir = resolveStateDir(env);
  if (!dir.ok) return "state_dir_relative";
  const started = await ensurePushLane({
    layout: stateLayout(dir.dir),
    map,
    client,
    passed,
    entryScript: process.argv[1] ?? "",
    env,
  });
  return started.outcome === "failed" ? started.reason : started.outcome;
}
