import {
  boundHostSession,
  closeHostSession,
  connectHostSession,
  countWaiting,
  forgetHostProcess,
  type HostHookDeps,
  heartbeatHostSession,
  hookDocument,
  hookText,
  hostContextLine,
  hostPidOf,
  MAX_HOST_HOOK_INPUT_BYTES,
  waitingNotice,
} from "../host-session/index.ts";
import { processAncestors } from "../mcp/index.ts";
import { startPushLane } from "../push-lane/index.ts";
import type { ByPidMap } from "../state/index.ts";
import { openCodeDoorAddress, writeOpenCodeDoorAddress } from "./opencode-door-address.ts";
import {
  OPENCODE_DOTENV_FILES,
  OPENCODE_PASSWORD_VARIABLE,
  OPENCODE_USERNAME_VARIABLE,
} from "./opencode-facts.ts";
import { isOpenCodeSessionId } from "./opencode-server.ts";

/** The binding folder and registered harness of OpenCode sessions. */
export const OPENCODE_HOST = "opencode";

/**
 * The events `brigade host-hook opencode <event>` takes, each run by Brigade's OpenCode plugin:
 * `session-start` (a session's first user message), `turn` (each user message), `turn-end`
 * (`session.idle`), `session-end` (`session.deleted`, or the instance disposed).
 */
export const OPENCODE_HOOK_EVENTS = ["session-start", "turn", "turn-end", "session-end"] as const;

/** One of {@link OPENCODE_HOOK_EVENTS}. */
export type OpenCodeHookEvent = (typeof OPENCODE_HOOK_EVENTS)[number];

/** The document Brigade's plugin writes on a hook's stdin. */
export interface OpenCodeHookInput {
  readonly sessionId: string;
  readonly cwd: string;
  /** The plugin's `serverUrl` (a placeholder when OpenCode listens nowhere), or `""`. */
  readonly serverUrl: string;
  /** The session's `version` as OpenCode reported it, or `"unknown"`. */
  readonly version: string;
}

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/**
 * Parses the plugin's stdin document: a JSON object of at most {@link MAX_HOST_HOOK_INPUT_BYTES}
 * with `session_id` (an OpenCode session id), `cwd` (absolute), `server_url`, `opencode_version`;
 * a member of the wrong shape reads as `""` (`"unknown"` for the version). `undefined` for
 * anything else. Never throws.
 *
 * @example parseOpenCodeHookInput('{"session_id":"ses_1","cwd":"/w/api"}')?.cwd === "/w/api"
 */
export function parseOpenCodeHookInput(raw: string): OpenCodeHookInput | undefined {
  const o = hookDocument(raw);
  if (o === undefined) return undefined;
  const sessionId = hookText(o.session_id);
  const cwd = hookText(o.cwd);
  const version = hookText(o.opencode_version);
  return {
    sessionId: isOpenCodeSessionId(sessionId) ? sessionId : "",
    cwd: cwd.startsWith("/") ? cwd : "",
    serverUrl: hookText(o.server_url),
    version: VERSION.test(version) ? version : "unknown",
  };
}

/**
 * The variables of OpenCode's own the push lane needs: its server's basic-authentication password
 * and user, when the person set them (passed on in the lane's environment, never written down).
 */
export const OPENCODE_LANE_ENVIRONMENT: readonly string[] = [
  OPENCODE_PASSWORD_VARIABLE,
  OPENCODE_USERNAME_VARIABLE,
];

/**
 * Starts the push lane of an OpenCode session the start just bound and gave a door address
 * (`ensurePushLane`: one per OpenCode process, detached, `brigade host-watch opencode --host-pid
 * <pid>`) and answers its outcome word (`running`, `spawned`, or the failure reason). Never throws.
 *
 * @example await startOpenCodeLane(map, process.env) === "spawned"
 */
