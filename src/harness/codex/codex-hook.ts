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
import { CODEX_SERVER_NAME } from "./codex-block.ts";
import { CODEX_MCP_NAMESPACE_PREFIX, type CodexHookEvent } from "./codex-facts.ts";
import { parseCodexHookInput } from "./codex-hook-input.ts";
import { codexVersionOf } from "./codex-version.ts";

/** The binding folder and registered harness of Codex sessions. */
export const CODEX_HOST = "codex";

/** The events `brigade host-hook codex <event>` takes, each named for the Codex hook it serves. */
export const CODEX_BRIGADE_EVENTS = [
  "session-start",
  "turn",
  "post-tool",
  "turn-end",
  "session-end",
] as const;

/** One of {@link CODEX_BRIGADE_EVENTS}. */
export type CodexBrigadeEvent = (typeof CODEX_BRIGADE_EVENTS)[number];

/** The Codex hook event of each Brigade event (its `hookSpecificOutput.hookEventName`). */
const CODEX_EVENT_NAMES: Readonly<Record<CodexBrigadeEvent, CodexHookEvent>> = {
  "session-start": "SessionStart",
  turn: "UserPromptSubmit",
  "post-tool": "PostToolUse",
  "turn-end": "Stop",
  "session-end": "SessionEnd",
};

/** The tools of Brigade's own server as PostToolUse names them (`mcp__brigade__inbox`…). */
const OWN_TOOL_PREFIX = `${CODEX_MCP_NAMESPACE_PREFIX}${CODEX_SERVER_NAME}__`;

/**
 * What a hook prints: `{}` when there is nothing to say (Codex 0.171.0 shows the model nothing
 * for it, on every event), else the context as `hookSpecificOutput.additionalContext`, which
 * Codex puts in the next model request as one developer message holding exactly that text.
 */
function output(event: CodexBrigadeEvent, context: string): string {
  if (context === "") return "{}";
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: CODEX_EVENT_NAMES[event], additionalContext: context },
  });
}

/**
 * Runs one Codex hook (docs/49-codex.md) for `event` with the hook's stdin document and returns
 * the JSON document to print. Never throws; a problem is one line through `deps.log` (the hook's
 * stderr) and `{}`:
 * - `session-start` (SessionStart): the host is the nearest non-shell process above the hook (the
 *   Codex executable serving the thread); `connectHostSession` registers (or resumes, or renews)
 *   the Brigade session of Codex's `session_id` — the thread id its MCP calls carry as
 *   `_meta.threadId` — and writes its binding file, then the context line ({@link hostContextLine});
 * - `turn` (UserPromptSubmit): a heartbeat (`busy`) and the notice of what waits (`waitingNotice`);
 * - `post-tool` (PostToolUse): the notice, except after a tool of Brigade's own server (after
 *   `inbox` the model has just read what waited, and the acknowledgement may still be on its way);
 * - `turn-end` (Stop): a heartbeat (`idle`);
 * - `session-end` (SessionEnd): `session close`, and the process's by-pid map removed when it still
 *   names this thread.
 * A folder no team binds, or a thread no start bound, does nothing.
 *
 * @example await runCodexHook("turn", stdin, { env: process.env, uid, now: Date.now, log })
 */
export async function runCodexHook(
  event: CodexBrigadeEvent,
  stdin: string,
  deps: HostHookDeps,
): Promise<string> {
  const input = parseCodexHookInput(stdin);
  if (input === undefined || input.sessionId === "") {
    deps.log("brigade host-hook codex: bad_input\n");
    return "{}";
  }
  if (event === "session-start") {
    const hostPid = hostPidOf(deps.ancestors ?? processAncestors(process.pid));
    if (hostPid === undefined || input.cwd === "") {
      deps.log("brigade host-hook codex: no_host\n");
      return "{}";
    }
    const connected = await connectHostSession({
      host: CODEX_HOST,
      harness: "codex",
      harnessVersion: codexVersionOf(hostPid),
      nativeSessionId: input.sessionId,
      hostPid,
      cwd: input.cwd,
      transcriptPath: input.transcriptPath,
      env: deps.env,
      uid: deps.uid,
      now: deps.now,
      ...deps.connect,
    });
    if (!connected.ok) {
      if (!connected.off) deps.log(`brigade host-hook codex: ${connected.code}\n`);
      return "{}";
    }
    const { map } = connected;
    return output(event, hostContextLine(map.session_name, map.brigade_session_id, map.team_name));
  }
  const map = boundHostSession(CODEX_HOST, input.sessionId, deps.env, deps.uid);
  if (map === undefined) return "{}";
  if (event === "turn") {
    await heartbeatHostSession(map, "busy", deps.env, deps.uid);
    return output(event, waitingNotice(await countWaiting(map, deps.env, deps.uid)));
  }
  if (event === "post-tool") {
    if (input.toolName.startsWith(OWN_TOOL_PREFIX)) return "{}";
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
