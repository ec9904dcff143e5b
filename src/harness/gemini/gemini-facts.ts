import type { ProcessSignature } from "../host-session/process-signature.ts";

/** The facts of {@link GEMINI_FACTS}: each one's comment there says what was measured. */
export interface GeminiFacts {
  readonly measuredOn: string;
  readonly extensionsFolder: string;
  readonly hookParent: string;
  readonly hookInput: string;
  readonly additionalContextEscaped: boolean;
  readonly mcpSessionId: string;
  readonly mcpToolPrefix: string;
  readonly headless: string;
  readonly headlessAsk: string;
  readonly toolResultWrapped: string;
  readonly policyToolNames: string;
  readonly dotenvFiles: readonly string[];
  readonly shellTerminal: string;
}

/**
 * What Brigade relies on in Gemini CLI (npm `@google/gemini-cli`), each fact with the version it
 * was measured on (docs/49-hosts.md "Gemini CLI"; `test/real-gemini-*.test.ts` re-measures them on
 * the pinned version and the registry's newest).
 */
export const GEMINI_FACTS: GeminiFacts = Object.freeze({
  /** The version every fact below was measured on, and the pinned version of the real-client test. */
  measuredOn: "0.61.0",
  /** The extension folder Gemini CLI loads at start: `<home>/.gemini/extensions/<name>/`, where
   * `<home>` is `GEMINI_CLI_HOME` when set, else the person's home. A folder written there with a
   * `gemini-extension.json` and `hooks/hooks.json` is loaded with no `gemini extensions` step. */
  extensionsFolder: ".gemini/extensions",
  /** A hook command runs as `<shell> -c <command>` with Gemini's process as its parent (bash
   * replaces itself with a single command); MCP servers are Gemini's direct children. Gemini runs
   * as a child of the `gemini` launcher (it relaunches itself with a larger heap): the nearest
   * non-shell ancestor of a hook is the process that runs the session. */
  hookParent: "gemini",
  /** Hook stdin: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`, plus
   * `source` (SessionStart: startup|resume|clear), `prompt` (BeforeAgent), `reason` (SessionEnd);
   * env `GEMINI_SESSION_ID`, `GEMINI_PROJECT_DIR`, `GEMINI_CWD`. */
  hookInput: "session_id",
  /** `BeforeAgent`'s `hookSpecificOutput.additionalContext` is appended to the user's prompt as
   * `<hook_context>…</hook_context>` with `<`, `>` and `&` HTML-escaped: a frame placed there
   * would not reach the model byte for byte, so the hooks carry only a notice and the messages
   * come through the `inbox` tool, whose result text is not escaped. */
  additionalContextEscaped: true,
  /** MCP servers get the sanitised environment plus `GEMINI_CLI=1`; no session id, no `_meta`
   * session key on `tools/call`: a call binds through the process tree (docs/48-mcp.md step 3). */
  mcpSessionId: "none",
  /** MCP tools are named `mcp_<server>_<tool>` for the model and in hook matchers. */
  mcpToolPrefix: "mcp_brigade_",
  /** `gemini -p` runs headless; an untrusted folder refuses to start unless
   * `GEMINI_CLI_TRUST_WORKSPACE=true` or `--skip-trust`; `GOOGLE_GEMINI_BASE_URL` redirects the
   * Gemini API (`/v1beta/models/<model>:streamGenerateContent?alt=sse`). */
  headless: "-p",
  /** An MCP tool Gemini would ask about (the default for every MCP tool) is left out of a
   * headless run's tool list; a user policy (`~/.gemini/policies/*.toml`, `mcpName`, `allow`)
   * puts it back. An extension's own policies cannot allow. */
  headlessAsk: "deny",
  /** An MCP tool's text result reaches the model as the `functionResponse` member `output`:
   * `<untrusted_context>\n<text>\n</untrusted_context>`, with only `</untrusted_context>` inside
   * the text escaped; every other byte of the text is the model's to read as sent. */
  toolResultWrapped: "<untrusted_context>",
  /** A policy rule of the `mcpName` + short `toolName` form warns "Unrecognized tool name" at
   * every start for a short name near a built-in one (`who`); the full names
   * (`mcp_brigade_who`) in a `toolName` list apply without a warning. */
  policyToolNames: "mcp_brigade_",
  /** Gemini loads the first of `.gemini/.env`, `.env` found walking up from its folder into its
   * own environment (then `~/.gemini/.env`, `~/.env`), which its hooks and MCP servers inherit:
   * a cloned repository can set variables for them. */
  dotenvFiles: Object.freeze([".gemini/.env", ".env"]),
  /** The shell tool (`run_shell_command`) of an interactive session (the TUI, under tmux) runs its
   * command in a pseudo-terminal (node-pty, `tools.shell.enableInteractiveShell` true by default):
   * `[ -t 0 ]` and `[ -t 1 ]` both hold, and `GEMINI_CLI=1` is set (`GEMINI_SESSION_ID` is not),
   * so a model that strips it (`env -u GEMINI_CLI …`) passes the environment and terminal checks;
   * only `GEMINI_PROCESS_SIGNATURE` above the command tells it apart. A headless run (`gemini -p`,
   * stdout a pipe) gives the command neither terminal. A command holding `$(…)` or backticks is
   * refused before it runs ("Command injection detected"). */
  shellTerminal: "interactive",
});

/**
 * What marks a process as started inside a Gemini CLI session: `GEMINI_CLI` (set for the
 * commands its shell tool runs and its hooks) or `GEMINI_SESSION_ID`.
 */
export const GEMINI_SESSION_VARIABLES: readonly string[] = Object.freeze([
  "GEMINI_CLI",
  "GEMINI_SESSION_ID",
]);

/**
 * What tells Gemini CLI's own process (0.61.0, measured under tmux): `node <…>/gemini.js`, the
 * launcher, relaunches itself as `/usr/bin/node --max-old-space-size=<n>
 * <…>/node_modules/@google/gemini-cli/bundle/gemini.js` (the script's real path), and that child
 * runs the session, its shell tool's commands beneath it (through node-pty by default,
 * `tools.shell.enableInteractiveShell`). A launch through the `gemini` link (`node
 * /usr/local/bin/gemini`) is named by its script.
 */
export const GEMINI_PROCESS_SIGNATURE: ProcessSignature = Object.freeze({
  executables: Object.freeze(["gemini"]),
  folders: Object.freeze(["/node_modules/@google/gemini-cli/"]),
});
