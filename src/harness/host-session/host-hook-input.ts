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

/**
 * A hook document's string member: at most 4096 code units with no control character, else `""`.
 *
 * @example hookText("ses_1") === "ses_1" && hookText("a\nb") === ""
 */
export function hookText(value: unknown): string {
  if (typeof value !== "string" || value.length > 4096) return "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return /[\u0000-\u001f\u007f]/.test(value) ? "" : value;
}

/**
 * A client hook's stdin as a JSON object of at most {@link MAX_HOST_HOOK_INPUT_BYTES}, its members
 * unread; `undefined` for anything else. Never throws.
 *
 * @example hookDocument('{"session_id":"9486b714"}')?.session_id === "9486b714"
 */
export function hookDocument(raw: string): Record<string, unknown> | undefined {
  if (raw.length > MAX_HOST_HOOK_INPUT_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return value as Record<string, unknown>;
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
  const o = hookDocument(raw);
  if (o === undefined) return undefined;
  const absolute = (v: unknown): string => {
    const s = hookText(v);
    return s.startsWith("/") ? s : "";
  };
  return {
    sessionId: hookText(o.session_id),
    cwd: absolute(o.cwd),
    transcriptPath: absolute(o.transcript_path),
    cause: hookText(o.source) || hookText(o.reason),
    toolName: hookText(o.tool_name),
  };
}
