import type { ProcessSignature } from "../host-session/process-signature.ts";

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
 * Codex does not wait for an MCP server before a turn's model request unless the server is
 * `required` (measured on 0.171.0: with `brigade mcp` made to take 6 s to start, `codex exec`'s
 * first request offered no `mcp__brigade` tool and the run ended in 1.3 s; with
 * `required = true` it waited, and the first request offered `inbox`, `send` and `who`). A
 * one-turn `codex exec`, or any first turn, would otherwise race the server's start. The cost: a
 * `brigade mcp` that cannot start at all stops Codex with "required MCP servers failed to
 * initialize", which names the server.
 */
export const CODEX_MCP_REQUIRED = true;

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
 * The Codex versions the push lane (the app-server door) was verified on: the pinned one and the
 * registry's newest on the day (`npm view @openai/codex dist-tags.latest` answered 0.171.0).
 */
export const CODEX_PUSH_VERIFIED: readonly string[] = ["0.171.0"];

/**
 * `codex app-server` serves its JSON-RPC 2.0 API (0.171.0) on the transport `--listen` names:
 * `stdio://` (the default: one client, the program that started it, one JSON message per line),
 * `unix://` or `unix://PATH` (any number of clients; a WebSocket upgrade on the Unix socket, then
 * one JSON-RPC message per text frame; the answer announces
 * `x-codex-websocket-max-unfragmented-message-bytes: 16777216`), `ws://IP:PORT` (the same over
 * TCP, with `--ws-auth capability-token | signed-bearer-token`), `off`. A client sends
 * `initialize` `{clientInfo: {name, title, version}, capabilities: {experimentalApi,
 * requestAttestation}}`, then the `initialized` notification.
 */
export const CODEX_DEFAULT_LISTEN = "stdio://";

/**
 * Where `codex app-server --listen unix://` listens (0.171.0): `$CODEX_HOME/app-server-control/
 * app-server-control.sock`, a link to `/tmp/codex-daemon-<uid>/<digest>`. The interactive client
 * (`codex` in a terminal) starts the managed daemon (`codex app-server daemon start`: a copy of
 * the Codex package into `$CODEX_HOME/packages/app-server-daemon/`, 424 MB, then `codex
 * app-server --listen unix:// --managed-daemon` detached) when none runs and works as a client of
 * that socket: its threads live in the daemon, reachable by any client of the socket.
 * `codex --remote unix://PATH` and `codex exec --remote unix://PATH` use another app-server.
 * Measured by hand with the real daemon: a plain `codex` thread's SessionStart hook ran under
 * `…/app-server-daemon/releases/0.171.0-…/bin/codex app-server --listen unix://
 * --analytics-default-enabled --managed-daemon`, and a `turn/start` on the control socket reached
 * that thread.
 */
export const CODEX_CONTROL_SOCKET: readonly string[] = [
  "app-server-control",
  "app-server-control.sock",
];

/**
 * Which Codex sessions a program outside them can reach through the app-server (0.171.0,
 * measured against the loopback fake): `true` for a thread loaded in an app-server listening on a
 * Unix socket: the interactive client (its daemon's socket, or the app-server of `--remote`), and
 * `codex exec --remote` while it runs (the thread stays loaded in the app-server after `exec`
 * exits while another client is subscribed); `false` for plain `codex exec` (its thread runs
 * inside the process, no socket, no daemon started) and for an app-server on stdio (an editor
 * extension's own: its pipe has one end, the extension; not run here, the extension is no npm
 * package). The hooks of a thread served by an app-server run as children of that app-server
 * (`codex app-server --listen unix://…`, measured for the interactive client and `exec --remote`),
 * so the process the hooks record names the socket in its arguments.
 */
export const CODEX_REACHABLE = {
  interactive: true,
  interactiveRemote: true,
  execRemote: true,
  exec: false,
  stdioAppServer: false,
} as const;

/**
 * `turn/start {threadId, input: [{type: "text", text, text_elements: []}], clientUserMessageId}`
 * on an idle thread (0.171.0) starts a turn (answer `{turn: {id, status: "inProgress"}}`) whose
 * first model request ends with a `user` message holding `text` byte for byte (a trailing newline
 * kept). A 1 MiB text is accepted. Codex does not deduplicate `clientUserMessageId`: the same id
 * twice is two messages.
 */
export const CODEX_TURN_START = "turn/start";

/**
 * `turn/steer {threadId, input, expectedTurnId, clientUserMessageId}` (0.171.0) adds the input to
 * the running turn: answer `{turnId}`; the streaming model response is cut and the next model
 * request of the same turn holds the input as a `user` message after the earlier ones, in the
 * order steered (15 steers in a row, all in one next request, in order). A wrong id fails with
 * JSON-RPC error -32600 "expected active turn id `<given>` but found `<active>`", no running turn
 * with -32600 "no active turn to steer". A steered input enters the thread's record when it goes
 * to the model, not when the steer is answered.
 */
export const CODEX_TURN_STEER = "turn/steer";

/** The JSON-RPC error code of a steer whose expected turn is not the running one (0.171.0). */
export const CODEX_STEER_MISMATCH_CODE = -32_600;

/**
 * `thread/queue/add {threadId, input, clientUserMessageId}` (0.171.0) answers `{queuedSubmission:
 * {id, …}}` and Codex starts the queued input as a turn of its own when the thread is (or
 * becomes) idle: after the running turn, or at once on an idle loaded thread. The queue lives in
 * `$CODEX_HOME/queue_1.sqlite`; `codex queue --thread <id> --message <text>` adds to it (`--resume`
 * asks the daemon to resume the thread): with `--remote unix://…` through that app-server, which
 * ran it as the loaded thread's next turn; without `--remote` into the queue database only: a
 * thread loaded in a running app-server did not take it (measured: after 3 s it was still in
 * `thread/queue/list`, in no turn). A queued input is in no turn yet: the record shows it only
 * once its turn starts. Brigade does not use the queue (**[ours]**: a steer or a start reaches the
 * model as soon, and a queue of a thread never resumed is never read).
 */
