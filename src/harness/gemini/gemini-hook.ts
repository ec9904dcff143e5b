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
  waitingNotice,
} from "../host-session/index.ts";
import { processAncestors } from "../mcp/index.ts";
import { GEMINI_FACTS } from "./gemini-facts.ts";
import { parseGeminiHookInput } from "./gemini-hook-input.ts";
import { geminiVersionOf } from "./gemini-version.ts";

/** The binding folder and registered harness of Gemini CLI sessions. */
export const GEMINI_HOST = "gemini";

/** The events `brigade host-hook gemini <event>` takes, each named for the Gemini hook it serves. */
export const GEMINI_HOOK_EVENTS = [
  "session-start",
  "turn",
  "post-tool",
  "turn-end",
  "session-end",
] as const;

/** One of {@link GEMINI_HOOK_EVENTS}. */
export type GeminiHookEvent = (typeof GEMINI_HOOK_EVENTS)[number];

/** The Gemini hook event name of each Brigade event (its `hookSpecificOutput.hookEventName`). */
const GEMINI_EVENT_NAMES: Readonly<Record<GeminiHookEvent, string>> = {
  "session-start": "SessionStart",
  turn: "BeforeAgent",
  "post-tool": "AfterTool",
  "turn-end": "AfterAgent",
  "session-end": "SessionEnd",
};

/** The line a connected Gemini session's model reads at its start: {@link hostContextLine}. */
export const geminiContextLine: typeof hostContextLine = hostContextLine;

function output(event: GeminiHookEvent, context: string): string {
  if (context === "") return "{}";
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: GEMINI_EVENT_NAMES[event], additionalContext: context },
  });
}

/**
 * Runs one Gemini CLI hook (docs/49-hosts.md "Gemini CLI") for `event` with the hook's stdin
 * document, and returns the JSON document to print (Gemini parses stdout as JSON: `{}` when there
 * is nothing to say). Never throws; a problem is one line through `deps.log` (Gemini's debug
 * output) and `{}`:
 * - `session-start` (SessionStart): the host is the nearest non-shell process above the hook;
 *   `connectHostSession` registers (or resumes, or renews) the Brigade session of Gemini's
 *   `session_id` and binds it to that process, then the context line;
 * - `turn` (BeforeAgent): a heartbeat (`busy`) and the notice of what waits (`waitingNotice`);
 * - `post-tool` (AfterTool): the notice, appended to the tool's result, so a message that came
 *   during a long turn is known before the turn ends; never after a tool of Brigade's own server;
 * - `turn-end` (AfterAgent): a heartbeat (`idle`);
 * - `session-end` (SessionEnd): `session close`, and the process's by-pid map removed when it
 *   still names this session (after `/clear` Gemini may run the new SessionStart first).
 * A folder no team binds, or a session no start bound, does nothing.
 *
 * @example await runGeminiHook("turn", stdin, { env: process.env, uid, now: Date.now, log })
 */
export async function runGeminiHook(
  event: GeminiHookEvent,
  stdin: string,
  deps: HostHookDeps,
): Promise<string> {
  const input = parseGeminiHookInput(stdin);
  if (input === undefined || input.sessionId === "") {
    deps.log("brigade host-hook gemini: bad_input\n");
    return "{}";
  }
  if (event === "session-start") {
    const hostPid = hostPidOf(deps.ancestors ?? processAncestors(process.pid));
    if (hostPid === undefined || input.cwd === "") {
      deps.log("brigade host-hook gemini: no_host\n");
      return "{}";
    }
    const connected = await connectHostSession({
      host: GEMINI_HOST,
      harness: "gemini-cli",
      harnessVersion: geminiVersionOf(hostPid),
      nativeSessionId: input.sessionId,
      hostPid,
      cwd: input.cwd,
      transcriptPath: input.transcriptPath,
      dotenvFiles: GEMINI_FACTS.dotenvFiles,
      env: deps.env,
      uid: deps.uid,
      now: deps.now,
      ...deps.connect,
    });
    if (!connected.ok) {
      if (!connected.off) deps.log(`brigade host-hook gemini: ${connected.code}\n`);
      if (connected.code !== "repository_env") return "{}";
      const line =
        "Brigade: not connected: a .env file of this repository (.gemini/.env or .env) sets where Brigade keeps its files (HOME, XDG_* or BRIGADE_*), and Gemini CLI passes it on to Brigade; take those lines out of it to connect this session.";
      return JSON.stringify({
        systemMessage: line,
        hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: line },
      });
    }
    const { map } = connected;
    return output(
      event,
      geminiContextLine(map.session_name, map.brigade_session_id, map.team_name),
    );
  }
  const map = boundHostSession(GEMINI_HOST, input.sessionId, deps.env, deps.uid);
  if (map === undefined) return "{}";
  if (event === "turn") {
    await heartbeatHostSession(map, "busy", deps.env, deps.uid);
    return output(event, waitingNotice(await countWaiting(map, deps.env, deps.uid)));
  }
  if (event === "post-tool") {
    // After Brigade's own tool the model has just read what waited (its ack may be on its way).
    if (input.toolName.startsWith(GEMINI_FACTS.mcpToolPrefix)) return "{}";
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
