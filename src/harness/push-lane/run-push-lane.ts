import type { AdapterLogger } from "../../adapters/index.ts";
import { currentUid } from "../../local-files/index.ts";
import { type Adapter, ERROR_EXIT_STATUS } from "../../protocol/index.ts";
import {
  type HarnessAdapterTarget,
  harnessConfigDir,
  openHarnessAdapter,
} from "../adapter/index.ts";
import type { HostClient } from "../host-session/index.ts";
import { readByPidMap, resolveStateDir, stateLayout } from "../state/index.ts";
import {
  acquirePidfile,
  deletePidfileIfNames,
  fileWatcherLog,
  type ProcessProbe,
  systemProcessProbe,
  tokenSha256,
  type WatcherBackoff,
  type WatcherLog,
  watcherAdapterLogger,
  watcherVersion,
} from "../watcher/index.ts";
import type { PushLaneExit } from "./push-lane-exit.ts";
import { PushLaneLoop } from "./push-lane-loop.ts";

/** Inputs of {@link runPushLane}; everything but the client, the pid and `env` has a default. */
export interface RunPushLaneOptions {
  /** The client whose session it serves (its `openDoor`). */
  readonly client: HostClient;
  /** `--host-pid`: the client process the session-start hook bound (decimal). */
  readonly hostPid: string;
  /** The allow-listed environment the hook passed on. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The entry script the lane runs from (its `version`); default `process.argv[1]`. */
  readonly entryScript?: string;
  /** Ends the lane as SIGTERM does (no session close). */
  readonly signal?: AbortSignal;
  readonly uid?: number;
  readonly probe?: ProcessProbe;
  readonly now?: () => number;
  /** Liveness tick, ms (default 2,000). */
  readonly tickMs?: number;
  /** How often the door confirms, ms (default 1,000). */
  readonly confirmMs?: number;
  /** Heartbeat interval, ms (default 30,000). */
  readonly heartbeatMs?: number;
  readonly closeTimeoutMs?: number;
  readonly backoff?: WatcherBackoff;
  /** Opens the adapter (default {@link openHarnessAdapter} with the lane's log). */
  readonly openAdapter?: (target: HarnessAdapterTarget, logger: AdapterLogger) => Adapter;
  /** Diagnostics (default the NDJSON file `logs/watcher-<host pid>.log`). */
  readonly log?: WatcherLog;
}

const PID = /^[1-9][0-9]{0,9}$/;

/**
 * The push lane of one client session (docs/49-hosts.md, "The push lane"): checks the start-up
 * values — the by-pid map of `hostPid` must exist and be this client's (`options.host`) —, takes
 * the session's delivery pidfile `watchers/<host pid>.json` (one delivery process per client
 * process: a second start finds it held and exits `already_running`), then runs a
 * {@link PushLaneLoop} over the client's door. The pidfile is what the pull paths read to stand
 * aside ("One message, one lane"), and it is removed (compare-then-delete) when the lane ends.
 * Resolves with how it ended; never throws.
 *
 * @example const exit = await runPushLane({ client, hostPid: "4242", env: process.env });
 */
export async function runPushLane(options: RunPushLaneOptions): Promise<PushLaneExit> {
  const { client, hostPid, env } = options;
  const openDoor = client.openDoor;
  if (openDoor === undefined) return { reason: "unknown_client", status: 2 };
  if (!PID.test(hostPid)) return { reason: "not_in_session", status: ERROR_EXIT_STATUS.config };
  const stateDir = resolveStateDir(env);
  if (!stateDir.ok) return { reason: "state_dir_relative", status: ERROR_EXIT_STATUS.config };
  const layout = stateLayout(stateDir.dir);
  const uid = options.uid ?? currentUid();
  const log = options.log ?? fileWatcherLog(layout.root, layout.watcherLog(hostPid), []);
  const read = readByPidMap({ claudePid: hostPid, env, uid });
  if (!read.ok || read.map.options?.host !== client.name) {
    if (read.ok) log.write("warn", "push_lane_other_client");
    else log.write("warn", "push_lane_no_map", { reason: read.reason });
    return { reason: "not_in_session", status: ERROR_EXIT_STATUS.config };
  }
  const map = read.map;
  const configDir = harnessConfigDir(env, { option: map.config_dir });
  if (configDir === undefined) {
    log.write("error", "push_lane_no_config_dir");
    return { reason: "no_config_dir", status: ERROR_EXIT_STATUS.config };
  }
  const probe = options.probe ?? systemProcessProbe;
  const startToken = probe.startToken(process.pid) ?? `pid:${process.pid}`;
  const acquired = acquirePidfile(
    layout,
    hostPid,
    {
      pid: process.pid,
      start_token: startToken,
      brigade_session_id: map.brigade_session_id,
      socket_path: "",
      token_sha256: tokenSha256(""),
      version: watcherVersion(options.entryScript ?? process.argv[1] ?? ""),
    },
    probe,
  );
  if (acquired.outcome === "busy") {
    log.write("info", "push_lane_already_running", { holder: acquired.holder.pid });
    return { reason: "already_running", status: 0 };
  }
  if (acquired.outcome === "failed") {
    log.write("error", "push_lane_pidfile_failed");
    return { reason: "pidfile_failed", status: ERROR_EXIT_STATUS.internal };
  }
  try {
    const adapter = (options.openAdapter ?? openWithLogger)(
      { configDir, teamKey: map.team_key },
      watcherAdapterLogger(log),
    );
    const loop = new PushLaneLoop({
      adapter,
      map,
      layout,
      env,
      uid,
      log,
      probe,
      harness: map.options?.harness === undefined ? client.name : String(map.options.harness),
      configDir,
      openDoor: (ctx) => openDoor.call(client, { map, env, configDir }, ctx),
      ...pick(options),
    });
    return await loop.run();
  } catch {
    log.write("error", "push_lane_failed");
    return { reason: "no_door", status: ERROR_EXIT_STATUS.internal };
  } finally {
    deletePidfileIfNames(layout, hostPid, process.pid, startToken);
  }
}

/** The timing options the loop takes, as given. */
function pick(o: RunPushLaneOptions) {
  return {
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    ...(o.now === undefined ? {} : { now: o.now }),
    ...(o.tickMs === undefined ? {} : { tickMs: o.tickMs }),
    ...(o.confirmMs === undefined ? {} : { confirmMs: o.confirmMs }),
    ...(o.heartbeatMs === undefined ? {} : { heartbeatMs: o.heartbeatMs }),
    ...(o.closeTimeoutMs === undefined ? {} : { closeTimeoutMs: o.closeTimeoutMs }),
    ...(o.backoff === undefined ? {} : { backoff: o.backoff }),
  };
}

function openWithLogger(target: HarnessAdapterTarget, logger: AdapterLogger): Adapter {
  return openHarnessAdapter(target, { logger });
}
