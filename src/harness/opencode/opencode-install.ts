import { lstatSync, readFileSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import {
  type BrigadeCommand,
  type ClientInstallOutcome,
  writeClientFiles,
} from "../host-session/index.ts";
import { OPENCODE_CONFIG_FOLDER, OPENCODE_PLUGIN_FOLDER } from "./opencode-facts.ts";
import { isBrigadePlugin, OPENCODE_PLUGIN_FILE, openCodePluginText } from "./opencode-plugin.ts";

/** Largest file at the plugin's place that is read to tell whether it is Brigade's, bytes. */
const MAX_PLUGIN_BYTES = 262_144;

/**
 * OpenCode's global configuration folder: `$XDG_CONFIG_HOME/opencode` when that is absolute,
 * else `<HOME>/.config/opencode`; `undefined` when neither is absolute (`OPENCODE_CONFIG_FOLDER`).
 *
 * @example openCodeConfigDir({ HOME: "/home/lee" }) === "/home/lee/.config/opencode"
 */
export function openCodeConfigDir(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const xdg = env.XDG_CONFIG_HOME ?? "";
  if (xdg !== "" && isAbsolute(xdg)) return join(xdg, OPENCODE_CONFIG_FOLDER);
  const home = env.HOME ?? "";
  return isAbsolute(home) ? join(home, ".config", OPENCODE_CONFIG_FOLDER) : undefined;
}

/**
 * Where Brigade's plugin goes: `<OpenCode's configuration folder>/plugins/brigade.js`.
 *
 * @example openCodePluginPath({ HOME: "/home/lee" }) === "/home/lee/.config/opencode/plugins/brigade.js"
 */
export function openCodePluginPath(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const dir = openCodeConfigDir(env);
  return dir === undefined ? undefined : join(dir, OPENCODE_PLUGIN_FOLDER, OPENCODE_PLUGIN_FILE);
}

/** Whether the file at `path` is Brigade's plugin, absent, or someone else's. Never throws. */
function pluginOwnership(path: string): "ours" | "absent" | "foreign" {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > MAX_PLUGIN_BYTES) return "foreign";
  } catch {
    return "absent";
  }
  try {
    return isBrigadePlugin(readFileSync(path, "utf8")) ? "ours" : "foreign";
  } catch {
    return "foreign";
  }
}

/**
 * `brigade install opencode` (docs/49-opencode.md "Install"): writes Brigade's plugin
 * (`openCodePluginText`) to {@link openCodePluginPath}, atomically, 0644 (OpenCode reads it; it
 * holds no secret). A file Brigade wrote before is brought up to date; one it did not write (no
 * marker line) is refused, `extension_foreign`, and left as it is. Nothing else of OpenCode's is
 * touched: the MCP server is added by the plugin at OpenCode's start, not written into
 * `opencode.json`. OpenCode loads it at its next start.
 *
 * @example installOpenCode(process.env, { node: process.execPath, cli: "/w/brigade/dist/cli/main.js" })
 */
export function installOpenCode(
  env: Readonly<Record<string, string | undefined>>,
  command: BrigadeCommand,
): ClientInstallOutcome {
  const path = openCodePluginPath(env);
  if (path === undefined) {
    return {
      ok: false,
      code: "no_home",
      line: "HOME (or XDG_CONFIG_HOME) is not an absolute folder: nothing written",
    };
  }
  if (pluginOwnership(path) === "foreign") {
    return {
      ok: false,
      code: "extension_foreign",
      line: `${path} exists and was not written by Brigade: left as it is (remove it or rename it, then run this again)`,
    };
  }
  const failed = writeClientFiles([[path, openCodePluginText(command)]]);
  if (failed !== undefined) return failed;
  return {
    ok: true,
    lines: [
      `Wrote Brigade's OpenCode plugin: ${path}`,
      "  it adds the brigade MCP server (tools inbox, send, who) and binds each session at its first message",
      "OpenCode loads it at its next start, in a folder your team binds (.brigade.json).",
      "Live delivery into a session needs a TUI started with --port (or opencode serve); without one the session reads messages with the inbox tool.",
      "Undo: brigade uninstall opencode",
    ],
  };
}

/**
 * `brigade uninstall opencode`: removes {@link openCodePluginPath} when Brigade wrote it; an
 * absent file is already done; a file Brigade did not write is left, `extension_foreign`. Never
 * touches anything else of OpenCode's.
 *
 * @example uninstallOpenCode(process.env)
 */
export function uninstallOpenCode(
  env: Readonly<Record<string, string | undefined>>,
): ClientInstallOutcome {
  const path = openCodePluginPath(env);
  if (path === undefined) {
    return {
      ok: false,
      code: "no_home",
      line: "HOME (or XDG_CONFIG_HOME) is not an absolute folder: nothing removed",
    };
  }
  const owner = pluginOwnership(path);
  if (owner === "absent") {
    return { ok: true, lines: ["Brigade's OpenCode plugin is not installed: nothing to remove."] };
  }
  if (owner === "foreign") {
    return {
      ok: false,
      code: "extension_foreign",
      line: `${path} was not written by Brigade: left as it is`,
    };
  }
  try {
    rmSync(path);
  } catch {
    return { ok: false, code: "write_failed", line: `${path} cannot be removed` };
  }
  return { ok: true, lines: [`Removed Brigade's OpenCode plugin: ${path}`] };
}
