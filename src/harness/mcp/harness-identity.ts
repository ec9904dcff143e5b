/**
 * The `_meta` members of a `tools/call` request by which an MCP host names the calling session,
 * first match wins: Codex's `threadId`, OpenCode's `sessionID`. The host writes them, never the
 * model, and they are read per call (one Codex process serves several threads through one server).
 *
 * @example MCP_META_SESSION_KEYS[0] // { key: "threadId", host: "codex" }
 */
export const MCP_META_SESSION_KEYS: readonly { readonly key: string; readonly host: string }[] = [
  { key: "threadId", host: "codex" },
  { key: "sessionID", host: "opencode" },
];

/** The variable Claude Code puts in its MCP servers' environment: its native session id. */
export const CLAUDE_CODE_SESSION_VARIABLE = "CLAUDE_CODE_SESSION_ID";

/** Longest host session id taken, UTF-16 code units; a longer one names no session. */
export const MAX_NATIVE_SESSION_ID = 512;

/**
 * Who the host says is calling: its per-call `_meta` session id (`meta`), Claude Code's
 * environment variable (`env`), or nothing (`none`). `nativeId` is `""` when the host gave a
 * value that cannot name a session (not a string, empty, too long): such a call is refused, not
 * bound some other way.
 */
export type HarnessIdentity =
  | { readonly source: "meta"; readonly host: string; readonly nativeId: string }
  | { readonly source: "env"; readonly host: "claude-code"; readonly nativeId: string }
  | { readonly source: "none" };

function sessionId(value: unknown): string {
  return typeof value === "string" && value.length <= MAX_NATIVE_SESSION_ID ? value : "";
}

/**
 * The calling session as the host gives it, most specific first: a `_meta` member of
 * {@link MCP_META_SESSION_KEYS} on this call (a host that speaks for each call outranks a
 * variable this process may have inherited from an outer session), else
 * `CLAUDE_CODE_SESSION_ID` in this process's environment, else `none`. Never reads the tool's
 * arguments: the model chooses those. Pure.
 *
 * @example harnessIdentity({}, { threadId: "th-1" }) // { source: "meta", host: "codex", nativeId: "th-1" }
 */
export function harnessIdentity(
  env: Readonly<Record<string, string | undefined>>,
  meta: Readonly<Record<string, unknown>> | undefined,
): HarnessIdentity {
  for (const { key, host } of MCP_META_SESSION_KEYS) {
    if (meta !== undefined && Object.hasOwn(meta, key)) {
      return { source: "meta", host, nativeId: sessionId(meta[key]) };
    }
  }
  const fromEnv = env[CLAUDE_CODE_SESSION_VARIABLE];
  if (fromEnv !== undefined && fromEnv !== "") {
    return { source: "env", host: "claude-code", nativeId: sessionId(fromEnv) };
  }
  return { source: "none" };
}
