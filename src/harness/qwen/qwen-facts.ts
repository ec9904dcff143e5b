import type { ProcessSignature } from "../host-session/process-signature.ts";

/**
 * What Qwen Code (npm `@qwen-code/qwen-code`) does, each fact with the version it was measured on
 * (docs/49-qwen.md "What Qwen Code does"). Measured by running the real TUI under tmux against a
 * loopback fake of its OpenAI-compatible chat completions API, never taken from memory; the
 * protocol itself is documented in the package (`bundled/qc-helper/docs/features/
 * cross-session-protocol.md`, schema version 1, frame version 1). The real-client suite
 * (`test/real-qwen-door.suite.ts`) runs the pinned and the newest version against these. When a
 * newer Qwen Code differs, the difference goes here, behind the same names.
 */

/** The Qwen Code versions the peer door was verified on (`qwen --version` prints the bare version). */
export const QWEN_VERIFIED: readonly string[] = ["0.24.4"];

/**
 * The package (0.24.4): 15.9 MB packed, 53.4 MB unpacked, 24 files, bin `qwen` → `cli-entry.js`,
 * no dependencies (the optional ones — node-pty, clipboard, sharp, audio capture — are not needed
 * for the TUI to run). It declares `engines.node >=22.0.0` but its TUI runs on Node 20.20 here.
 * `cli-entry.js` starts `node --expose-gc cli.js` as a child: the session's registry record names
 * the child's pid, not the one a terminal started. The TUI is at its prompt in under 8 s.
 */
export const QWEN_PACKAGE = "@qwen-code/qwen-code";

/**
 * Where Qwen Code keeps its state: `$QWEN_HOME` when set (an empty value counts as unset), else
 * `~/.qwen` (0.24.4). Conversations go under `$QWEN_RUNTIME_DIR` when set, else the same folder.
 */
export const QWEN_HOME_VARIABLE = "QWEN_HOME";

/** Overrides where conversations are written (0.24.4); unset means the Qwen home. */
export const QWEN_RUNTIME_DIR_VARIABLE = "QWEN_RUNTIME_DIR";

/**
 * The session registry (0.24.4, schema version 1): one record per running session at
 * `<qwen home>/sessions/<pid>.json` (or `<pid>-<8 lowercase hex>.json` for a process hosting
 * several sessions), folder 0700, file 0600, written by the session itself. Measured record of a
 * TUI: `schemaVersion` 1, `pid` (the `cli.js` process), `procStart` `<boot id>:<start ticks>`
 * (`/proc/sys/kernel/random/boot_id` and field 22 of `/proc/<pid>/stat`), `pidNs` (inode of
 * `/proc/self/ns/pid`), `sessionId` (a UUID; `/clear` and `/resume` swap it under the same pid),
 * `cwd`, `name` (`<cwd basename>-<2 hex>`), `startedAt` (epoch ms), `qwenVersion` ("0.24.4"),
 * `kind` ("tui"), `ipcPath` (the inbox socket), `ipcToken` (64 lowercase hex).
 */
export const QWEN_REGISTRY_FOLDER = "sessions";

/** The registry's schema version Brigade reads (0.24.4); a higher one is skipped, never deleted. */
export const QWEN_SCHEMA_VERSION = 1;

/** The frame version Brigade writes and reads (0.24.4); a frame with a higher one is dropped. */
export const QWEN_FRAME_VERSION = 1;

/**
 * The inbox socket (0.24.4): a UNIX socket, first of `$XDG_RUNTIME_DIR/qwen-socks/<pid>.sock`,
 * `$TMPDIR/qwen-socks-<16 hex>/<pid>.sock`, `/tmp/qwen-socks-<16 hex>/<pid>.sock` (measured:
 * `/tmp/qwen-socks-<16 hex>/<pid>.sock` without `XDG_RUNTIME_DIR`). Newline-delimited JSON, one
 * message per connection: the auth line and the frame in one write, then half-close. The receiver
 * never answers on that connection: every receipt is a new connection to the sender's own inbox
 * (the frame's `from`), opening with an auth line that carries the sender's `replyToken`.
 */
export const QWEN_INBOX_LIMITS = {
  /** A longer line drops the connection (UTF-16 code units). */
  maxLineChars: 1_048_576,
  /** A connection without a parsed line for this long is dropped, ms. */
  lineDeadlineMs: 30_000,
  /** Connections the inbox accepts at once. */
  maxConnections: 64,
} as const;

/**
 * The receiver's admission (0.24.4, Qwen Code's cross-session-protocol.md, section 6): per
 * sender a burst of 30, then
 * one every 2 s; all senders a burst of 32, then one a second; at most 50 held and 50 queued from
 * peers (`queue-full` beyond). A controller is exempt from the 30-second duplicate-body check.
 * The pacer keeps under the per-sender figures with a margin (docs/49-qwen.md "Pacing").
 */
