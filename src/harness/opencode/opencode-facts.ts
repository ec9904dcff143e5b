import type { ProcessSignature } from "../host-session/process-signature.ts";

/**
 * What OpenCode (npm `opencode-ai`) does, each fact with the version it was measured on
 * (docs/49-opencode.md "What OpenCode does"). Measured by running the real `opencode serve`,
 * `opencode run` and the TUI (under tmux) against a loopback fake of an OpenAI-compatible chat
 * completions API, with a probe plugin and a probe MCP server; never taken from memory. The
 * real-client suite (`test/real-opencode.suite.ts`) runs the pinned and the newest version
 * against these. When a newer OpenCode differs, the difference goes here, behind the same names.
 */

/** The OpenCode versions the door and the plugin were verified on (`opencode --version`). */
export const OPENCODE_VERIFIED: readonly string[] = ["1.18.33"];

/**
 * The package (1.18.33): `opencode-ai` is a 3 KB launcher whose `postinstall` links the platform
 * build, published as its own package `opencode-linux-x64` (and 11 other targets) at the same
 * version: a 60.3 MB tarball holding one 185 MB executable (`bin/opencode`, a compiled Bun
 * program: no Node needed, none used). `opencode --version` takes 0.7 s of CPU (2.3 s wall at
 * load 10 on 2 cores); one `opencode run` turn against the fake, 3.6–4.0 s of CPU, 6–14 s wall.
 */
export const OPENCODE_PACKAGE = "opencode-ai";

/** The platform package holding the executable for Linux x64 (1.18.33), `bin/opencode` in it. */
export const OPENCODE_LINUX_X64_PACKAGE = "opencode-linux-x64";

/**
 * Where OpenCode reads its global configuration (1.18.33): `$XDG_CONFIG_HOME/opencode`, else
 * `~/.config/opencode`; it merges `config.json`, `opencode.json` and `opencode.jsonc` there (it
 * writes an `opencode.jsonc` holding only `$schema` and a `.gitignore` on its first start), then
 * the project's own. `OPENCODE_CONFIG_DIR` names one more folder read the same way.
 */
export const OPENCODE_CONFIG_FOLDER = "opencode";

/**
 * Plugins (1.18.33): every `{plugin,plugins}/*.{ts,js}` in a configuration folder (the global
 * one, `.opencode/` of the project, `OPENCODE_CONFIG_DIR`) is imported at an instance's start,
 * in the OpenCode process itself (a child process a plugin starts has OpenCode's pid as its
 * parent). Each exported function is called with `{client, project, worktree, directory,
 * experimental_workspace, serverUrl, $}` and returns its hooks: `config` (called with the merged
 * configuration before the MCP servers start: an `mcp` entry added there is started), `event`
 * (`session.created` with `info` holding `id`, `parentID` for a subagent's session, `directory`,
 * `version`; `session.status` `busy`/`idle`; `session.idle`; `session.deleted`; `message.*`),
 * `chat.message`, `tool.execute.*`. `--pure` skips them.
 */
export const OPENCODE_PLUGIN_FOLDER = "plugins";

/**
 * Whether a TUI runs a server a program outside it can reach (1.18.33): only when started with
 * `--port` or `--hostname` (or `server.mdns` in the configuration); then it listens on
 * `127.0.0.1:<port>` and a plugin's `serverUrl` is `http://127.0.0.1:<port>/`. Without them the
 * TUI talks to its server in-process, nothing listens, and `serverUrl` is the placeholder
 * `http://localhost:4096/`. `opencode run` (with or without `--port`) listened on nothing and
 * had the placeholder too. `opencode serve` always listens (`--port`, default a free one), and
 * its plugins (loaded per project folder at the first request naming it) get the real URL.
 */
export const OPENCODE_PLACEHOLDER_SERVER_URL = "http://localhost:4096/";

/**
 * The server's authentication (1.18.33): none unless `OPENCODE_SERVER_PASSWORD` is set in the
 * server's environment; then HTTP basic authentication, user `OPENCODE_SERVER_USERNAME` or
 * `opencode` (401 without it).
 */
export const OPENCODE_PASSWORD_VARIABLE = "OPENCODE_SERVER_PASSWORD";

/** The basic-authentication user name variable, `opencode` when unset (1.18.33). */
export const OPENCODE_USERNAME_VARIABLE = "OPENCODE_SERVER_USERNAME";

/**
 * The v1 session API Brigade's door uses (1.18.33, OpenAPI at `GET /doc`):
 * `POST /session/{id}/prompt_async` `{messageID?, parts: [{type: "text", text}]}` → 204 once the
 * user message is stored (it is in `GET /session/{id}/message` at once, during a busy turn too),
 * 404 `NotFoundError` for an unknown session, 400 for a `messageID` not starting with `msg`.
 * The text reaches the model as the user message's `content` byte for byte (no escaping). An idle
 * session starts a turn at once; during a busy turn the message waits and the next request after
 * the turn holds it. Posting a `messageID` that exists **appends another part** to that message
 * (not idempotent): Brigade never posts an id twice, it reads the id back instead.
 * `GET /session/{id}/message/{messageID}` → `{info: {id, role, sessionID, …}, parts: [{type,
 * text}, …]}` or 404 `NotFoundError`. `GET /session/status` → busy sessions only
 * (`{"ses_…": {"type": "busy"}}`, `{}` when all are idle).
 */
