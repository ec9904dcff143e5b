/**
 * The two NDJSON lines of one post to Claude Code's inbox socket (docs/spec/claude-code.md §3.2),
 * byte-exact:
 *
 * ```
 * {"type":"auth","token":"<token>"}\n
 * {"type":"user","message":{"role":"user","content":"<content>"}}\n
 * ```
 *
 * Each line is `JSON.stringify` output (members in this order) plus `\n`; `JSON.stringify` escapes
 * `\n` and `\r`, so each stays one physical line. The result holds the token: never log it.
 *
 * @example encodeInboxPostLines("t0k", "hi") === '{"type":"auth","token":"t0k"}\n{"type":"user","message":{"role":"user","content":"hi"}}\n'
 */
export function encodeInboxPostLines(token: string, content: string): string {
  const auth = JSON.stringify({ type: "auth", token });
  const user = JSON.stringify({ type: "user", message: { role: "user", content } });
  return `${auth}\n${user}\n`;
}
