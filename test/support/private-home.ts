import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";

/**
 * The real Claude Code download cache, handed to the tests that need it (docs/47): a download of
 * ~370 MB per version is shared with the person's other checkouts on purpose.
 */
export const CLAUDE_CODE_CACHE_ENV = "BRIGADE_TEST_CLAUDE_CODE_CACHE";

/** The real Codex download cache (docs/49-codex.md): ~170 MB a version, shared the same way. */
export const CODEX_CACHE_ENV = "BRIGADE_TEST_CODEX_CACHE";

/** The person's real home, named for the run (and the marker that the private one is set up). */
export const REAL_HOME_ENV = "BRIGADE_TEST_REAL_HOME";

/** Folders below the real home that are not ours to watch: toolchains and package caches. */
const NOT_WATCHED = new Set([
  ".npm",
  ".pyenv",
  ".rustup",
  ".cargo",
  ".m2",
  ".cache/brigade/claude-code",
  // The other real clients' packages, cached beside Claude Code's (test/support/real-*/).
  ".cache/brigade/gemini-cli",
  ".cache/brigade/codex",
  ".cache/brigade/qwen-code",
  ".cache/brigade/opencode",
  ".cache/brigade/cline",
  ".cache/node-gyp",
  ".cache/biome",
]);

/** The folders that lead to a folder not watched: walked through, but their own creation is no change. */
const LEADING_TO_UNWATCHED = new Set(
  [...NOT_WATCHED].flatMap((path) =>
    path
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);

/**
 * What the coding client, the shell and its tools write by themselves while a person works:
 * watching them would blame the tests for the person's own terminal. Only the settings and plugins
 * below `.claude` are Brigade's business (the plugin must never change them behind the person's
 * back).
 */
const NOT_OURS = [
  /^\.[a-z_]*history$/,
  /^\.lesshst$/,
  /^\.viminfo$/,
  /^\.claude\.json(\.backup)?$/,
  // top(1) keeps its settings here, written when a person runs it beside the tests.
  /^\.config\/procps(\/|$)/,
];
const CLAUDE_WATCHED = new Set(["settings.json", "settings.local.json", "plugins"]);

/** At most this many entries are fingerprinted; a larger home is fingerprinted in part. */
const MAX_ENTRIES = 50_000;

/** Path (relative to the home) → size and modification time of every watched entry. */
export function fingerprint(home: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (seen.size >= MAX_ENTRIES) return;
      const path = join(dir, name);
      const rel = relative(home, path);
      if (NOT_WATCHED.has(rel) || NOT_OURS.some((re) => re.test(rel))) continue;
      if (rel.startsWith(".claude/") && !CLAUDE_WATCHED.has(rel.split("/")[1] as string)) continue;
      let stat: ReturnType<typeof lstatSync>;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      const isDir = stat.isDirectory();
      if (!(isDir && LEADING_TO_UNWATCHED.has(rel))) {
        seen.set(rel, isDir ? "dir" : `${stat.size}:${stat.mtimeMs}:${stat.mode}`);
      }
      if (isDir) walk(path);
    }
  };
  walk(home);
  return seen;
}

/** The paths that appeared, disappeared or changed between two fingerprints. */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [path, value] of after) {
    if (!before.has(path)) changed.push(`${path} (new)`);
    else if (before.get(path) !== value) changed.push(`${path} (changed)`);
  }
  for (const path of before.keys()) if (!after.has(path)) changed.push(`${path} (removed)`);
  return changed.sort();
}

/**
 * Gives the run a home of its own and proves nobody used the real one. Before any worker starts,
 * `HOME` and the XDG folders point inside the run's temp folder (test/support/run-temp-dir.ts runs
 * first), so a test that forgets to isolate itself writes there, not into the person's
 * `~/.config/brigade`; npm keeps the person's cache and configuration, and the real-client tests
 * the real Claude Code and Codex download caches. After the run, the real home is compared with its
 * fingerprint from the start: anything new, changed or removed (outside caches and the person's
 * own shell and coding-client files) is named and fails the run.
 */
export default function setup(): (() => void) | undefined {
  // Every project inherits the global setups; the first one to run does the work.
  if (process.env[REAL_HOME_ENV] !== undefined) return undefined;
  const realHome = homedir();
  process.env[REAL_HOME_ENV] = realHome;
  const before = fingerprint(realHome);
  const privateHome = join(tmpdir(), "home");
  const realCache = process.env.XDG_CACHE_HOME?.startsWith("/")
    ? process.env.XDG_CACHE_HOME
    : join(realHome, ".cache");
  const folders = {
    XDG_CONFIG_HOME: join(privateHome, ".config"),
    XDG_STATE_HOME: join(privateHome, ".local", "state"),
    XDG_DATA_HOME: join(privateHome, ".local", "share"),
    XDG_CACHE_HOME: join(privateHome, ".cache"),
  };
  for (const dir of Object.values(folders)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  process.env[CLAUDE_CODE_CACHE_ENV] ??= join(realCache, "brigade", "claude-code");
  process.env[CODEX_CACHE_ENV] ??= join(realCache, "brigade", "codex");
  process.env.npm_config_cache ??= join(realHome, ".npm");
  const npmrc = join(realHome, ".npmrc");
  if (existsSync(npmrc)) process.env.npm_config_userconfig ??= npmrc;
  process.env.HOME = privateHome;
  Object.assign(process.env, folders);
  return () => {
    rmSync(privateHome, { recursive: true, force: true, maxRetries: 5 });
    const changed = changes(before, fingerprint(realHome));
    if (changed.length > 0) {
      process.exitCode = 1;
      throw new Error(
        `the tests changed the real home folder ${realHome} (a test must use the run's private HOME or its own folder): ${changed.slice(0, 20).join(", ")}`,
      );
    }
  };
}
