import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";

/** How many folders above the CLI's entry script its checkout may be (`bin/`, `dist/cli/`, `plugin/bin/`). */
const LEVELS_UP = 3;

/**
 * Characters a path may hold to be printed as it is, both on a shell line and after a slash
 * command: anything else (a space, a quote, a control character) would need quoting rules the
 * reader cannot check at a glance.
 */
const PLAIN_PATH = /^[A-Za-z0-9_./+@%=:,-]+$/;

/**
 * The Brigade checkout this CLI runs from, found from the real path of its entry script
 * (`<checkout>/bin/brigade`, `<checkout>/dist/cli/main.js`, `<checkout>/plugin/bin/brigade`, …):
 * the nearest folder at most three levels above it whose `package.json` names `brigade` and that
 * holds the plugin (`plugin/.claude-plugin/plugin.json`) and the marketplace that lists it
 * (`.claude-plugin/marketplace.json`). `undefined` when there is none (a
 * plugin copy in Claude Code's cache has no `package.json`), when `entryScript` is not absolute,
 * or when the checkout's path holds anything but plain path characters. Never throws.
 *
 * @example checkoutOf("/home/dana/src/brigade/bin/brigade") // "/home/dana/src/brigade"
 */
export function checkoutOf(entryScript: string): string | undefined {
  if (!isAbsolute(entryScript)) return undefined;
  let folder = dirname(entryScript);
  for (let level = 0; level < LEVELS_UP; level++) {
    if (isCheckout(folder)) return PLAIN_PATH.test(folder) ? folder : undefined;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
  return undefined;
}

function isCheckout(folder: string): boolean {
  try {
    if (!existsSync(join(folder, "plugin", ".claude-plugin", "plugin.json"))) return false;
    if (!existsSync(join(folder, ".claude-plugin", "marketplace.json"))) return false;
    const manifest: unknown = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
    return typeof manifest === "object" && manifest !== null && "name" in manifest
      ? manifest.name === "brigade"
      : false;
  } catch {
    return false;
  }
}

/**
 * `brigade doctor`'s fix for a plugin that is not installed: with the checkout this CLI runs from
 * (`checkoutOf`), the commands filled in — `claude --plugin-dir <checkout>/plugin` for one
 * session, or the checkout as a local marketplace (docs/45-plugin.md) to install it for every
 * session; without one, the `--plugin-dir` form naming where the folder is.
 *
 * @example pluginInstallFix("/home/dana/src/brigade") // "start Claude Code with claude --plugin-dir /home/dana/src/brigade/plugin, …"
 */
export function pluginInstallFix(checkout: string | undefined): string {
  if (checkout === undefined) {
    return "start Claude Code with claude --plugin-dir <your Brigade checkout>/plugin, or install it from that checkout (docs/45-plugin.md)";
  }
  return `start Claude Code with claude --plugin-dir ${join(checkout, "plugin")}, or install it for every session: in Claude Code, /plugin marketplace add ${checkout}, then /plugin install brigade@brigade`;
}