export const QWEN_ADMISSION = {
  senderBurst: 30,
  senderRefillPerSecond: 0.5,
  allBurst: 32,
  allRefillPerSecond: 1,
  heldCap: 50,
  queuedCap: 50,
  duplicateWindowMs: 30_000,
} as const;

/**
 * Every `delivery_status` a receipt carries (0.24.4). Measured: `held` for a frame authenticated
 * with the record's `ipcToken` and no `fromMode` (the TUI shows "Held a message from another
 * session … /peers to review"); `delivered` for one authenticated with a controller token;
 * `misaddressed` for a `toSessionId` the session does not hold. The others are documented.
 */
export const QWEN_DELIVERY_STATUSES = [
  "held",
  "delivered",
  "denied",
  "refused",
  "expired",
  "misaddressed",
  "dropped",
] as const;

/** One of {@link QWEN_DELIVERY_STATUSES}. */
export type QwenDeliveryStatus = (typeof QWEN_DELIVERY_STATUSES)[number];

/**
 * A controller token (0.24.4): `qpc_` and 64 lowercase hex, minted by the person with
 * `qwen sessions controllers add --label <label>` (printed once; the Qwen home keeps only its
 * SHA-256 in `peer-controllers.json`, 0600). Presented on the auth line, a message is delivered
 * without review unless `agents.crossSessionInbound` is `hold` or `refuse`; sessions re-read the
 * grants on every connection.
 */
export const QWEN_CONTROLLER_TOKEN: RegExp = /^qpc_[0-9a-f]{64}$/;

/**
 * What an idle TUI does with a delivered frame (0.24.4): it starts a turn at once, with no prompt
 * from its user. The model's next request ends with a user message whose last text part is
 * `<cross_session_message from="<from>" name="<fromName>" origin="controller"
 * controller="<label>">\n<content>\n</cross_session_message>\n\n<session_authority …>…` with every
 * `<` of the content written `&lt;` (nothing else is changed: `>`, `&` and quotes stay). Each
 * delivered frame is a turn of its own, in arrival order.
 */
export const QWEN_CONTENT_ESCAPE = { from: "<", to: "&lt;" } as const;

/**
 * Qwen Code's own record of the conversation (0.24.4): `<runtime dir>/projects/<folder named after
 * the cwd: /tmp/x/proj → -tmp-x-proj>/chats/<sessionId>.jsonl`, one JSON object a line (Brigade
 * finds it by the session id under any project folder, never by re-deriving the name). A delivered
 * frame is one line with `type` "user", `subtype` "notification", and `message.parts[0].text`
 * the same envelope the model reads; it is written as the turn that carries it starts.
 */
export const QWEN_CHATS_FOLDER = "chats";

/**
 * Where hooks can come from (0.24.4, measured; groundwork for `brigade install qwen`): the
 * `hooks` member of `<qwen home>/settings.json`, and — not in the extension documentation, but run
 * all the same — `hooks/hooks.json` of an extension folder `<qwen home>/extensions/<name>/` that
 * holds a `qwen-extension.json` (`{"name","version"}`; its `mcpServers` are documented). Both use
 * `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"…"}]}]}}`. A command hook runs
 * as `sh -c <command>` whose parent is the `cli.js` process: the registry's `pid`.
 */
export const QWEN_EXTENSION_MANIFEST = "qwen-extension.json";

/**
 * The members of SessionStart's stdin document (0.24.4, measured): `session_id` (the registry's
 * `sessionId`), `transcript_path` (the conversation record, `QWEN_CHATS_FOLDER`), `cwd`,
 * `hook_event_name` ("SessionStart"), `timestamp`, `permission_mode` ("auto" in the tests' setup:
 * the TUI starts in its Auto mode), `source` ("startup"), `model`.
 */
export const QWEN_SESSION_START_MEMBERS = [
  "session_id",
  "transcript_path",
  "cwd",
  "hook_event_name",
  "timestamp",
  "permission_mode",
  "source",
  "model",
] as const;

/**
 * The repository `.env` files Qwen Code loads into its own environment, and so its hooks' and MCP
 * servers', relative to a folder (0.24.4, from its settings page: project `.qwen/.env` and `.env`;
 * `<qwen home>/.env` and `~/.env` are the person's own). `connectHostSession` refuses to connect
 * when one of them chooses Brigade's folders (docs/49-hosts.md "A repository's `.env`").
 */
export const QWEN_DOTENV_FILES: readonly string[] = [".qwen/.env", ".env"];

/**
 * What marks a process as started inside a Qwen Code session (0.24.4, measured in a hook's
 * environment): `QWEN_CODE_SESSION_ID` (the session id), beside `QWEN_CODE_CLI`,
 * `QWEN_CODE_STARTUP_VERSION` (the version) and `QWEN_CODE_MESSAGING_SOCKET` /
 * `QWEN_CODE_MESSAGING_TOKEN` (the session's own inbox and its child token: see docs/49-qwen.md
 * for why Brigade never presents that token).
 */
export const QWEN_SESSION_VARIABLE = "QWEN_CODE_SESSION_ID";

