import { HOST_HOOK_EVENTS, type HostHookEvent, type HostHookSpec } from "../host-session/index.ts";
import { GEMINI_FACTS } from "./gemini-facts.ts";
import { geminiVersionOf } from "./gemini-version.ts";

/** The binding folder and registered harness of Gemini CLI sessions. */
export const GEMINI_HOST = "gemini";

/** The events `brigade host-hook gemini <event>` takes (the pull lane's, `HOST_HOOK_EVENTS`). */
export const GEMINI_HOOK_EVENTS: readonly HostHookEvent[] = HOST_HOOK_EVENTS;

/** The Gemini hook event of each Brigade event (its `hookSpecificOutput.hookEventName`). */
export const GEMINI_EVENT_NAMES: Readonly<Record<HostHookEvent, string>> = {
  "session-start": "SessionStart",
  turn: "BeforeAgent",
  "post-tool": "AfterTool",
  "turn-end": "AfterAgent",
  "session-end": "SessionEnd",
};

/**
 * What a Gemini hook prints (Gemini parses a hook's stdout as JSON): `{}` when there is nothing to
 * say, else the text as `hookSpecificOutput.additionalContext` — SessionStart's reaches the model
 * as the first turn (interactive) or before the prompt (headless), BeforeAgent's is appended to
 * the prompt, AfterTool's to the tool's result — and, for the person, also as `systemMessage`
 * (shown in the terminal).
 *
 * @example geminiHookOutput("turn", "", false) === "{}"
 */
export function geminiHookOutput(event: HostHookEvent, context: string, toPerson: boolean): string {
  if (context === "") return "{}";
  return JSON.stringify({
    ...(toPerson ? { systemMessage: context } : {}),
    hookSpecificOutput: { hookEventName: GEMINI_EVENT_NAMES[event], additionalContext: context },
  });
}

/** Gemini CLI in the pull lane's hook flow (`runHostHook`, docs/49-hosts.md "Gemini CLI"). */
export const GEMINI_HOOK_SPEC: HostHookSpec = {
  host: GEMINI_HOST,
  harness: "gemini-cli",
  versionOf: geminiVersionOf,
  ownToolPrefix: GEMINI_FACTS.mcpToolPrefix,
  dotenvFiles: GEMINI_FACTS.dotenvFiles,
  output: geminiHookOutput,
};
