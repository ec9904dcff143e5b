import { lstatSync, readFileSync, rmSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import {
  type BrigadeCommand,
  type ClientInstallOutcome,
  folderOwnership,
  writeClientFiles,
} from "../host-session/index.ts";
import {
  GEMINI_EXTENSION_NAME,
  GEMINI_POLICY_MARK,
  geminiExtensionFiles,
  geminiPolicyFile,
} from "./gemini-extension.ts";
import { GEMINI_FACTS } from "./gemini-facts.ts";

/**
 * Gemini CLI's extension folder for Brigade: `<GEMINI_CLI_HOME or HOME>/.gemini/extensions/brigade`
 * (`GEMINI_FACTS.extensionsFolder`), or `undefined` when neither is absolute.
 *
 * @example geminiExtensionDir({ HOME: "/home/dana" }) === "/home/dana/.gemini/extensions/brigade"
 */
export function geminiExtensionDir(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const home = env.GEMINI_CLI_HOME || env.HOME || "";
  if (!isAbsolute(home)) return undefined;
  return join(home, GEMINI_FACTS.extensionsFolder, GEMINI_EXTENSION_NAME);
}

/**
 * Brigade's policy file beside the extension: `<home>/.gemini/policies/brigade.toml`.
 *
 * @example geminiPolicyPath("/home/dana/.gemini/extensions/brigade") === "/home/dana/.gemini/policies/brigade.toml"
 */
export function geminiPolicyPath(extensionDir: string): string {
  return join(dirname(dirname(extensionDir)), "policies", "brigade.toml");
}

/** Whether the file at `path` is Brigade's policy file (its first line is our mark), absent, or someone else's. */
function policyOwnership(path: string): "ours" | "absent" | "foreign" {
  let text: string;
  try {
    if (!lstatSync(path).isFile()) return "foreign";
    text = readFileSync(path, "utf8");
  } catch {
    return "absent";
  }
  return text.startsWith(`${GEMINI_POLICY_MARK}\n`) ? "ours" : "foreign";
}

/**
 * `brigade install gemini` (docs/49-hosts.md): writes Brigade's Gemini CLI extension
 * (`geminiExtensionFiles`) into {@link geminiExtensionDir}, each file atomically (0644, the
 * folders 0755: Gemini reads them, they hold no secret). A folder Brigade wrote before is brought
 * up to date; one it did not write (no marker) is refused, `extension_foreign`, and left as it is.
 * Gemini loads the extension at its next start.
 *
 * @example installGemini(process.env, { node: process.execPath, cli: "/w/brigade/dist/cli/main.js" })
 */
export function installGemini(
  env: Readonly<Record<string, string | undefined>>,
  command: BrigadeCommand,
): ClientInstallOutcome {
  const dir = geminiExtensionDir(env);
  if (dir === undefined) {
    return { ok: false, code: "no_home", line: "HOME is not an absolute folder: nothing written" };
  }
  if (folderOwnership(dir) === "foreign") {
    return {
      ok: false,
      code: "extension_foreign",
      line: `${dir} exists and was not written by Brigade: left as it is (remove it or rename it, then run this again)`,
    };
  }
  const policy = geminiPolicyPath(dir);
  if (policyOwnership(policy) === "foreign") {
    return {
      ok: false,
      code: "extension_foreign",
      line: `${policy} exists and was not written by Brigade: left as it is (rename it, then run this again)`,
    };
  }
  const files = Object.entries(geminiExtensionFiles(command)).map(
    ([name, text]) => [join(dir, name), text] as const,
  );
  files.push([policy, geminiPolicyFile()]);
  const failed = writeClientFiles(files);
  if (failed !== undefined) return failed;
  return {
    ok: true,
    lines: [
      `Wrote Brigade's Gemini CLI extension: ${dir}`,
      "  gemini-extension.json  the brigade MCP server (tools inbox, send, who)",
      "  hooks/hooks.json       SessionStart, BeforeAgent, AfterTool, AfterAgent and SessionEnd hooks",
      `Wrote ${policy}: the read-only tools inbox and who run without a confirmation (send asks)`,
      "Gemini CLI loads it at its next start, in a folder your team binds (.brigade.json).",
      "Undo: brigade uninstall gemini",
    ],
  };
}

/**
 * `brigade uninstall gemini`: removes {@link geminiExtensionDir} when Brigade wrote it (its marker
 * is there); an absent folder is already done; a folder Brigade did not write is left,
 * `extension_foreign`. Never touches anything else of Gemini's.
 *
 * @example uninstallGemini(process.env)
 */
export function uninstallGemini(
  env: Readonly<Record<string, string | undefined>>,
): ClientInstallOutcome {
  const dir = geminiExtensionDir(env);
  if (dir === undefined) {
    return { ok: false, code: "no_home", line: "HOME is not an absolute folder: nothing removed" };
  }
  const owner = folderOwnership(dir);
  if (owner === "absent") {
    return {
      ok: true,
      lines: ["Brigade's Gemini CLI extension is not installed: nothing to remove."],
    };
  }
  if (owner === "foreign") {
    return {
      ok: false,
      code: "extension_foreign",
      line: `${dir} was not written by Brigade: left as it is`,
    };
  }
  const policy = geminiPolicyPath(dir);
  const lines: string[] = [];
  try {
    rmSync(dir, { recursive: true });
    lines.push(`Removed Brigade's Gemini CLI extension: ${dir}`);
    if (policyOwnership(policy) === "ours") {
      rmSync(policy);
      lines.push(`Removed ${policy}`);
    }
  } catch {
    return { ok: false, code: "write_failed", line: `${dir} cannot be removed` };
  }
  return { ok: true, lines };
}