export const OPENCODE_PROMPT_ASYNC = "/session/{id}/prompt_async";

/**
 * Message ids (1.18.33): `msg_` + 12 lowercase hex digits (the low 48 bits of
 * `epoch ms × 4096 + a counter`) + 14 random base-62 characters, so ids sort by creation time.
 * Brigade makes its own in the same shape, so a message it posts sorts after the conversation's.
 */
export const OPENCODE_MESSAGE_ID_PREFIX = "msg_";

/**
 * The v2 API (1.18.33, present): `POST /api/session/{id}/prompt` `{id?: "msg_…", prompt: {text},
 * delivery?: "steer" | "queue", resume?}` → `{data: {admittedSeq, id, …}}`, and
 * `GET /api/session/{id}/message`. Its messages are a store of their own: a v2 prompt into a
 * session the TUI or `prompt_async` uses ran the model **without** the session's v1 history, and
 * the v1 messages (what the TUI shows) never held it. So Brigade's door uses the v1 API; the
 * plugin's `client` is the v1 SDK (its `session` has no `prompt` with `delivery`).
 */
export const OPENCODE_V2_PROMPT = "/api/session/{id}/prompt";

/**
 * MCP (1.18.33): a configuration entry `mcp.<name> = {type: "local", command: [argv…],
 * environment?, enabled?, timeout?}`; the server is OpenCode's child (environment: OpenCode's,
 * plus `OPENCODE=1` and `OPENCODE_PID`). OpenCode speaks `initialize` 2025-11-25 as client
 * `opencode` and offers each tool to the model as `<server>_<tool>` (`brigade_inbox`). A
 * `tools/call` carries `_meta: {progressToken}` only, **no session id**: `brigade mcp` binds
 * through the by-pid map of the OpenCode process. A tool's text result reaches the model as the
 * `tool` message's `content`, byte for byte.
 */
export const OPENCODE_MCP_TOOL_PREFIX = "brigade_";

/**
 * The model API (1.18.33): a provider in the configuration, `provider.<id> = {npm:
 * "@ai-sdk/openai-compatible", options: {baseURL, apiKey}, models: {<model>: {name}}}` (the
 * package is built in) and `model: "<id>/<model>"`; requests are streamed `POST
 * <baseURL>/chat/completions` with `stream_options.include_usage`. Each new session also sends
 * a title request (a system prompt "You are a title generator…") to `small_model` (or the model).
 * OpenCode fetches `https://models.dev` unless `OPENCODE_DISABLE_MODELS_FETCH` is set, and its
 * first start ran an npm install for its configuration folder (`@opencode-ai/plugin`).
 */
export const OPENCODE_OPENAI_COMPATIBLE = "@ai-sdk/openai-compatible";

/**
 * What OpenCode sets in the environment of what it starts (1.18.33): `OPENCODE=1` and
 * `OPENCODE_PID` (its pid) for MCP servers and for the model's shell commands (which also get
 * `AGENT=1`); `brigade install`/`uninstall` refuse to run where they show an OpenCode session.
 */
export const OPENCODE_SESSION_VARIABLE = "OPENCODE_PID";

/** The other mark of OpenCode's model shell (1.18.33): `OPENCODE` set to exactly `1`. */
export const OPENCODE_COMMAND_ENV: Readonly<Record<string, string>> = Object.freeze({
  OPENCODE: "1",
});

/**
 * The `.env` files OpenCode loads into its own environment from a session's folder: none
 * (1.18.33: a `.env` in the folder `opencode run` ran in, setting `XDG_STATE_HOME` and a name of
 * its own, reached neither the environment of an MCP server OpenCode started nor its plugins).
 */
export const OPENCODE_DOTENV_FILES: readonly string[] = [];

/**
 * The push lane's latency on the real client (1.18.33, `bench/real-client.bench.mjs`, the run of
 * 2026-12-05, docs/49-hosts.md "How long a push takes"): from the send call (24 sends, one at a
 * time, the session idle) to the OpenCode model's next request holding the message, and to the ack
 * on the server, p50 and p99 in ms, on the two-core machine at load average 12 to 20 (busy with
 * other work: the figures hold at that load, not on a quiet machine).
 */
export const OPENCODE_PUSH_BENCH_MEASURED = {
  version: "1.18.33",
  sendToModelMs: { p50: 737, p99: 1245 },
  sendToAckedMs: { p50: 1178, p99: 1881 },
  loadAverage: [12, 20],
} as const;

/**
 * What tells OpenCode's own process (1.18.33, measured under tmux): the compiled executable
 * `<…>/opencode-linux-x64/bin/opencode` (comm `opencode`); the `opencode-ai` launcher is a Node
 * script named `opencode` in `<…>/node_modules/opencode-ai/`. The model's `bash` tool (1.18.33,
 * the TUI under tmux) runs `/bin/bash -c '<command>'` as a direct child of that executable, with
 * pipes on stdin and stdout (no terminal) and `OPENCODE_PID`, `OPENCODE=1` and `AGENT=1` as its
 * marks: a model that strips them is refused `as_me_under_agent` by `brigade send --as-me`
 * (`test/real-opencode.suite.ts`).
 */
export const OPENCODE_PROCESS_SIGNATURE: ProcessSignature = Object.freeze({
  executables: Object.freeze(["opencode"]),
  folders: Object.freeze(["/node_modules/opencode-ai/"]),
});
