import { processAncestors } from "../mcp/index.ts";
import { type ByPidMap, readByPidMap, resolveStateDir, stateLayout } from "../state/index.ts";
import { stopWatcher } from "../watcher/index.ts";
import { connectHostSession } from "./connect-host-session.ts";
import { hostContextLine } from "./context-line.ts";
import type { HostHookDeps } from "./host-client.ts";
import { parseHostHookInput } from "./host-hook-input.ts";
import { hostPidOf } from "./host-pid.ts";
import {
  boundHostSession,
  closeHostSession,
  countWaiting,
  forgetHostProcess,
  heartbeatHostSession,
  waitingNotice,
} from "./host-turn.ts";

/**
 * The events `brigade host-hook <client> <event>` takes, the same for every pull-lane client:
 * the session's start, a turn's start, after a tool, a turn's end, the session's end.
 */
export const HOST_HOOK_EVENTS = [
  "session-start",
  "turn",
  "post-tool",
  "turn-end",
  "session-end",
] as const;

/** One of {@link HOST_HOOK_EVENTS}. */
export type HostHookEvent = (typeof HOST_HOOK_EVENTS)[number];

/** The line a session a repository's `.env` disconnected shows its person and model. */
export const REPOSITORY_DOTENV_LINE =
  "Brigade: not connected: a .env file of this repository sets where Brigade keeps its files (HOME, XDG_* or BRIGADE_*), and the client passes it on to Brigade; take those lines out of it to connect this session.";

/** What one client gives the hook flow: its names, its measured facts and its output shape. */
export interface HostHookSpec {
  /** The binding folder name (`gemini`, `codex`). */
  readonly host: string;
  /** The `harness` a registration names (`gemini-cli`, `codex`). */
  readonly harness: string;
  /** The client's version running as `pid`, or `"unknown"`. */
  readonly versionOf: (pid: number) => string;
  /** How the client names the tools of Brigade's own MCP server to its hooks. */
  readonly ownToolPrefix: string;
  /** The client's `.env` files (`HostClient.dotenvFiles`). */
  readonly dotenvFiles: readonly string[];
  /**
   * The document a hook prints for `event`: `{}` for `""`, else `context` where the client puts a
   * hook's text before the model (and, when `toPerson`, where the person sees it too).
   */
  readonly output: (event: HostHookEvent, context: string, toPerson: boolean) => string;
  /**
   * Starts the push lane of a session the start just bound (`ensurePushLane`) and answers its
   * outcome word (`running`, `spawned`, or why not); absent for a client without a door.
   */
  readonly startPushLane?: (
    map: ByPidMap,
    env: Readonly<Record<string, string | undefined>>,
  ) => Promise<string>;
}

/**
 * Stops the push lane of `hostPid` when its by-pid map names another session of the client than
 * `sessionId`, before the start rebinds the process: a client process that serves several
 * sessions at once (Codex's app-server) keeps the earlier one open, and its lane must end by
 * SIGTERM (the session goes on, on the pull lane), never by finding the map changed (which closes
 * the session, docs/49-hosts.md "The push lane").
 */
async function stopOtherSessionLane(
  hostPid: number,
  sessionId: string,
  env: Readonly<Record<string, string | undefined>>,
  uid: number,
): Promise<void> {
  const previous = readByPidMap({ claudePid: String(hostPid), env, uid });
  if (!previous.ok || previous.map.claude_session_id === sessionId) return;
  const dir = resolveStateDir(env);
  if (dir.ok) await stopWatcher({ layout: stateLayout(dir.dir), claudePid: String(hostPid) });
}

