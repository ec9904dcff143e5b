import { MAX_HOST_HOOK_INPUT_BYTES } from "./host-client.ts";

/** The members of a client hook's stdin document that Brigade reads (the same names in each). */
export interface HostHookInput {
  /** The client's session id (Codex: the thread id its MCP calls carry as `_meta.threadId`). */
  readonly sessionId: string;
  readonly cwd: string;
  readonly transcriptPath: string;
  /** SessionStart `source`, SessionEnd `reason`; `""` otherwise. */
  readonly cause: string;
  /** The tool a post-tool hook follows (`mcp_brigade_inbox`, `exec_command`…); `""` otherwise. */
  readonly toolName: string;
}

/** A string member of at most 4096 code units with no control character, else `""`. */
function text(value: unknown): string {
  if (typeof value !== "string" || value.length > 4096) return "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return /[\u0000-\u001f\u007f]/.test(value) ? "" : value;
}

/**
 * Parses a client hook's stdin (docs/49-hosts.md; Gemini CLI and Codex name these members alike):
 * a JSON object of at most {@link MAX_HOST_HOOK_INPUT_BYTES}; `session_id`, `cwd`,
 * `transcript_path`, `source` or `reason`, `tool_name`; members of the wrong type, too long, or
 * holding a control character read as `""`; `cwd` and `transcriptPath` only when absolute.
 * Anything that is not such an object is `undefined`. Never throws.
 *
 * @example parseHostHookInput('{"session_id":"9486b714","cwd":"/w/api"}')?.sessionId === "9486b714"
 */
export function parseHostHookInput(raw: string): HostHookInput | undefined {
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
    cause: text(o.source) || text(o.reason),
    toolName: text(o.tool_name),
  };
}
