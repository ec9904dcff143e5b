import { isWellFormed } from "../../formats/text/index.ts";
import type { BrigadeCommand } from "../host-session/index.ts";
import {
  CODEX_HOOK_EVENTS,
  CODEX_MCP_APPROVE_MODE,
  CODEX_MCP_FORWARDED_VARIABLES,
  CODEX_MCP_REQUIRED,
  CODEX_MCP_STARTUP_TIMEOUT_S,
  type CodexHookEvent,
} from "./codex-facts.ts";
import type { TomlDefinition } from "./toml-key-scan.ts";

/** The MCP server's name in Codex's configuration, and so its tools' namespace `mcp__brigade`. */
export const CODEX_SERVER_NAME = "brigade";

/**
 * The first line of Brigade's block in `config.toml`. There is no last-line marker: Codex's own
 * writes of the file (the trust `/hooks` records) move a comment that ends the file below what
 * they append, so the block ends with its last table's last line.
 */
export const CODEX_BLOCK_BEGIN =
  "# Brigade: [mcp_servers.brigade] and five [[hooks.…]] groups down to SessionEnd's (brigade install codex; brigade uninstall codex takes them out)";

/** The `brigade host-hook codex <event>` word of each Codex event Brigade hooks, and its timeout (s). */
export const CODEX_HOOKS: Readonly<
  Record<CodexHookEvent, { readonly event: string; readonly timeoutS: number }>
> = {
  // Registering may make three server calls of up to 4 s each.
  SessionStart: { event: "session-start", timeoutS: 30 },
  UserPromptSubmit: { event: "turn", timeoutS: 10 },
  PostToolUse: { event: "post-tool", timeoutS: 10 },
  Stop: { event: "turn-end", timeoutS: 10 },
  SessionEnd: { event: "session-end", timeoutS: 10 },
};

/**
 * A TOML basic string of `value`. JSON's string form is one (both escape `"`, `\` and control
 * characters, `\uXXXX` for the rest of them).
 *
 * @throws TypeError when `value` holds a lone surrogate (no TOML string can carry it).
 */
function tomlString(value: string): string {
  if (!isWellFormed(value)) throw new TypeError("a TOML string must be well-formed UTF-16");
  return JSON.stringify(value);
}

/** `value` as one word of a POSIX shell command: single-quoted, each `'` written `'\''`. */
export function shellWord(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * Brigade's block for Codex's `config.toml` (docs/49-codex.md), exactly these lines, each ending
 * in `\n`: {@link CODEX_BLOCK_BEGIN}; the MCP server `[mcp_servers.brigade]` started as
 * `<node> <cli> mcp`, its tools approved (`default_tools_approval_mode = "approve"`: `codex exec`
 * refuses a tool that needs an approval, and none of the three changes anything of the person's)
 * `startup_timeout_sec` raised to 30 and `required = true` (Codex waits for the server before a turn, so a slow start never costs a turn its tools) and `XDG_STATE_HOME` passed to it (`env_vars`: Codex passes MCP servers only a few variables);
 * one `[[hooks.<Event>]]` group per event of {@link CODEX_HOOK_EVENTS} running
 * `'<node>' '<cli>' host-hook codex <event>` with its timeout. Array-of-
 * tables groups append to any the person has, so their hooks keep their places (and Codex's trust
 * of them).
 *
 * @throws TypeError when a path holds a lone surrogate.
 * @example codexBlock({ node: "/usr/bin/node", cli: "/w/brigade/dist/cli/main.js" }).startsWith(CODEX_BLOCK_BEGIN)
 */
export function codexBlock(command: BrigadeCommand): string {
  const lines = [
    CODEX_BLOCK_BEGIN,
    `[mcp_servers.${CODEX_SERVER_NAME}]`,
    `command = ${tomlString(command.node)}`,
    `args = [${tomlString(command.cli)}, "mcp"]`,
    `default_tools_approval_mode = ${tomlString(CODEX_MCP_APPROVE_MODE)}`,
    `startup_timeout_sec = ${CODEX_MCP_STARTUP_TIMEOUT_S}`,
    `required = ${CODEX_MCP_REQUIRED}`,
    `env_vars = [${CODEX_MCP_FORWARDED_VARIABLES.map(tomlString).join(", ")}]`,
  ];
  for (const name of CODEX_HOOK_EVENTS) {
    const { event, timeoutS } = CODEX_HOOKS[name];
    const run = [command.node, command.cli].map(shellWord).join(" ");
    lines.push(
      "",
      `[[hooks.${name}]]`,
      `[[hooks.${name}.hooks]]`,
      'type = "command"',
      `command = ${tomlString(`${run} host-hook codex ${event}`)}`,
      `timeout = ${timeoutS}`,
    );
  }
  return `${lines.map((line) => `${line}\n`).join("")}`;
}

/** Why a `config.toml` cannot take Brigade's block (docs/errors.md `CODEX_CONFIG_REFUSALS`). */
export type CodexClash = "server_present" | "tables_inline";

const startsWith = (path: readonly string[], prefix: readonly string[]): boolean =>
  prefix.length <= path.length && prefix.every((part, i) => path[i] === part);

/**
 * Whether appending Brigade's block to a document defining `definitions` would clash:
 * `server_present` when anything defines `mcp_servers.brigade` (the person's own entry, or
 * Brigade's block already there); `tables_inline` when a table the block adds to is written as a
 * value (`mcp_servers = {…}`, `hooks = {…}`, `SessionStart = […]` under `[hooks]`) or a hooked
 * event is a plain table (`[hooks.SessionStart]`): the block's `[mcp_servers.brigade]` and
 * `[[hooks.<Event>]]` could not extend them. `undefined` when it can. Pure.
 *
 * @example codexClash([{ kind: "table", path: ["mcp_servers", "brigade"] }]) === "server_present"
 */
export function codexClash(definitions: readonly TomlDefinition[]): CodexClash | undefined {
  const server = ["mcp_servers", CODEX_SERVER_NAME];
  for (const { kind, path } of definitions) {
    if (startsWith(path, server)) return "server_present";
    if (kind === "key" && startsWith(server, path)) return "tables_inline";
    if (path[0] !== "hooks" || path.length > 2) continue;
    if (path.length === 1) {
      if (kind === "key") return "tables_inline";
      continue;
    }
    const hooked = (CODEX_HOOK_EVENTS as readonly string[]).includes(path[1] ?? "");
    if (hooked && kind !== "array_table") return "tables_inline";
  }
  return undefined;
}
