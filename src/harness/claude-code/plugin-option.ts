/**
 * The environment variable Claude Code exports a plugin option in: `CLAUDE_PLUGIN_OPTION_` and
 * the option's key upper-cased. It exports only the options a user set, so an unset variable means
 * the option's default.
 *
 * @example pluginOptionVariable("poll_on_prompt") === "CLAUDE_PLUGIN_OPTION_POLL_ON_PROMPT"
 */
export function pluginOptionVariable(key: string): string {
  return `CLAUDE_PLUGIN_OPTION_${key.toUpperCase()}`;
}

/**
 * The raw value of the plugin option `key` in `env`, untrimmed; `""` when it is not set.
 *
 * @example pluginOption({ CLAUDE_PLUGIN_OPTION_LABEL: "Dana" }, "label") === "Dana"
 */
export function pluginOption(
  env: Readonly<Record<string, string | undefined>>,
  key: string,
): string {
  return env[pluginOptionVariable(key)] ?? "";
}

const TRUE_SPELLINGS: ReadonlySet<string> = new Set(["true", "1", "yes", "on"]);
const FALSE_SPELLINGS: ReadonlySet<string> = new Set(["false", "0", "no", "off"]);

/**
 * The value of the boolean plugin option `key` in `env`, the one rule every reader of a boolean
 * option uses (the hooks and the watcher): `true`, `1`, `yes`, `on` are true and `false`, `0`,
 * `no`, `off` false, in any case and with surrounding whitespace ignored (a value typed into a
 * settings form may carry a space); anything else, unset included, is `fallback`, the option's
 * default. Never throws.
 *
 * @example pluginBooleanOption({ CLAUDE_PLUGIN_OPTION_POLL_ON_PROMPT: " Yes" }, "poll_on_prompt", false) === true
 */
export function pluginBooleanOption(
  env: Readonly<Record<string, string | undefined>>,
  key: string,
  fallback: boolean,
): boolean {
  const value = pluginOption(env, key).trim().toLowerCase();
  if (TRUE_SPELLINGS.has(value)) return true;
  if (FALSE_SPELLINGS.has(value)) return false;
  return fallback;
}
