import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { readLocalFile } from "../../local-files/index.ts";

/**
 * What {@link findBrigadeShadow} found: no other `brigade` runs instead of the plugin's, or one
 * does, with its version (`unknown` when none can be read beside it) and ours.
 *
 * @example { shadowed: true, theirs: "0.0.9", ours: "0.1.0" }
 */
export type BrigadeShadow =
  | { readonly shadowed: false }
  | { readonly shadowed: true; readonly theirs: string; readonly ours: string };

/** A version string safe to show a model: what a release version looks like, nothing else. */
const VERSION_SHAPE = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

/** The manifests that can name the version of a `brigade` executable, relative to its folder. */
const MANIFESTS_BESIDE = [
  ["..", "package.json"], // a Brigade checkout's bin/brigade (the CLI install)
  ["..", "..", "package.json"], // a checkout's dist/cli/main.js (npm link, npm install -g)
  ["..", ".claude-plugin", "plugin.json"], // another copy of the plugin's bin/brigade
] as const;

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
 * The first executable regular file `brigade` in an absolute entry of `pathValue`, in order, as a
 * shell finds it: where it was found and its real path. Relative and empty entries are skipped.
 * `undefined` when there is none. Never throws.
 *
 * @example firstBrigadeOnPath("/home/dana/.local/bin:/usr/bin")?.realpath
 */
export function firstBrigadeOnPath(
  pathValue: string,
): { readonly found: string; readonly realpath: string } | undefined {
  for (const entry of pathValue.split(delimiter)) {
    if (entry === "" || !isAbsolute(entry)) continue;
    const found = join(entry, "brigade");
    const real = executableRealpath(found);
    if (real !== undefined) return { found, realpath: real };
  }
  return undefined;
}

/**
 * The Brigade version a `brigade` executable (given by its real path) belongs to: `version` of the
 * first manifest beside it whose `name` is `brigade` — a checkout's `package.json` one or two
 * folders up, or a plugin copy's `.claude-plugin/plugin.json`. `unknown` when none is found or
 * its version has an unexpected shape (the text reaches a model). Reads at most 64 KiB per file;
 * never throws.
 *
 * @example brigadeVersionBeside("/home/dana/src/brigade/bin/brigade") // "0.1.0"
 */
export function brigadeVersionBeside(executable: string): string {
  for (const parts of MANIFESTS_BESIDE) {
    const read = readLocalFile(join(dirname(executable), ...parts), {
      maxBytes: 65_536,
      followSymlink: true,
    });
    if (!read.ok) continue;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(read.bytes).toString("utf8"));
      if (typeof parsed !== "object" || parsed === null) continue;
      if (!("name" in parsed) || parsed.name !== "brigade" || !("version" in parsed)) continue;
      const version = parsed.version;
      return typeof version === "string" && VERSION_SHAPE.test(version) ? version : "unknown";
    } catch {}
  }
  return "unknown";
}

/**
 * Whether another `brigade` would run instead of the plugin's in the Bash tool
 * (docs/spec/claude-code.md §2): Claude Code appends `${CLAUDE_PLUGIN_ROOT}/bin` **last** to that
 * PATH, so the first executable regular file `brigade` found in a `pathValue` entry (absolute
 * entries only, in order) runs instead of ours. That is no shadow when its realpath is the realpath
 * of `<pluginRoot>/bin/brigade`, nor when it is the same version of Brigade (`ourVersion`): a
 * person's CLI installed from a checkout of that version runs the same commands
 * (docs/45-plugin.md). Not shadowed either when no such file is found, or when `pluginRoot` is not
 * absolute or its `bin/brigade` cannot be resolved (nothing to compare with). Never throws.
 *
 * @example findBrigadeShadow("/home/dana/bin:/usr/bin", "/home/dana/.claude/plugins/cache/brigade/0.1.0", "0.1.0")
 */
export function findBrigadeShadow(
  pathValue: string,
  pluginRoot: string,
  ourVersion: string,
): BrigadeShadow {
  if (pluginRoot === "" || !isAbsolute(pluginRoot)) return { shadowed: false };
  const ours = executableRealpath(join(pluginRoot, "bin", "brigade"));
  if (ours === undefined) return { shadowed: false };
  const first = firstBrigadeOnPath(pathValue);
  if (first === undefined || first.realpath === ours) return { shadowed: false };
  const theirs = brigadeVersionBeside(first.realpath);
  if (theirs !== "unknown" && theirs === ourVersion) return { shadowed: false };
  return { shadowed: true, theirs, ours: ourVersion };
}
