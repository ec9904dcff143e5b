import type { ProcessSignature } from "../host-session/process-signature.ts";

/**
 * What the Cline CLI (npm `cline`) does, each fact with the version it was measured on
 * (docs/49-cline.md "What Cline does"). Measured by running the real CLI headless (`cline task
 * --json -y`) against a loopback fake of its OpenAI-compatible chat completions API, never taken
 * from memory. The real-client suite (`test/real-cline.suite.ts`) runs the pinned version against
 * these. When a newer Cline differs, the difference goes here, behind the same names.
 */

/** The Cline CLI versions the pull lane was verified on (`cline --version` prints the bare version). */
export const CLINE_VERIFIED: readonly string[] = ["2.18.0"];

/**
 * The package (2.18.0): `cline`, bin `cline` → `dist/cli.mjs` (one bundled ES module, 27 MB),
 * 118 packages installed (174 MB), `engines.node >=20`; `cline --version` prints `2.18.0`. The
 * hooks' stdin and the MCP client name the core inside it, `clineVersion` / `clientInfo.version`
 * "3.82.0", not the CLI's version. 3.0.x (3.0.57–3.0.65) is another program: a Bun-compiled
 * binary from `@cline/cli-linux-x64` (151 MB) behind a Node resolver, `engines.node >=22`, with a
 * hub daemon, sessions instead of tasks and other hook event names (docs/49-cline.md "Cline 3").
 */
export const CLINE_PACKAGE = "cline";

/**
 * At every start (2.18.0) Cline compares itself with the registry's `latest` and, when older,
 * runs `npm install -g cline@<latest>` through a detached shell in the background; only
 * `CLINE_NO_AUTO_UPDATE=1` stops it (a test must set it, or it changes the machine's global
 * packages).
 */
export const CLINE_NO_AUTO_UPDATE_VARIABLE = "CLINE_NO_AUTO_UPDATE";

/**
 * Cline's folder (2.18.0): `--config <dir>`, else `$CLINE_DIR`, else `~/.cline`. Its state is in
 * `<dir>/data/` (`globalState.json`, `secrets.json` holding the API key, `tasks/<task id>/`).
 */
export const CLINE_DIR_VARIABLE = "CLINE_DIR";

/**
 * The MCP settings (2.18.0): `<cline dir>/data/settings/cline_mcp_settings.json`, a JSON object
 * `{"mcpServers": {<name>: {command, args, env?, type: "stdio", autoApprove?, disabled?,
 * timeout?}}}` written by Cline with `JSON.stringify(…, null, 2)` and no final newline (Cline
 * creates it as `{"mcpServers": {}}` at its first start; `cline mcp add <name> -- <cmd> <args…>`
 * adds an entry). A stdio server gets **only** `HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`
 * of Cline's environment plus the entry's `env` (measured: `XDG_*` and `CLINE_*` are not passed),
 * and its parent is the Cline process.
 */
export const CLINE_MCP_SETTINGS_FILE = ["data", "settings", "cline_mcp_settings.json"] as const;

/**
 * How the model calls an MCP tool (2.18.0, provider `openai`): no native tools; the assistant
 * text holds `<use_mcp_tool>\n<server_name>brigade</server_name>\n<tool_name>inbox</tool_name>\n
 * <arguments>\n{}\n</arguments>\n</use_mcp_tool>`. The result reaches the model as a user text part
 * `[use_mcp_tool for 'brigade'] Result:\n<the tool's text>`, byte for byte. `tools/call` carries no
 * `_meta` and no task id: `brigade mcp` binds through the by-pid map of the Cline process. An MCP
 * tool runs without asking when the entry's `autoApprove` names it, or under `-y` (yolo).
 */
export const CLINE_MCP_TOOL = "use_mcp_tool";

/**
 * The hook events (2.18.0): `TaskStart`, `TaskResume`, `TaskCancel`, `TaskComplete`,
 * `PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `Notification`, `PreCompact`. A hook is an
 * executable file named exactly as its event (no extension), run as `/bin/sh -c '<path>'` whose
 * parent is the Cline process, in the task's folder, with Cline's whole environment, killed after
 * 30 s (its hook runner's default; no setting for it was found). Hooks are on by default
 * (`hooksEnabled` true). A headless task runs `TaskStart`, `UserPromptSubmit`, the tool
 * hooks, `TaskComplete` at `attempt_completion`, and `TaskCancel` as the process ends.
 */
export const CLINE_HOOK_EVENTS = [
  "TaskStart",
  "TaskResume",
  "TaskCancel",
  "TaskComplete",
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Notification",
  "PreCompact",
] as const;

/** One of {@link CLINE_HOOK_EVENTS}. */
export type ClineHookEvent = (typeof CLINE_HOOK_EVENTS)[number];

/**
 * Where Cline looks for hook files (2.18.0), all of them run: the `--hooks-dir <path>` folder,
 * the global folder `<documents>/Cline/Hooks`, and `<workspace root>/.clinerules/hooks`.
 * `<documents>` is on Linux what `xdg-user-dir DOCUMENTS` prints when that program is on the PATH
 * (it prints `$HOME` without a `user-dirs.dirs`: measured, the folder is then `~/Cline/Hooks`),
 * else `~/Documents`. Cline makes the global folder (and `Rules`, `Workflows` beside it) at its
 * start.
 */
