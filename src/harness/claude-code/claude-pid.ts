/** Claude Code's process id as it reaches us (docs/spec/claude-code.md §2): 1–10 decimal digits, no leading zero. */
const CLAUDE_PID = /^[1-9][0-9]{0,9}$/;

/**
 * Whether `text` is a Claude Code pid in the form `CLAUDE_PID` carries and the file names keyed
 * by it use (`sessions/<pid>.json`, `watchers/<pid>.json`): 1–10 decimal digits, no leading zero.
 * Anything else — empty, signed, padded, `0`, longer — is refused, so the value can safely name a
 * file.
 *
 * @example isClaudePid("4242") === true && isClaudePid("0042") === false
 */
export function isClaudePid(text: string): boolean {
  return CLAUDE_PID.test(text);
}

/**
 * Whether this process runs inside a Claude Code session: `CLAUDE_PID` is set and non-empty
 * (docs/spec/claude-code.md §2; its form is checked where it is used).
 *
 * @example insideClaudeCode({ CLAUDE_PID: "4242" }) === true
 */
export function insideClaudeCode(env: { readonly CLAUDE_PID?: string | undefined }): boolean {
  return env.CLAUDE_PID !== undefined && env.CLAUDE_PID !== "";
}

/**
 * The variables Claude Code sets for its hooks and its Bash tool (docs/spec/claude-code.md §2):
 * any one of them set means the command runs inside a session, where the model, not the person,
 * may be typing.
 */
const SESSION_VARIABLES = [
  "CLAUDE_PID",
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_CODE_SESSION_ID",
] as const;

/**
 * Whether anything in `env` says this process runs inside a Claude Code session: one of
 * `CLAUDE_PID`, `CLAUDECODE`, `CLAUDE_CODE_ENTRYPOINT`, `CLAUDE_CODE_SESSION_ID` set and
 * non-empty. Stricter than {@link insideClaudeCode}: a person's act that changes what protects
 * their sessions (`brigade doctor --fix`, `brigade uninstall`) refuses on any sign.
 *
 * @example showsClaudeCodeSession({ CLAUDECODE: "1" }) === true
 */
export function showsClaudeCodeSession(env: Readonly<Record<string, string | undefined>>): boolean {
  return SESSION_VARIABLES.some((name) => (env[name] ?? "") !== "");
}
