/**
 * What Codex CLI (npm `@openai/codex`) does, each fact with the version it was measured on
 * (docs/49-codex.md "What Codex does"). Measured by running the real executable against a loopback
 * fake of the Responses API (`test/support/real-codex/`), never taken from memory: the real-client
 * suite (`test/real-codex-pull.suite.ts`) runs the pinned and the newest version against these.
 * When a newer Codex differs, the difference goes here, behind the same names.
 */

/** The Codex versions the pull lane was verified on (`codex --version` prints `codex-cli <v>`). */
export const CODEX_VERIFIED: readonly string[] = ["0.171.0"];

/**
 * Where Codex keeps its configuration: `$CODEX_HOME` when set, else `~/.codex` (0.171.0). The
 * user layer is `config.toml` in that folder; hooks may also come from `hooks.json` beside it.
 */
export const CODEX_HOME_VARIABLE = "CODEX_HOME";

/** The user configuration file in the Codex home (0.171.0). */
export const CODEX_CONFIG_FILE = "config.toml";

/**
 * The hook events Brigade's pull lane uses, with Codex's own spelling (0.171.0): the TOML table
 * names under `[hooks]` (`[[hooks.SessionStart]]`) and the `hook_event_name` of the stdin document.
 * Each handler is `{ type = "command", command = "<shell command>", timeout = <s> }`; no matcher
 * means every source (SessionStart) or every tool (PostToolUse, which fires for MCP tools too,
 * `tool_name` `mcp__<server>__<tool>`). All five run in `codex exec` too: SessionStart before the
 * first turn, UserPromptSubmit with the prompt, PostToolUse after each tool call, Stop at the end
 * of each turn, SessionEnd when the process ends the thread (`reason` `other` for `codex exec`).
 */
export const CODEX_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PostToolUse",
  "Stop",
  "SessionEnd",
] as const;

/** One of {@link CODEX_HOOK_EVENTS}. */
export type CodexHookEvent = (typeof CODEX_HOOK_EVENTS)[number];

/**
 * The members of every hook's stdin document Brigade reads (0.171.0): `session_id` (the thread
 * id, the same value an MCP call carries as `_meta.threadId`), `transcript_path` (the rollout
 * file), `cwd`, `hook_event_name`; SessionStart adds `source` (`startup`, `resume`, `clear`),
 * UserPromptSubmit `turn_id` and `prompt`, PostToolUse `turn_id`, `tool_name`, `tool_input`,
 * `tool_response`, `tool_use_id`, Stop `turn_id`, `stop_hook_active`, `last_assistant_message`,
 * SessionEnd `reason`. Codex starts each hook as a child of its own process (the
 * hook's parent pid is the Codex process that serves the thread, as is every MCP server's).
 */
export const CODEX_HOOK_STDIN_MEMBERS = [
  "session_id",
  "transcript_path",
  "cwd",
  "hook_event_name",
] as const;

/**
 * What reaches the model (0.171.0): a hook's stdout JSON
 * `{"hookSpecificOutput":{"hookEventName":"<event>","additionalContext":"<text>"}}` becomes one
 * `role: "developer"` message holding exactly `<text>`, in the next model request (SessionStart
 * and UserPromptSubmit: before the prompt's turn; PostToolUse: after the tool call). Plain stdout
 * also reaches the model for SessionStart, not for PostToolUse.
 */
export const CODEX_CONTEXT_OUTPUT = "hookSpecificOutput.additionalContext";

/**
 * The most `additionalContext` Codex passes whole, in UTF-8 bytes (0.171.0): it counts a text as
 * ⌈bytes / 4⌉ tokens and keeps 2,500 (`additionalContextLimit`, default); a longer text is cut to
 * its head and tail under a "Warning: truncated output" line, the whole saved to a file. Measured:
 * 10,000 bytes (ASCII, 2-byte and 4-byte characters alike) whole, 10,001 cut.
 */
export const CODEX_CONTEXT_MAX_BYTES = 10_000;

/**
 * Codex runs a new or changed hook from a user config only once the person trusted it (0.171.0:
 * `/hooks` in the interactive client; Codex records `[hooks.state."<key>"] trusted_hash` in the
 * same `config.toml`, the key being `<config path>:<event in snake case>:<group>:<handler>`). An
 * untrusted hook is skipped without a word, in `codex exec` as in the interactive client.
 * `codex exec --dangerously-bypass-hook-trust` runs them untrusted for one invocation.
 */
export const CODEX_HOOK_TRUST = "hooks.state.<key>.trusted_hash";

