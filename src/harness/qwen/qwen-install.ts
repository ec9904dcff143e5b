import { rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import {
  type BrigadeCommand,
  type ClientInstallOutcome,
  folderOwnership,
  writeClientFiles,
} from "../host-session/index.ts";
import { QWEN_EXTENSION_NAME, qwenExtensionFiles } from "./qwen-extension.ts";

/**
 * Qwen Code's home: `$QWEN_HOME` when absolute (Qwen Code also takes a relative one, resolved
 * from its own folder, which a hook cannot know: refused here), else `<HOME>/.qwen`; `undefined`
 * when neither is absolute.
 *
 * @example qwenHome({ HOME: "/home/dana" }) === "/home/dana/.qwen"
 */
export function qwenHome(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const named = env.QWEN_HOME ?? "";
  if (named !== "") return isAbsolute(named) ? named : undefined;
  const home = env.HOME ?? "";
  return isAbsolute(home) ? join(home, ".qwen") : undefined;
}

/**
 * Qwen Code's extension folder for Brigade: `<qwen home>/extensions/brigade`.
 *
 * @example qwenExtensionDir({ HOME: "/home/dana" }) === "/home/dana/.qwen/extensions/brigade"
 */
export function qwenExtensionDir(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const home = qwenHome(env);
  return home === undefined ? undefined : join(home, "extensions", QWEN_EXTENSION_NAME);
}

/**
 * `brigade install qwen` (docs/49-qwen.md "Install"): writes Brigade's Qwen Code extension
 * (`qwenExtensionFiles`) into {@link qwenExtensionDir}, each file atomically (0644, folders 0755:
 * Qwen Code reads them, they hold no secret). A folder Brigade wrote before is brought up to date;
 * one it did not write (no marker) is refused, `extension_foreign`, and left as it is. Qwen Code
 * loads it at its next start. Nothing of Qwen Code's own settings is changed.
 *
 * @example installQwen(process.env, { node: process.execPath, cli: "/w/brigade/dist/cli/main.js" })
 */
export function installQwen(
  env: Readonly<Record<string, string | undefined>>,
  command: BrigadeCommand,
): ClientInstallOutcome {
  const dir = qwenExtensionDir(env);
  if (dir === undefined) {
    return {
      ok: false,
      code: "no_home",
      line: "HOME (or QWEN_HOME) is not an absolute folder: nothing written",
    };
  }
  if (folderOwnership(dir) === "foreign") {
    return {
      ok: false,
      code: "extension_foreign",
      line: `${dir} exists and was not written by Brigade: left as it is (remove it or rename it, then run this again)`,
    };
  }
  const failed = writeClientFiles(
    Object.entries(qwenExtensionFiles(command)).map(([name, text]) => [join(dir, name), text]),
  );
  if (failed !== undefined) return failed;
  return {
    ok: true,
    lines: [
      `Wrote Brigade's Qwen Code extension: ${dir}`,
      "  qwen-extension.json  the brigade MCP server (tools inbox, send, who)",
      "  hooks/hooks.json     SessionStart, UserPromptSubmit, Stop and SessionEnd hooks",
      "Qwen Code loads it at its next start, in a folder your team binds (.brigade.json).",
      "Undo: brigade uninstall qwen",
    ],
  };
}

/**
 * `brigade uninstall qwen`: removes {@link qwenExtensionDir} when Brigade wrote it (its marker is
 * there); an absent folder is already done; a folder Brigade did not write is left,
 * `extension_foreign`. Never touches anything else of Qwen Code's.
 *
 * @example uninstallQwen(process.env)
 */
export function uninstallQwen(
  env: Readonly<Record<string, string | undefined>>,
): ClientInstallOutcome {
  const dir = qwenExtensionDir(env);
  if (dir === undefined) {
    return {
      ok: false,
      code: "no_home",
      line: "HOME (or QWEN_HOME) is not an absolute folder: nothing removed",
    };
  }
  const owner = folderOwnership(dir);
  if (owner === "absent") {
    return {
      ok: true,
      lines: ["Brigade's Qwen Code extension is not installed: nothing to remove."],
    };
  }
  if (owner === "foreign") {
    return {
      ok: false,
      code: "extension_foreign",
      line: `${dir} was not written by Brigade: left as it is`,
    };
  }
  try {
    rmSync(dir, { recursive: true });
  } catch {
    return { ok: false, code: "write_failed", line: `${dir} cannot be removed` };
  }
  return { ok: true, lines: [`Removed Brigade's Qwen Code extension: ${dir}`] };
}