export const CLINE_GLOBAL_HOOKS_FOLDER = ["Cline", "Hooks"] as const;

/**
 * A hook's stdin (2.18.0), one JSON object: `clineVersion` ("3.82.0"), `hookName` (the event),
 * `timestamp` (epoch ms as a string), `taskId` (the task, e.g. "1796439278937": the id
 * `cline -T <id>` resumes and `tasks/<id>/` is named for), `workspaceRoots` (absolute folders,
 * the task's folder first), `userId`, `model` `{provider, slug}`, and one member per event:
 * `taskStart.taskMetadata` `{taskId, ulid, initialTask}`, `userPromptSubmit.prompt`,
 * `preToolUse` / `postToolUse` `{toolName, parameters, result?, success?, executionTimeMs?}`
 * (an MCP tool: `toolName` "use_mcp_tool", `parameters` `{server_name, tool_name, arguments}`),
 * `taskComplete.taskMetadata` `{taskId, ulid, result, command}`, `taskCancel.taskMetadata`
 * `{taskId, ulid, completionStatus}`.
 */
export const CLINE_HOOK_INPUT_MEMBERS = ["taskId", "workspaceRoots", "postToolUse"] as const;

/**
 * A hook's stdout (2.18.0): one JSON object `{"cancel": false, "contextModification": "…",
 * "errorMessage": ""}`. A non-empty `contextModification` reaches the model in the next request
 * as its own user text part `<hook_context source="<event>">\n<text>\n</hook_context>` (after a
 * tool: `<hook_context source="PostToolUse" type="general">`), **not escaped** (`<`, `>`, `&` are
 * written as given); the person sees it in the task's output as the hook's output.
 */
export const CLINE_HOOK_CONTEXT = "contextModification";

/**
 * What a command the model runs gets in its environment (2.18.0), besides Cline's own: `TERM`
 * "xterm-256color", `PAGER`, `GIT_PAGER`, `MANPAGER` "cat", `SYSTEMD_PAGER` "" and `EDITOR`
 * ("cat" unless set). Cline sets no variable of its own there: this set is how a model's shell
 * is told from the person's terminal.
 */
export const CLINE_COMMAND_ENV: Readonly<Record<string, string>> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  MANPAGER: "cat",
  SYSTEMD_PAGER: "",
};

/**
 * Cline 3 (measured on 3.0.65, the registry's `latest`; 3.0.57–3.0.65 are listed): another
 * program. `bin/cline` is a Node resolver that runs a Bun-compiled binary of
 * `@cline/cli-linux-x64` (151 MB; 338 packages, 435 MB installed; `engines.node >=22`, runs on 20).
 * A session runs in a **hub daemon** (`cline --cline-hub-daemon …`, parent pid 1, kept between
 * runs and shared by every session of the person): hooks and MCP servers are the hub's children,
 * and `tools/call` carries no `_meta`, so no process and no call names the calling session. Hook
 * files are read from `~/Documents/Cline/Hooks` (no `xdg-user-dir`) and `<cline dir>/hooks`; the
 * stdin keeps `taskId` (`conv_<ms>_<id>`) and `workspaceRoots` but `hookName` is `agent_start`,
 * `tool_result`, `agent_end`… (`CLINE_3_HOOK_NAMES`) and `clineVersion` is empty; a TaskStart
 * context does not reach the model; tools are native (`brigade__inbox`) and an MCP result reaches
 * the model as the JSON of the MCP result, not its text. The pull lane does not bind Cline 3.
 */
export const CLINE_3_HOOK_NAMES: readonly string[] = [
  "agent_start",
  "agent_resume",
  "agent_abort",
  "agent_end",
  "agent_error",
  "tool_call",
  "tool_result",
  "prompt_submit",
  "pre_compact",
  "session_shutdown",
];

/** Cline loads no `.env` file into its hooks' or MCP servers' environment (2.18.0: its bundle has no `.env` loader). */
export const CLINE_DOTENV_FILES: readonly string[] = [];

/**
 * What tells the Cline CLI's own process (2.18.0, measured under tmux): `node
 * <…>/node_modules/cline/dist/cli.mjs` (the `cline` bin's real path), or `node <…>/bin/cline`
 * through its link; comm `node`. The model's `execute_command` (2.18.0, headless `cline task
 * --json -y`) runs `/bin/bash -l -c '<command>'` as a direct child of that process, with pipes on
 * stdin and stdout (no terminal) and {@link CLINE_COMMAND_ENV}'s pager settings as its only marks:
 * a model that strips them is refused `as_me_under_agent` by `brigade send --as-me`
 * (`test/real-cline.suite.ts`).
 */
export const CLINE_PROCESS_SIGNATURE: ProcessSignature = Object.freeze({
  executables: Object.freeze(["cline"]),
  folders: Object.freeze(["/node_modules/cline/"]),
});
