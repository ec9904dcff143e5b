import { MAX_HOST_HOOK_INPUT_BYTES } from "../host-session/index.ts";

/** The members of a Codex hook's stdin document that Brigade reads (`CODEX_HOOK_STDIN_MEMBERS`). */
export interface CodexHookInput {
  /** The thread id: the value Codex's MCP calls carry as `_meta.threadId`. */
  readonly sessionId: string;
  readonly cwd: string;
  readonly transcriptPath: string;
  /** PostToolUse `tool_name` (`mcp__brigade__inbox`, `exec_command`…); `""` otherwise. */
  readonly toolName: string;
}

/** A string member of at most 4096 code units with no control character, else `""`. */
function text(value: unknown): string {
  if (typeof value !== "string" || value.length > 4096) return "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return /[\u0000-\u001f\u007f]/.test(value) ? "" : value;
}

/**
 * Parses a Codex hook's stdin (docs/49-codex.md): a JSON object of at most
 * {@link MAX_HOST_HOOK_INPUT_BYTES}; members of the wrong type, too long, or holding a control
 * character read as `""`; `cwd` and `transcriptPath` only when absolute. Anything that is not such
 * an object is `undefined`. Never throws.
 *
 * @example parseCodexHookInput('{"session_id":"01a2…","cwd":"/w/api"}')?.sessionId === "01a2…"
 */
export function parseCodexHookInput(raw: string): CodexHookInput | undefined {
  if (raw.length > MAX_HOST_HOOK_INPUT_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const absolute = (v: unknown): string => {
    const s = text(v);
    return s.startsWith("/") ? s : "";
  };
  return {
    sessionId: text(o.session_id),
    cwd: absolute(o.cwd),
    transcriptPath: absolute(o.transcript_path),
    toolName: text(o.tool_name),
  };
}
