import { HOST_HOOK_EVENTS, type HostHookEvent, type HostHookSpec } from "../host-session/index.ts";
import { CODEX_SERVER_NAME } from "./codex-block.ts";
import {
  CODEX_MCP_NAMESPACE_PREFIX,
  CODEX_REPOSITORY_DOTENV_FILES,
  type CodexHookEvent,
} from "./codex-facts.ts";
import { codexVersionOf } from "./codex-version.ts";

/** The binding folder and registered harness of Codex sessions. */
export const CODEX_HOST = "codex";

/** The events `brigade host-hook codex <event>` takes (the pull lane's, `HOST_HOOK_EVENTS`). */
export const CODEX_BRIGADE_EVENTS: readonly HostHookEvent[] = HOST_HOOK_EVENTS;

/** One of {@link CODEX_BRIGADE_EVENTS}. */
export type CodexBrigadeEvent = HostHookEvent;

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

/** Codex in the pull lane's hook flow (`runHostHook`, docs/49-codex.md). */
export const CODEX_HOOK_SPEC: HostHookSpec = {
  host: CODEX_HOST,
  harness: "codex",
  versionOf: codexVersionOf,
  ownToolPrefix: OWN_TOOL_PREFIX,
  dotenvFiles: CODEX_REPOSITORY_DOTENV_FILES,
  output: (event, context) => output(event, context),
};
