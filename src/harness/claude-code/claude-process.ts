/**
 * What tells Claude Code's own process (2.1.336, measured under tmux): the native executable,
 * run through its `claude` link (`~/.local/bin/claude`, comm `claude`) or as itself, a file named
 * by its version in `~/.local/share/claude/versions/` (comm `2.1.336`); the npm package installs
 * it under `<…>/node_modules/@anthropic-ai/claude-code/`. Its Bash tool's commands run beneath it:
 * on 2.1.334 (under tmux, bypass mode) as `/bin/bash -c 'source <shell snapshot> … && eval
 * <command>'`, a direct child of the executable, with pipes on stdin and stdout (no terminal) and
 * {@link CLAUDE_CODE_COMMAND_VARIABLES} set; a model that strips them all is refused
 * `as_me_under_agent` by `brigade send --as-me` (`test/real-claude-code.suite.ts`).
 * The shape is `ProcessSignature`'s (src/harness/host-session/process-signature.ts), declared here
 * by value: this folder imports no other harness folder.
 */
export const CLAUDE_CODE_PROCESS_SIGNATURE: {
  readonly executables: readonly string[];
  readonly folders: readonly string[];
} = Object.freeze({
  executables: Object.freeze(["claude"]),
  folders: Object.freeze(["/share/claude/versions/", "/node_modules/@anthropic-ai/claude-code/"]),
});

/**
 * Every variable naming Claude Code that 2.1.334 sets for its Bash tool's commands (measured under
 * tmux, bypass mode; besides any the person set, such as `CLAUDE_CONFIG_DIR`). Four of them mark a
 * session (`showsClaudeCodeSession`); a model can strip them all (`env -u`), which is why
 * `brigade send --as-me` also walks the process's ancestors.
 */
export const CLAUDE_CODE_COMMAND_VARIABLES: readonly string[] = Object.freeze([
  "CLAUDECODE",
  "CLAUDE_CODE_CHILD_NOTES_DIR",
  "CLAUDE_CODE_CHILD_SESSION",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_CODE_EXECPATH",
  "CLAUDE_CODE_MESSAGING_SOCKET",
  "CLAUDE_CODE_MESSAGING_TOKEN",
  "CLAUDE_CODE_SESSION_ATTENDED",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_EFFORT",
  "CLAUDE_PID",
]);
