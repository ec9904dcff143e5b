import { brigadeVersion } from "../../local-files/index.ts";
import { type BrigadeCommand, installMarkerFile } from "../host-session/index.ts";

/** The extension's name: its folder under Gemini's extensions folder and its MCP server's name. */
export const GEMINI_EXTENSION_NAME = "brigade";

/** Each Gemini hook event Brigade hooks, its `brigade host-hook gemini` event and its cap, ms. */
const HOOKS: readonly (readonly [string, string, number])[] = [
  ["SessionStart", "session-start", 10_000],
  ["BeforeAgent", "turn", 8_000],
  ["AfterTool", "post-tool", 8_000],
  ["AfterAgent", "turn-end", 5_000],
  ["SessionEnd", "session-end", 5_000],
];

/**
 * `word` as one POSIX shell word: single-quoted, a `'` inside written `'\''`. Gemini runs a hook
 * command through the shell (`GEMINI_FACTS.hookParent`), so a path with a space or a `$` must
 * stay one argument and expand nothing.
 *
 * @example shellWord("/opt/my node/node") === "'/opt/my node/node'"
 */
export function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The extension Brigade installs into Gemini CLI (docs/49-hosts.md "Gemini CLI"): the file name
 * (relative to the extension folder) → its text. `gemini-extension.json` names the MCP server
 * `brigade` (`<node> <cli> mcp`, no shell, no env); `hooks/hooks.json` runs
 * `<node> <cli> host-hook gemini <event>` at SessionStart, BeforeAgent, AfterTool, AfterAgent and
 * SessionEnd,
 * each with its own timeout; the marker records the Brigade version that wrote it. Nothing secret
 * is in any of them: Gemini redacts environment names that look sensitive, and Brigade needs none.
 *
 * @example geminiExtensionFiles({ node: "/usr/bin/node", cli: "/w/brigade/dist/cli/main.js" })["hooks/hooks.json"]
 */
export function geminiExtensionFiles(command: BrigadeCommand): Record<string, string> {
  const run = (event: string): string =>
    [command.node, command.cli, "host-hook", "gemini", event].map(shellWord).join(" ");
  const hooks: Record<string, unknown> = {};
  for (const [geminiEvent, event, timeout] of HOOKS) {
    hooks[geminiEvent] = [
      {
        hooks: [{ type: "command", name: `brigade-${event}`, command: run(event), timeout }],
      },
    ];
  }
  const manifest = {
    name: GEMINI_EXTENSION_NAME,
    version: brigadeVersion(),
    description:
      "Brigade: messages between teammates' coding-agent sessions (inbox, send and who tools)",
    mcpServers: { brigade: { command: command.node, args: [command.cli, "mcp"] } },
  };
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  return {
    "gemini-extension.json": json(manifest),
    "hooks/hooks.json": json({ hooks }),
    ...installMarkerFile(),
  };
}

/** The first line of the policy file Brigade writes: how uninstall knows the file is ours. */
export const GEMINI_POLICY_MARK =
  "# Written by brigade install gemini; brigade uninstall gemini removes it.";

/**
 * Brigade's Gemini CLI policy file (`<home>/.gemini/policies/brigade.toml`, the user tier): the
 * read-only tools `inbox` and `who` of the `brigade` MCP server run without a confirmation, so a
 * headless `gemini -p` can read its messages (`GEMINI_FACTS.headlessAsk`). The rule names the tools
 * by their full names (`GEMINI_FACTS.policyToolNames`). `send` is left to
 * Gemini's own rule (the person confirms each one, and a headless run cannot send) unless the
 * person allows it in a policy of their own (docs/49-hosts.md). An extension's own policies
 * cannot allow anything, so this file is the person's, written on their command.
 *
 * @example geminiPolicyFile().startsWith(GEMINI_POLICY_MARK)
 */
export function geminiPolicyFile(): string {
  return [
    GEMINI_POLICY_MARK,
    "",
    "[[rule]]",
    'toolName = ["mcp_brigade_inbox", "mcp_brigade_who"]',
    'decision = "allow"',
    "priority = 100",
    "",
  ].join("\n");
}