export async function startOpenCodeLane(
  map: ByPidMap,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  return startPushLane(OPENCODE_HOST, OPENCODE_LANE_ENVIRONMENT, map, env);
}

function output(context: string): string {
  return context === "" ? "{}" : JSON.stringify({ context });
}

/**
 * Runs one hook of Brigade's OpenCode plugin (docs/49-opencode.md "Install") and returns the JSON
 * document to print: `{"context": "<text>"}`, which the plugin adds to the session's system
 * prompt, or `{}`. Never throws; a problem is one line through `deps.log` and `{}`.
 * - `session-start`: the host is the nearest non-shell process above the hook (the plugin starts
 *   it directly from the OpenCode process); `connectHostSession` registers (or resumes, or renews)
 *   the Brigade session of OpenCode's session id, harness `opencode`, and binds it; when the
 *   plugin's server URL is a loopback port that very process listens on, the door address is
 *   written (`writeOpenCodeDoorAddress`) and the session's push lane started
 *   (`startOpenCodeLane`); then the context line;
 * - `turn`: a heartbeat (`busy`) and the notice of what waits (or nothing);
 * - `turn-end`: a heartbeat (`idle`);
 * - `session-end`: `session close`, and the by-pid map removed when it still names this session.
 *
 * @example await runOpenCodeHook("turn", stdin, { env: process.env, uid, now: Date.now, log })
 */
export async function runOpenCodeHook(
  event: OpenCodeHookEvent,
  stdin: string,
  deps: HostHookDeps,
): Promise<string> {
  const input = parseOpenCodeHookInput(stdin);
  if (input === undefined || input.sessionId === "") {
    deps.log("brigade host-hook opencode: bad_input\n");
    return "{}";
  }
  if (event === "session-start") {
    const hostPid = hostPidOf(deps.ancestors ?? processAncestors(process.pid));
    if (hostPid === undefined || input.cwd === "") {
      deps.log("brigade host-hook opencode: no_host\n");
      return "{}";
    }
    const connected = await connectHostSession({
      host: OPENCODE_HOST,
      harness: "opencode",
      harnessVersion: input.version,
      nativeSessionId: input.sessionId,
      hostPid,
      cwd: input.cwd,
      transcriptPath: "",
      dotenvFiles: OPENCODE_DOTENV_FILES,
      env: deps.env,
      uid: deps.uid,
      now: deps.now,
      ...deps.connect,
    });
    if (!connected.ok) {
      if (!connected.off) deps.log(`brigade host-hook opencode: ${connected.code}\n`);
      return "{}";
    }
    const { map } = connected;
    // The push lane only where OpenCode's own process listens: a TUI started without --port,
    // or `opencode run`, can never take a post, and keeps the pull lane alone.
    const address = openCodeDoorAddress(input.sessionId, input.serverUrl, hostPid);
    if (address !== undefined) {
      if (!writeOpenCodeDoorAddress(deps.env, address)) {
        deps.log("brigade host-hook opencode: door_address_unwritable\n");
      } else {
        const lane = await (deps.startPushLane ?? ((m) => startOpenCodeLane(m, deps.env)))(map);
        if (lane !== "running" && lane !== "spawned") {
          deps.log(`brigade host-hook opencode: push_lane ${lane}\n`);
        }
      }
    }
    return output(hostContextLine(map.session_name, map.brigade_session_id, map.team_name));
  }
  const map = boundHostSession(OPENCODE_HOST, input.sessionId, deps.env, deps.uid);
  if (map === undefined) return "{}";
  if (event === "turn") {
    await heartbeatHostSession(map, "busy", deps.env, deps.uid);
    return output(waitingNotice(await countWaiting(map, deps.env, deps.uid)));
  }
  if (event === "turn-end") {
    await heartbeatHostSession(map, "idle", deps.env, deps.uid);
    return "{}";
  }
  await closeHostSession(map, deps.env, deps.uid);
  forgetHostProcess(map, deps.env, deps.uid);
  return "{}";
}
