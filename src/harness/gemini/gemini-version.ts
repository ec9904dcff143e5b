import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** How many folders above Gemini's script its `package.json` is looked for. */
const PACKAGE_DEPTH = 4;

/**
 * The version of the Gemini CLI running as `pid`, from the `package.json` of
 * `@google/gemini-cli` above the script its command line names (`/proc/<pid>/cmdline`), or
 * `"unknown"` when it cannot be told (not Linux, another program, an unreadable file). Only
 * registered as the session's `harness_version`. Never throws.
 *
 * @example geminiVersionOf(hostPid) // "0.61.0"
 */
export function geminiVersionOf(pid: number): string {
  let args: string[];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return "unknown";
  }
  for (const arg of args.slice(1)) {
    if (!arg.startsWith("/")) continue;
    let dir = dirname(arg);
    for (let depth = 0; depth < PACKAGE_DEPTH; depth++) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
          name?: unknown;
          version?: unknown;
        };
        if (pkg.name === "@google/gemini-cli" && typeof pkg.version === "string") {
          return pkg.version;
        }
      } catch {
        // not here: one folder up
      }
      dir = dirname(dir);
    }
  }
  return "unknown";
}