/**
 * Runs one pull-lane hook (docs/49-hosts.md) for `event` with the hook's stdin document and
 * returns the document to print. Never throws; a problem is one line through `deps.log` (the
 * client's debug output) and `{}`:
 * - `session-start`: the host is the nearest non-shell process above the hook; `connectHostSession`
 *   registers (or resumes, or renews) the Brigade session of the client's `session_id` and binds it,
 *   starts its push lane where the client has a door (`spec.startPushLane`; a lane of the same
 *   process for another session is stopped first), then the context line (`hostContextLine`); a repository `.env` that chose Brigade's folders
 *   gives {@link REPOSITORY_DOTENV_LINE} to the model and the person instead;
 * - `turn`: a heartbeat (`busy`) and the notice of what waits (`waitingNotice`);
 * - `post-tool`: the notice, except after a tool of Brigade's own server (after `inbox` the model
 *   has just read what waited, and the acknowledgement may still be on its way);
 * - `turn-end`: a heartbeat (`idle`);
 * - `session-end`: `session close`, and the process's by-pid map removed when it still names this
 *   session (a client may start the next session before it ends the last).
 * A folder no team binds, or a session no start bound, does nothing.
 *
 * @example await runHostHook(GEMINI_HOOK_SPEC, "turn", stdin, { env: process.env, uid, now: Date.now, log })
 */
export async function runHostHook(
  spec: HostHookSpec,
  event: HostHookEvent,
  stdin: string,
  deps: HostHookDeps,
): Promise<string> {
  const prefix = `brigade host-hook ${spec.host}`;
  const input = parseHostHookInput(stdin);
  if (input === undefined || input.sessionId === "") {
    deps.log(`${prefix}: bad_input\n`);
    return "{}";
  }
  if (event === "session-start") {
    const hostPid = hostPidOf(deps.ancestors ?? processAncestors(process.pid));
    if (hostPid === undefined || input.cwd === "") {
      deps.log(`${prefix}: no_host\n`);
      return "{}";
    }
    if (spec.startPushLane !== undefined)
      await stopOtherSessionLane(hostPid, input.sessionId, deps.env, deps.uid);
    const connected = await connectHostSession({
      host: spec.host,
      harness: spec.harness,
      harnessVersion: spec.versionOf(hostPid),
      nativeSessionId: input.sessionId,
      hostPid,
      cwd: input.cwd,
      transcriptPath: input.transcriptPath,
      dotenvFiles: spec.dotenvFiles,
      env: deps.env,
      uid: deps.uid,
      now: deps.now,
      ...deps.connect,
    });
    if (!connected.ok) {
      if (!connected.off) deps.log(`${prefix}: ${connected.code}\n`);
      return connected.code === "repository_env"
        ? spec.output(event, REPOSITORY_DOTENV_LINE, true)
        : "{}";
    }
    const { map } = connected;
    const startLane = spec.startPushLane;
    if (startLane !== undefined) {
      const lane = await (deps.startPushLane ?? ((m) => startLane(m, deps.env)))(map);
      // `no_door`: the client's own word for a session that has only the pull lane, said nowhere.
      if (lane !== "running" && lane !== "spawned" && lane !== "no_door")
        deps.log(`${prefix}: push_lane ${lane}\n`);
    }
    const line = hostContextLine(map.session_name, map.brigade_session_id, map.team_name);
    return spec.output(event, line, false);
  }
  const map = boundHostSession(spec.host, input.sessionId, deps.env, deps.uid);
  if (map === undefined) return "{}";
  if (event === "turn") {
    await heartbeatHostSession(map, "busy", deps.env, deps.uid);
    return spec.output(event, waitingNotice(await countWaiting(map, deps.env, deps.uid)), false);
  }
  if (event === "post-tool") {
    if (input.toolName.startsWith(spec.ownToolPrefix)) return "{}";
    return spec.output(event, waitingNotice(await countWaiting(map, deps.env, deps.uid)), false);
  }
  if (event === "turn-end") {
    await heartbeatHostSession(map, "idle", deps.env, deps.uid);
    return "{}";
  }
  await closeHostSession(map, deps.env, deps.uid);
  forgetHostProcess(map, deps.env, deps.uid);
  return "{}";
}
