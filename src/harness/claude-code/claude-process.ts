/**
 * What tells Claude Code's own process (2.1.336, measured under tmux): the native executable,
 * run through its `claude` link (`~/.local/bin/claude`, comm `claude`) or as itself, a file named
 * by its version in `~/.local/share/claude/versions/` (comm `2.1.336`); the npm package installs
 * it under `<…>/node_modules/@anthropic-ai/claude-code/`. Its Bash tool's commands run beneath it.
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