export const CODEX_QUEUE_ADD = "thread/queue/add";

/**
 * The thread's record as the app-server hands it out (0.171.0): `thread/turns/list {threadId,
 * limit, sortDirection: "desc", itemsView: "full"}` (needs `experimentalApi`) → `{data: [turn]}`,
 * each turn `{id, status: "inProgress" | "completed" | "interrupted" | "failed", items}`; a user
 * input is an item `{type: "userMessage", clientId, content: [{type: "text", text}]}` with the
 * `clientUserMessageId` it was sent with. `itemsView: "summary"` lists only a turn's first user
 * message and its last agent message: a steered input shows only in `"full"` (which also holds
 * every tool call and output). `thread/read {includeTurns: true}` has the same turns
 * (deprecated for paginated threads). Notifications of a subscribed thread: `turn/started`,
 * `turn/completed` (`{threadId, turn}`), `item/started`, `item/completed` (`{threadId, turnId,
 * item}`), `thread/status/changed` (`idle`, `active`), `thread/closed`. `thread/resume {threadId}`
 * of a loaded thread rejoins it (subscribes the connection: measured); of a thread not loaded it
 * loads it from disk (Codex's schema says so; Brigade never does it). `thread/loaded/list` lists
 * the loaded thread ids. `turn/start`, `turn/steer` and `thread/turns/list` work on a loaded
 * thread without subscribing; an unsubscribed client still gets `thread/status/changed` and
 * `thread/closed`, not the turn and item events.
 */
export const CODEX_RECORD_READ = "thread/turns/list";

/**
 * When an app-server lets go of a thread (0.171.0): once its last subscriber left (the
 * interactive client quit: Ctrl-C twice), it unloads the thread after `thread_unload_delay_secs`
 * (a top-level `config.toml` key; with 1 or 2 the thread was unloaded 1–2 s after the client
 * quit; the default kept it loaded for more than 45 s), and only then runs SessionEnd and sends
 * every client `thread/closed`. A client subscribed with `thread/resume` keeps the thread loaded
 * (measured: 8 s with a delay of 2, no SessionEnd): so Brigade's door never subscribes.
 */
export const CODEX_UNLOAD_DELAY_KEY = "thread_unload_delay_secs";

/**
 * Where a received file can be read from (0.171.0): in `codex exec` with the default sandbox, the
 * model's `exec_command` `cat <file>` of a file inside the session's project folder's
 * `.brigade-uploads/` (mode 0600, written by `brigade mcp` when its `inbox` tool received the
 * message) ran with no approval asked, and the file's text came back to the model as the call's
 * output (docs/15-attachments.md "Receiving"; `test/real-codex-attachments-pinned.test.ts`).
 */
export const CODEX_READS_PROJECT_UPLOADS = true;

/**
 * The push lane's latency on the real client (0.171.0, `bench/real-client.bench.mjs`, the run of
 * 2026-12-05, docs/49-hosts.md "How long a push takes"): from the send call (24 sends, one at a
 * time, the session idle) to the Codex model's next request holding the message, and to the ack
 * on the server, p50 and p99 in ms, on the two-core machine at load average 12 to 20 (busy with
 * other work: the figures hold at that load, not on a quiet machine).
 */
export const CODEX_PUSH_BENCH_MEASURED = {
  version: "0.171.0",
  sendToModelMs: { p50: 1040, p99: 2373 },
  sendToAckedMs: { p50: 1592, p99: 2721 },
  loadAverage: [12, 20],
} as const;

/**
 * What tells Codex's own process (0.171.0, measured under tmux and `codex exec`): the native
 * executable `codex` (comm `codex`), whatever folder it is in, and the app-server daemon it starts
 * (`<home>/.codex/packages/app-server-daemon/releases/<v>/bin/codex app-server --listen unix://
 * --managed-daemon`, comm `codex`); the npm launcher runs `node <…>/node_modules/@openai/codex/
 * bin/codex.js` (or through its `codex` link). A sandboxed command (the default) runs in a PID
 * namespace of its own whose pid 1 is `codex-linux-sandbox --sandbox-policy-cwd …` (comm `codex`),
 * the command's parent: the only Codex process the command can see.
 */
export const CODEX_PROCESS_SIGNATURE: ProcessSignature = Object.freeze({
  executables: Object.freeze(["codex", "codex-linux-sandbox"]),
  folders: Object.freeze(["/node_modules/@openai/codex/"]),
});

/**
 * What Codex's shell tool gives a command (0.171.0, measured with `codex exec`): `exec_command`
 * ("Runs a command in a PTY") takes `tty`, "True allocates a PTY for the command; false or omitted
 * uses plain pipes": the model chooses, and with `tty: true` stdin and stdout are both terminals.
 * The command's environment holds `CODEX_THREAD_ID`, `CODEX_SESSION_ID`, `CODEX_TOOL_CALL_ID`
 * (and `CODEX_VERSION`, `CODEX_CI`, `CODEX_HOME`, `CODEX_PERMISSION_PROFILE`,
 * `CODEX_SANDBOX_NETWORK_DISABLED` …), which the model can strip. Sandboxed (the default), it
 * runs in a PID namespace whose pid 1 is `codex-linux-sandbox` (`CODEX_PROCESS_SIGNATURE`); with
 * `--sandbox danger-full-access` its parent chain reaches the `codex` process.
 */
export const CODEX_SHELL_TERMINAL = "model_chooses";
