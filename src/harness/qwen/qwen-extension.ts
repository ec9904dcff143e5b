import { brigadeVersion } from "../../local-files/index.ts";
import { type BrigadeCommand, installMarkerFile } from "../host-session/index.ts";
import { QWEN_EXTENSION_MANIFEST } from "./qwen-facts.ts";

/** The extension's name: its folder under Qwen Code's extensions folder and its MCP server's name. */
export const QWEN_EXTENSION_NAME = "brigade";

/** Each Qwen Code hook event Brigade hooks, its `brigade host-hook qwen` event and its cap, s. */
const HOOKS: readonly (readonly [string, string, number])[] = [
  ["SessionStart", "session-start", 10],
  ["UserPromptSubmit", "turn", 8],
  ["Stop", "turn-end", 5],
  ["SessionEnd", "session-end", 5],
];

/**
 * `word` as one POSIX shell word: single-quoted, a `'` inside written `'\''`. Qwen Code runs a
 * command hook through `sh -c` (`QWEN_EXTENSION_MANIFEST`), so a path with a space or a `$` must
 * stay one argument and expand nothing.
 *
 * @example shellWord("/opt/my node/node") === "'/opt/my node/node'"
 */
export function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The extension Brigade installs into Qwen Code (docs/49-qwen.md "Install"): the file name
 * (relative to the extension folder) → its text. `qwen-extension.json` names the MCP server
 * `brigade` (`<node> <cli> mcp`, no shell, no env); `hooks/hooks.json` runs
 * `<node> <cli> host-hook qwen <event>` at SessionStart, UserPromptSubmit, Stop and SessionEnd,
 * each with its timeout in seconds (Qwen Code reads a command hook's `timeout` in seconds); the
 * marker records the Brigade version that wrote it. Nothing secret is in any of them.
 *
 * @example qwenExtensionFiles({ node: "/usr/bin/node", cli: "/w/brigade/dist/cli/main.js" })["hooks/hooks.json"]
 */
export function qwenExtensionFiles(command: BrigadeCommand): Record<string, string> {
  const run = (event: string): string =>
    [command.node, command.cli, "host-hook", "qwen", event].map(shellWord).join(" ");
  const hooks: Record<string, unknown> = {};
  for (const [qwenEvent, event, timeout] of HOOKS) {
    hooks[qwenEvent] = [
      { hooks: [{ type: "command", name: `brigade-${event}`, command: run(event), timeout }] },
    ];
  }
  const manifest = {
    name: QWEN_EXTENSION_NAME,
    version: brigadeVersion(),
    description:
      "Brigade: messages between teammates' coding-agent sessions (inbox, send and who tools)",
    mcpServers: { brigade: { command: command.node, args: [command.cli, "mcp"] } },
  };
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  return {
    [QWEN_EXTENSION_MANIFEST]: json(manifest),
    "hooks/hooks.json": json({ hooks }),
    ...installMarkerFile(),
  };
}