/**
 * Every variable naming Qwen Code that 0.24.4 sets for its model's shell commands (measured in
 * `run_shell_command`'s environment, the TUI under tmux). Any one of them could mark the session;
 * {@link QWEN_SESSION_VARIABLE} is the one checked, and a model can strip them all (`env -u`),
 * which is why `brigade send --as-me` also walks the process's ancestors.
 */
export const QWEN_COMMAND_VARIABLES: readonly string[] = Object.freeze([
  "QWEN_CODE",
  "QWEN_CODE_AGENT_ID",
  "QWEN_CODE_CLI",
  "QWEN_CODE_LAUNCHER_PID",
  "QWEN_CODE_MANAGED_NPM_PIN",
  "QWEN_CODE_MANAGED_NPM_ROOT",
  "QWEN_CODE_MESSAGING_SOCKET",
  "QWEN_CODE_MESSAGING_TOKEN",
  "QWEN_CODE_MODEL",
  "QWEN_CODE_MODEL_IDENTITY",
  "QWEN_CODE_NO_RELAUNCH",
  "QWEN_CODE_PRIVATE_RELAUNCH_ENV_PROVENANCE",
  "QWEN_CODE_PROJECT_DIR",
  "QWEN_CODE_PROMPT_ID",
  "QWEN_CODE_SESSION_ID",
  "QWEN_CODE_STARTUP_VERSION",
]);

/**
 * The push lane on the real client (0.24.4, pinned and the registry's newest on 2026-12-05,
 * `test/real-qwen-live.suite.ts`, the two-core machine at load 6 to 12): a teammate's `brigade
 * send` to an idle session reached the model's next request, with no prompt from its user, in
 * 2.1 to 4.1 s (the sender's CLI start, the server's stream, the lane's post, Qwen Code's turn);
 * the delivered message was in Qwen Code's record of the conversation (SessionStart's
 * `transcript_path`) before the lane's ack; a session started after `brigade qwen token` had its
 * messages `delivered` (shown "Message from a trusted controller (brigade)"), one without a token
 * had them `held` ("/peers to review"). A burst of 15 from one sender took about 82 s, the last five
 * a minute after the first ten (Brigade's own ten a minute per sender, not Qwen Code's limits).
 */
export const QWEN_PUSH_LANE_MEASURED = {
  version: "0.24.4",
  idleWakeSeconds: [2.1, 4.1],
  burstOf15Seconds: 82,
} as const;

/**
 * How Qwen Code's model reaches an MCP server's tool (0.24.4, measured in
 * `test/real-relay-chain.test.ts`): not offered by name; the request offers the deferred-tool
 * bridge instead. The model calls `search` with `select:<tool name>` (the answer is the tool's
 * schema), then `call` with `{name, arguments}`. A tool's name is `mcp__<server>__<tool>`
 * (`mcp__brigade__send`).
 */
export const QWEN_MCP_BRIDGE = {
  version: "0.24.4",
  search: "tool_search",
  call: "tool_call",
  toolPrefix: "mcp__",
} as const;

/**
 * The push lane's latency on the real client (0.24.4, `bench/real-client.bench.mjs`, the run of
 * 2026-12-05, docs/49-hosts.md "How long a push takes"): from the send call (24 sends, one at a
 * time, the session idle) to the Qwen Code model's next request holding the message, and to the ack
 * on the server, p50 and p99 in ms, on the two-core machine at load average 12 to 20 (busy with
 * other work: the figures hold at that load, not on a quiet machine).
 */
export const QWEN_PUSH_BENCH_MEASURED = {
  version: "0.24.4",
  sendToModelMs: { p50: 355, p99: 1101 },
  sendToAckedMs: { p50: 335, p99: 873 },
  loadAverage: [12, 20],
} as const;

/**
 * What tells Qwen Code's own process (0.24.4, measured under tmux): `node <…>/cli-entry.js` (the
 * `qwen` bin) starts `/usr/bin/node --expose-gc <…>/cli.js`, which starts one more such child; in
 * an npm install all of them run from `<…>/node_modules/@qwen-code/qwen-code/`, and a launch
 * through the `qwen` link is named by its script. It sets no process title on Linux. Each child
 * names `cli.js` by its real path, so a `qwen` linked to a folder elsewhere leaves only the first
 * process in that folder. The model's `run_shell_command` (0.24.4, the TUI under tmux) runs `bash
 * -c '<command>'` as a child of the innermost `cli.js`, with pipes on stdin and stdout (no
 * terminal) and {@link QWEN_COMMAND_VARIABLES} set: a model that strips them is refused
 * `as_me_under_agent` by `brigade send --as-me` (`test/real-qwen-door.suite.ts`).
 */
export const QWEN_PROCESS_SIGNATURE: ProcessSignature = Object.freeze({
  executables: Object.freeze(["qwen"]),
  folders: Object.freeze(["/node_modules/@qwen-code/qwen-code/"]),
});
