import { isAbsolute, join } from "node:path";
import { readLocalFile } from "../../local-files/index.ts";
import { MAX_SETTINGS_BYTES } from "./settings-scan.ts";

/** The repository's settings files Claude Code takes an `env` block from, by the name a line may show. */
const REPOSITORY_SETTINGS = [".claude/settings.json", ".claude/settings.local.json"] as const;

/** One {@link REPOSITORY_SETTINGS} name. */
export type RepositorySettingsFile = (typeof REPOSITORY_SETTINGS)[number];

/**
 * Whether a variable chooses where Brigade keeps its state and configuration, or what the person
 * chose for the plugin: `HOME`, `CLAUDE_CONFIG_DIR`, any `XDG_*`, any `CLAUDE_PLUGIN_OPTION_*`
 * (`config_dir` and `frame_file` name folders and files; the others are the person's choices).
 */
function choosesForBrigade(name: string): boolean {
  return (
    name === "HOME" ||
    name === "CLAUDE_CONFIG_DIR" ||
    name.startsWith("XDG_") ||
    name.startsWith("CLAUDE_PLUGIN_OPTION_")
  );
}

/** The `env` block of one settings file, or none when it cannot be read as a JSON object. */
function envBlock(path: string): Record<string, unknown> | undefined {
  const read = readLocalFile(path, { maxBytes: MAX_SETTINGS_BYTES, followSymlink: true });
  if (!read.ok) return undefined;
  try {
    const settings: unknown = JSON.parse(new TextDecoder().decode(read.bytes));
    if (typeof settings !== "object" || settings === null || Array.isArray(settings))
      return undefined;
    const env: unknown = (settings as Record<string, unknown>).env;
    if (typeof env !== "object" || env === null || Array.isArray(env)) return undefined;
    return env as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * The repository's settings files whose `env` block sets, in this process's environment, a
 * variable that chooses Brigade's folders or the person's plugin options
 * (docs/spec/claude-code.md §2): `HOME`, `CLAUDE_CONFIG_DIR`, `XDG_*`, `CLAUDE_PLUGIN_OPTION_*`. Claude Code applies a
 * project's (`.claude/settings.json`) and a local (`.claude/settings.local.json`) `env` block to
 * its hooks and tools; a variable counts only when it took effect — its value here equals the
 * block's (measured on 2.1.334 and 2.1.336, Claude Code itself keeps `HOME`, `XDG_CONFIG_HOME`,
 * `XDG_STATE_HOME` and `CLAUDE_CONFIG_DIR` from a project, but not `CLAUDE_PLUGIN_OPTION_*` or
 * other `XDG_*`). `projectDirs` are where the repository's `.claude/` may be (the hook's
 * `CLAUDE_PROJECT_DIR` and `cwd`; relative or empty ones are skipped). Best effort: unreadable
 * files count for nothing. Never throws.
 *
 * @example repositoryEnvChoices({ CLAUDE_PLUGIN_OPTION_CONFIG_DIR: "/tmp/x" }, ["/w/api"]) // [".claude/settings.json"]
 */
export function repositoryEnvChoices(
  env: Readonly<Record<string, string | undefined>>,
  projectDirs: readonly (string | undefined)[],
): RepositorySettingsFile[] {
  const dirs = [...new Set(projectDirs)].filter(
    (dir): dir is string => dir !== undefined && dir !== "" && isAbsolute(dir),
  );
  const hits = new Set<RepositorySettingsFile>();
  for (const dir of dirs) {
    for (const name of REPOSITORY_SETTINGS) {
      const block = envBlock(join(dir, name));
      if (block === undefined) continue;
      const effective = Object.entries(block).some(
        ([variable, value]) =>
          choosesForBrigade(variable) &&
          (typeof value === "string" || typeof value === "number" || typeof value === "boolean") &&
          env[variable] === String(value),
      );
      if (effective) hits.add(name);
    }
  }
  return REPOSITORY_SETTINGS.filter((name) => hits.has(name));
}
