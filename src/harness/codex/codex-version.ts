import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { CODEX_PACKAGE_FILE } from "./codex-facts.ts";

/** A version as Codex writes it: digits and dots, an optional pre-release tail. */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/**
 * The version of the Codex running as `pid`: the `version` of the `codex-package.json` beside
 * the executable's `bin/` folder (`CODEX_PACKAGE_FILE`, found through `/proc/<pid>/exe`), or
 * `"unknown"` when it cannot be told (not Linux, another program, an unreadable file). Only
 * registered as the session's `harness_version`. Never throws.
 *
 * @example codexVersionOf(hostPid) // "0.171.0"
 */
export function codexVersionOf(pid: number): string {
  try {
    const exe = realpathSync(`/proc/${pid}/exe`);
    const text = readFileSync(join(dirname(dirname(exe)), CODEX_PACKAGE_FILE), "utf8");
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === "string" && VERSION.test(version) ? version : "unknown";
  } catch {
    return "unknown";
  }
}
