import { lstatSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { brigadeVersion, writeFileAtomic } from "../../local-files/index.ts";
import type { ClientInstallOutcome } from "./host-client.ts";

/** The file in a folder Brigade wrote for a client that says Brigade wrote it. */
export const INSTALL_MARKER = ".brigade-install.json";

/**
 * The marker file of a folder Brigade writes for a client, as a file name → text entry: it says
 * Brigade wrote the folder, and which Brigade (`{brigade_install: 1, brigade_version}`).
 *
 * @example Object.keys(installMarkerFile()) // [".brigade-install.json"]
 */
export function installMarkerFile(): Record<string, string> {
  const text = `${JSON.stringify({ brigade_install: 1, brigade_version: brigadeVersion() }, null, 2)}\n`;
  return { [INSTALL_MARKER]: text };
}

/**
 * Whether `dir` is a folder Brigade wrote (it holds {@link INSTALL_MARKER} with
 * `brigade_install: 1`), absent, or someone else's (a link, a file, a folder without our marker).
 * Never throws.
 *
 * @example folderOwnership("/home/dana/.gemini/extensions/brigade") // "ours"
 */
export function folderOwnership(dir: string): "ours" | "absent" | "foreign" {
  try {
    if (!lstatSync(dir).isDirectory()) return "foreign";
  } catch {
    return "absent";
  }
  try {
    const marker = JSON.parse(readFileSync(join(dir, INSTALL_MARKER), "utf8")) as unknown;
    const ours =
      typeof marker === "object" &&
      marker !== null &&
      (marker as { brigade_install?: unknown }).brigade_install === 1;
    return ours ? "ours" : "foreign";
  } catch {
    return "foreign";
  }
}

/**
 * Writes each `[path, text]` (absolute paths) atomically, 0644 in folders made 0755: a client
 * reads these files, and none holds a secret. Stops at the first failure (`write_failed`, naming
 * the path); what was written before it stays, and the next install writes it again. `undefined`
 * when every file was written. Never throws.
 *
 * @example writeClientFiles([[join(dir, "hooks/hooks.json"), text]]) === undefined
 */
export function writeClientFiles(
  files: readonly (readonly [string, string])[],
): Extract<ClientInstallOutcome, { ok: false }> | undefined {
  for (const [path, text] of files) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    } catch {
      return { ok: false, code: "write_failed", line: `${dirname(path)} cannot be created` };
    }
    const written = writeFileAtomic(path, text, { mode: 0o644 });
    if (!written.ok) {
      return {
        ok: false,
        code: "write_failed",
        line: `${path} cannot be written (${written.reason})`,
      };
    }
  }
  return undefined;
}
