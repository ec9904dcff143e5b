import {
  boundHostSession,
  closeHostSession,
  connectHostSession,
  countWaiting,
  forgetHostProcess,
  type HostHookDeps,
  heartbeatHostSession,
  hostContextLine,
  hostPidOf,
  parseHostHookInput,
  waitingNotice,
} from "../host-session/index.ts";
import { processAncestors } from "../mcp/index.ts";
import { startPushLane } from "../push-lane/index.ts";
import type { ByPidMap } from "../state/index.ts";
import { QWEN_DOTENV_FILES, QWEN_HOME_VARIABLE, QWEN_RUNTIME_DIR_VARIABLE } from "./qwen-facts.ts";

/** The binding folder and registered harness of Qwen Code sessions. */
export const QWEN_HOST = "qwen";

/** The events `brigade host-hook qwen <event>` takes, each named for the Qwen Code hook it serves. */
export const QWEN_HOOK_EVENTS = ["session-start", "turn", "turn-end", "session-end"] as const;

/** One of {@link QWEN_HOOK_EVENTS}. */
export type QwenHookEvent = (typeof QWEN_HOOK_EVENTS)[number];

const QWEN_EVENT_NAMES: Readonly<Record<QwenHookEvent, string>> = {
  "session-start": "SessionStart",
  turn: "UserPromptSubmit",
  "turn-end": "Stop",
  "session-end": "SessionEnd",
};

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/**
 * The version of the Qwen Code running the hook: `QWEN_CODE_STARTUP_VERSION`, which Qwen Code
 * 0.24.4 sets in every hook's environment, when it is a version; else `"unknown"`. Only
 * registered as the session's `harness_version`.
 *
 * @example qwenVersionOf({ QWEN_CODE_STARTUP_VERSION: "0.24.4" }) === "0.24.4"
 */
export function qwenVersionOf(env: Readonly<Record<string, string | undefined>>): string {
  const named = env.QWEN_CODE_STARTUP_VERSION ?? "";
  return VERSION.test(named) ? named : "unknown";
}

function output(event: QwenHookEvent, context: string): string {
  if (context === "") return "{}";
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: QWEN_EVENT_NAMES[event], additionalContext: context },
  });
}

/** The variables of Qwen Code's own the push lane needs to find its registry and records. */
export const QWEN_LANE_ENVIRONMENT: readonly string[] = [
  QWEN_HOME_VARIABLE,
  QWEN_RUNTIME_DIR_VARIABLE,
];

/**
 * Starts the push lane of a Qwen Code session the start just bound (`ensurePushLane`: one per
 * session, detached, `brigade host-watch qwen --host-pid <pid>`) and answers its outcome word
 * (`running`, `spawned`, or the failure reason). Never throws.
 *
 * @example await startQwenLane(map, process.env) === "spawned"
 */
export async function startQwenLane(
  map: ByPidMap,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  return startPushLane(QWEN_HOST, QWEN_LANE_ENVIRONMENT, map, env);
}

/**
 * Runs one Qwen Code hook (docs/49-qwen.md "Install") for `event` with the hook's stdin
 * document, and returns the JSON document to print (`{}` when there is nothing to say). Never
 * throws; a problem is one line through `deps.log` and `{}`. The pull lane's shape
 * (docs/49-hosts.md):
 * - `session-start` (SessionStart): the host is the nearest non-shell process above the hook (the
 *   `cli.js` process, the registry's pid); `connectHostSession` registers (or resumes, or renews)
 *   the Brigade session of Qwen Code's `session_id` and binds it to that process, starts the
 *   session's push lane (`startQwenLane`, docs/49-qwen.md "The push lane"), then the context
 *   line (Qwen Code puts it, `<`/`>` escaped, in the model's start-up context);
 * - `turn` (UserPromptSubmit): a heartbeat (`busy`) and the notice of what waits;
 * - `turn-end` (Stop): a heartbeat (`idle`);
 * - `session-end` (SessionEnd): `session close`, and the by-pid map removed when it still names
 *   this session.
 * A folder no team binds, or a session no start bound, does nothing.
 *
 * @example await runQwenHook("turn", stdin, { env: process.env, uid, now: Date.now, log })
 */
export async function runQwenHook(
  event: QwenHookEvent,
  stdin: string,
  deps: HostHookDeps,
): Promise<string> {
  const input = parseHostHookInput(stdin);
  if (input === undefined || input.sessionId === "") {
    deps.log("brigade host-hook qwen: bad_input\n");
    return "{}";
  }
  if (event === "session-start") {
    const hostPid = hostPidOf(deps.ancestors ?? processAncestors(process.pid));
    if (hostPid === undefined || input.cwd === "") {
      deps.log("brigade host-hook qwen: no_host\n");
      return "{}";
    }
    const connected = await connectHostSession({
      host: QWEN_HOST,
      harness: "qwen-code",
      harnessVersion: qwenVersionOf(deps.env),
      nativeSessionId: input.sessionId,
      hostPid,
      cwd: input.cwd,
      transcriptPath: input.transcriptPath,
      dotenvFiles: QWEN_DOTENV_FILES,
      env: deps.env,
      uid: deps.uid,
      now: deps.now,
      ...deps.connect,
    });
    if (!connected.ok) {
      if (!connected.off) deps.log(`brigade host-hook qwen: ${connected.code}\n`);
      if (connected.code !== "repository_env") return "{}";
      const line =
        "Brigade: not connected: a .env file of this repository (.qwen/.env or .env) sets where Brigade keeps its files (HOME, XDG_* or BRIGADE_*), and Qwen Code passes it on to Brigade; take those lines out of it to connect this session.";
      return JSON.stringify({
        systemMessage: line,
        hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: line },
      });
    }
    const { map } = connected;
    const lane = await (deps.startPushLane ?? ((m) => startQwenLane(m, deps.env)))(map);
    if (lane !== "running" && lane !== "spawned")
      deps.log(`brigade host-hook qwen: push_lane ${lane}\n`);
    return output(event, hostContextLine(map.session_name, map.brigade_session_id, map.team_name));
  }
  const map = boundHostSession(QWEN_HOST, input.sessionId, deps.env, deps.uid);
  if (map === undefined) return "{}";
  if (event === "turn") {
    await heartbeatHostSession(map, "busy", deps.env, deps.uid);
    return output(event, waitingNotice(await countWaiting(map, deps.env, deps.uid)));
  }
  if (event === "turn-end") {
    await heartbeatHostSession(map, "idle", deps.env, deps.uid);
    return "{}";
  }
  await closeHostSession(map, deps.env, deps.uid);
  forgetHostProcess(map, deps.env, deps.uid);
  return "{}";
}
