import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

/** `CLAUDE_CONFIG_DIR` when it is set and absolute; a relative one is never resolved. */
function explicitConfigDir(env: Env): string | undefined {
  const explicit = env.CLAUDE_CONFIG_DIR;
  return explicit !== undefined && explicit !== "" && isAbsolute(explicit) ? explicit : undefined;
}

/**
 * Claude Code's config dir (docs/spec/claude-code.md §2): `CLAUDE_CONFIG_DIR` when absolute, else
 * `$HOME/.claude` (HOME from the given environment, else the OS home). `undefined` when nothing
 * absolute is found.
 *
 * @example claudeConfigDir({ HOME: "/home/dana" }) === "/home/dana/.claude"
 */
export function claudeConfigDir(env: Env): string | undefined {
  const explicit = explicitConfigDir(env);
  if (explicit !== undefined) return explicit;
  const home = env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
  return isAbsolute(home) ? join(home, ".claude") : undefined;
}

/**
 * The folder of Claude Code's session registry (docs/spec/claude-code.md §5) as the watcher finds
 * it: `$CLAUDE_CONFIG_DIR/sessions` when `CLAUDE_CONFIG_DIR` is absolute, else
 * `$HOME/.claude/sessions`; `undefined` without an absolute base. Unlike {@link claudeConfigDir}
 * it never falls back to the OS home: the watcher runs with the environment its hook handed over,
 * and a HOME missing there means no registry to watch.
 *
 * @example registryFolder({ HOME: "/home/dana" }) === "/home/dana/.claude/sessions"
 */
export function registryFolder(env: Env): string | undefined {
  const explicit = explicitConfigDir(env);
  if (explicit !== undefined) return join(explicit, "sessions");
  const home = env.HOME;
  if (home !== undefined && home !== "" && isAbsolute(home)) {
    return join(home, ".claude", "sessions");
  }
  return undefined;
}
