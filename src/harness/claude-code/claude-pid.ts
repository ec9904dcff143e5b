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
