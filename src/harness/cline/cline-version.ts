import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLINE_PACKAGE } from "./cline-facts.ts";

/** A version as npm writes it: digits and dots, an optional pre-release tail. */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/**
 * The version of the Cline CLI running as `pid`: the script Node runs (`/proc/<pid>/cmdline`'s
 * second argument, links resolved: `…/node_modules/cline/dist/cli.mjs`) → the `version` of the
 * `package.json` named `cline` one folder above its folder (`CLINE_PACKAGE`). Cline's hook stdin
 * names its core's version (`clineVersion` "3.82.0" under CLI 2.18.0), not the CLI's. `"unknown"`
 * when it cannot be told (not Linux, another program, an unreadable file). Only registered as the
 * session's `harness_version`. Never throws.
 *
 * @example clineVersionOf(hostPid) // "2.18.0"
 */
export function clineVersionOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const script = realpathSync(args[1] ?? "");
    const text = readFileSync(join(dirname(dirname(script)), "package.json"), "utf8");
    const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
    if (pkg.name !== CLINE_PACKAGE) return "unknown";
    return typeof pkg.version === "string" && VERSION.test(pkg.version) ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
}
