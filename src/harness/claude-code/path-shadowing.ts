import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

function executableRealpath(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return undefined;
    accessSync(path, constants.X_OK);
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Whether another `brigade` would run instead of the plugin's in the Bash tool
 * (docs/spec/claude-code.md §2): Claude Code appends `${CLAUDE_PLUGIN_ROOT}/bin` **last** to that
 * PATH, so the first executable regular file `brigade` found in a `pathValue` entry (absolute
 * entries only, in order) shadows ours unless its realpath is the realpath of
 * `<pluginRoot>/bin/brigade`. False when no such file is found, or when `pluginRoot` is not
 * absolute or its `bin/brigade` cannot be resolved (nothing to compare with). Never throws.
 *
 * @example isBrigadeShadowed("/home/dana/bin:/usr/bin", "/home/dana/.claude/plugins/cache/brigade/0.1.0")
 */
export function isBrigadeShadowed(pathValue: string, pluginRoot: string): boolean {
  if (pluginRoot === "" || !isAbsolute(pluginRoot)) return false;
  const ours = executableRealpath(join(pluginRoot, "bin", "brigade"));
  if (ours === undefined) return false;
  for (const entry of pathValue.split(delimiter)) {
    if (entry === "" || !isAbsolute(entry)) continue;
    const found = executableRealpath(join(entry, "brigade"));
    if (found !== undefined) return found !== ours;
  }
  return false;
}
