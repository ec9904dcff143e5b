import type { AdapterLogger } from "../../adapters/index.ts";
import { currentUid } from "../../local-files/index.ts";
import { type Adapter, ERROR_EXIT_STATUS } from "../../protocol/index.ts";
import {
  type HarnessAdapterTarget,
  harnessConfigDir,
  openHarnessAdapter,
} from "../adapter/index.ts";
import {
  type InboxPostOptions,
  type InboxPostResult,
  isClaudePid,
  messagingSocketFromEnv,
  messagingToken,
  postToInbox,
} from "../claude-code/index.ts";
import { readByPidMap, resolveStateDir, stateLayout } from "../state/index.ts";
import { watcherVersion } from "./ensure-watcher.ts";
import { type ProcessProbe, systemProcessProbe } from "./process-probe.ts";
import { watcherAdapterLogger } from "./watcher-adapter-logger.ts";
import type { WatcherBackoff } from "./watcher-backoff.ts";
import type { WatcherExit } from "./watcher-exit.ts";
import { acquirePidfile, deletePidfileIfNames, tokenSha256 } from "./watcher-files.ts";
import { fileWatcherLog, type WatcherLog } from "./watcher-log.ts";
import { WatcherLoop } from "./watcher-loop.ts";

export {
  WATCHER_EXIT_REASONS,
  type WatcherExit,
  type WatcherExitReason,
} from "./watcher-exit.ts";

/** Inputs of {@link runWatcher}; everything but `claudePid` and `env` has a default. */
export interface RunWatcherOptions {
  /** `--claude-pid`: must equal `env.CLAUDE_PID`. */
  readonly claudePid: string;
  /** The allow-listed environment (`CLAUDE_*`, `HOME`, `XDG_*`, …); the token only here. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The entry script the watcher runs from (its `version`); default `process.argv[1]`. */
  readonly entryScript?: string;
  /** Ends the watcher as SIGTERM does (no session close). */
  readonly signal?: AbortSignal;
  readonly uid?: number;
  readonly probe?: ProcessProbe;
  /** The clock, ms since the epoch. */
  readonly now?: () => number;
  /** Liveness tick, ms (default 2,000). */
  readonly tickMs?: number;
  /** Heartbeat interval, ms (default 30,000). */
  readonly heartbeatMs?: number;
  /** Cap on the closing `session close`, ms (default 3,000). */
  readonly closeTimeoutMs?: number;
  readonly backoff?: WatcherBackoff;
  /**
   * Opens the adapter (default {@link openHarnessAdapter}); `logger` writes the adapter's own
   * diagnostics to the watcher log ({@link watcherAdapterLogger}).
   */
  readonly openAdapter?: (target: HarnessAdapterTarget, logger: AdapterLogger) => Adapter;
  /** Posts to the inbox socket (default {@link postToInbox}). */
  readonly post?: (options: InboxPostOptions) => Promise<InboxPostResult>;
  /** Diagnostics (default the NDJSON file `logs/watcher-<pid>.log`). */
  readonly log?: WatcherLog;
  /** How often the transcript is read while posts wait for confirmation, ms (default 250). */
  readonly confirmPollMs?: number;
  /** Claude Code's argv for the gate's launch flags (default: read from the process). */
  readonly claudeArgv?: readonly string[] | undefined;
}

/**
 * The watcher of one Claude Code session (docs/spec/claude-code.md §7.4, docs/41-watcher.md):
 * checks its start-up values, takes the pidfile, then runs a {@link WatcherLoop}: the adapter's
 * message watch in process, every message delivered through the inbound pipeline, the injection
 * pacer and the inbox socket, acknowledged only after a successful post. Liveness tick every 2 s
 * (Claude's pid, the by-pid map, the registry status, release requests); heartbeats every 30 s
 * and on busy/idle flips. Resolves with how it ended; never throws.
 *
 * @example const exit = await runWatcher({ claudePid: "4242", env: process.env });
 */
export async function runWatcher(options: RunWatcherOptions): Promise<WatcherExit> {
  const claudePid = options.claudePid;
  const env = options.env;
  if (!isClaudePid(claudePid) || env.CLAUDE_PID !== claudePid) {
    return { reason: "not_in_session", status: ERROR_EXIT_STATUS.config };
  }
  const stateDir = resolveStateDir(env);
  if (!stateDir.ok) return { reason: "state_dir_relative", status: ERROR_EXIT_STATUS.config };
  const layout = stateLayout(stateDir.dir);
  const uid = options.uid ?? currentUid();
  const token = messagingToken(env);
  const log = options.log ?? fileWatcherLog(layout.root, layout.watcherLog(claudePid), [token]);
  const read = readByPidMap({ claudePid, env, uid });
  if (!read.ok) {
    log.write("warn", "watcher_no_map", { reason: read.reason });
    return { reason: "not_in_session", status: ERROR_EXIT_STATUS.config };
  }
  const map = read.map;
  const configDir = harnessConfigDir(env, { option: map.config_dir });
  if (configDir === undefined) {
    log.write("error", "watcher_no_config_dir");
    return { reason: "no_config_dir", status: ERROR_EXIT_STATUS.config };
  }
  const fromEnv = messagingSocketFromEnv(env);
  const socketPath = fromEnv !== "" ? fromEnv : map.socket_path;
  const probe = options.probe ?? systemProcessProbe;
  const startToken = probe.startToken(process.pid) ?? `pid:${process.pid}`;
  const acquired = acquirePidfile(
    layout,
    claudePid,
    {
      pid: process.pid,
      start_token: startToken,
      brigade_session_id: map.brigade_session_id,
      socket_path: socketPath,
      token_sha256: tokenSha256(token),
      version: watcherVersion(options.entryScript ?? process.argv[1] ?? ""),
    },
    probe,
  );
  if (acquired.outcome === "busy") {
    log.write("info", "watcher_already_running", { holder: acquired.holder.pid });
    return { reason: "already_running", status: 0 };
  }
  if (acquired.outcome === "failed") {
    log.write("error", "watcher_pidfile_failed");
    return { reason: "pidfile_failed", status: ERROR_EXIT_STATUS.internal };
  }
  const watcher = new WatcherLoop({
    ...options,
    layout,
    map,
    uid,
    log,
    probe,
    token,
    socketPath,
    adapter: (options.openAdapter ?? openWithLogger)(
      { configDir, teamKey: map.team_key },
      watcherAdapterLogger(log),
    ),
  });
  try {
    return await watcher.run();
  } finally {
    deletePidfileIfNames(layout, claudePid, process.pid, startToken);
  }
}

function openWithLogger(target: HarnessAdapterTarget, logger: AdapterLogger): Adapter {
  return openHarnessAdapter(target, { logger });
}