/**
 * MCP servers (0.171.0): `[mcp_servers.<name>] command, args`; Codex offers the server's tools to
 * the model as a Responses `namespace` tool named `mcp__<name>` holding one function per tool (the
 * tool's own name). Each `tools/call` carries `_meta.threadId` (and `_meta.sessionId`, equal): the
 * thread id the hooks see as `session_id`. Codex speaks the 2025-06-18 `initialize` generation.
 */
export const CODEX_MCP_NAMESPACE_PREFIX = "mcp__";

/**
 * Codex starts an MCP server with a short list of its own environment (0.171.0: `HOME`, `LANG`,
 * `PATH`, `SHELL`, `TERM` and the TLS certificate variables; no `XDG_*`, no `CODEX_*`) plus the
 * variables the server's `env_vars` list names, passed when set. Brigade names `XDG_STATE_HOME`,
 * so `brigade mcp` reads the binding files where the hooks, which get Codex's whole environment,
 * wrote them.
 */
export const CODEX_MCP_FORWARDED_VARIABLES: readonly string[] = ["XDG_STATE_HOME"];

/**
 * An MCP tool call needs approval unless the server's `default_tools_approval_mode` (or a tool's
 * `approval_mode`) is `approve` (0.171.0: `auto`, `prompt`, `writes`, `approve`); `codex exec`
 * (approval policy `never`) fails a call that needs one ("requires approval").
 */
export const CODEX_MCP_APPROVE_MODE = "approve";

/**
 * How long Codex waits for an MCP server's `initialize` before it goes on without its tools
 * (0.171.0: `startup_timeout_sec`, 10 s by default; a model's call of a tool it dropped gets
 * "unsupported call"). Brigade allows 30 s: `brigade mcp` answers in about 0.5 s on an idle
 * two-core machine, but a session whose tools are missing loses its messages until it is
 * restarted.
 */
export const CODEX_MCP_STARTUP_TIMEOUT_S = 30;

/**
 * Where Codex records a thread (0.171.0): `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread
 * id>.jsonl`, the hooks' `transcript_path`; a hook's `additionalContext` is a `response_item`
 * developer message there, an MCP result a `function_call_output`.
 */
export const CODEX_ROLLOUT_FOLDER = "sessions";

/**
 * A tool result reaches the model as a Responses `function_call_output` whose `output` is a list:
 * first Codex's own `Wall time: … seconds\nOutput:` text, then each text block of the MCP result as
 * one `input_text`, verbatim (0.171.0).
 */
export const CODEX_TOOL_OUTPUT_PREAMBLE = "Wall time: ";

/**
 * The file beside the native executable's `bin/` folder that names its version (0.171.0:
 * `vendor/<target>/codex-package.json`, `{"version": "0.171.0", …}`); the npm `codex` command is
 * a Node launcher that starts that executable, which serves the thread and runs its hooks.
 */
export const CODEX_PACKAGE_FILE = "codex-package.json";

/**
 * The variables Codex gives the commands its model runs (0.171.0): `CODEX_THREAD_ID`,
 * `CODEX_SESSION_ID` (the thread id), `CODEX_TOOL_CALL_ID`, `CODEX_VERSION`, `CODEX_CI`,
 * `CODEX_SANDBOX_NETWORK_DISABLED`. Its hooks get none of them (only `CODEX_HOME` when the person
 * set it), nor do its MCP servers. Any of the first three means "inside a Codex session".
 */
export const CODEX_SESSION_VARIABLES = [
  "CODEX_THREAD_ID",
  "CODEX_SESSION_ID",
  "CODEX_TOOL_CALL_ID",
] as const;

/**
 * The `.env` files Codex loads into the environment of its hooks and MCP servers from the session's
 * folder or above (0.171.0): none. It loads `$CODEX_HOME/.env` (the person's own file) into its
 * own environment, which its hooks then see (its MCP servers get only their listed variables);
 * a `.env` or `.codex/.env` in the working folder reached neither (measured in a folder Codex
 * had not been told to trust). So a repository cannot choose Brigade's folders through Codex.
 */
export const CODEX_REPOSITORY_DOTENV_FILES: readonly string[] = [];

/**
 * Where a received file can be read from (0.171.0): in `codex exec` with the default sandbox, the
 * model's `exec_command` `cat <file>` of a file inside the session's project folder's
 * `.brigade-uploads/` (mode 0600, written by `brigade mcp` when its `inbox` tool received the
 * message) ran with no approval asked, and the file's text came back to the model as the call's
 * output (docs/15-attachments.md "Receiving"; `test/real-codex-attachments-pinned.test.ts`).
 */
export const CODEX_READS_PROJECT_UPLOADS = true;
