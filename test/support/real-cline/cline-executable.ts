/**
 * The real Cline CLI for the tests: the npm package `cline` with its dependencies, installed once
 * per version (`npm install --ignore-scripts`) into a cache beside Claude Code's, outside the
 * repository, and run with this Node (docs/49-cline.md "The real-client test").
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { claudeCodeCacheRoot } from "../real-claude/claude-executable.ts";

const run = promisify(execFile);

/** The version the pull lane was measured on (`CLINE_VERIFIED`). */
export const PINNED_CLINE_VERSION = "2.18.0";

const PACKAGE = "cline";
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/** Which Cline a test file runs: its label and how its version is found. */
export interface ClineChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

/** `<cache>/cline/<version>/node_modules/cline/dist/cli.mjs`. */
function cachedScript(version: string): string {
  return join(
    dirname(claudeCodeCacheRoot()),
    "cline",
    version,
    "node_modules",
    "cline",
    "dist",
    "cli.mjs",
  );
}

/**
 * The newest Cline 2 the registry has: Cline 3 (3.0.x) is another program (a Bun-compiled binary,
 * other hook events, docs/49-cline.md "Cline 3") that this pull lane does not run, so the newest
 * of the 2.x line is what the newest file checks. Rejects loudly when the registry cannot be read.
 */
export async function newestClineTwo(): Promise<string> {
  const { stdout } = await run("npm", ["view", `${PACKAGE}@2`, "version", "--json"], {
    timeout: 60_000,
    encoding: "utf8",
  });
  const listed = JSON.parse(stdout) as unknown;
  const versions = (Array.isArray(listed) ? listed : [listed]).filter(
    (v): v is string => typeof v === "string" && VERSION.test(v),
  );
  const newest = versions.at(-1);
  if (newest === undefined) throw new Error("the registry lists no Cline 2 version");
  return newest;
}

/** The two choices the suite runs, one test file each. */
export const CLINE_CHOICES: Readonly<Record<ClineChoice["which"], ClineChoice>> = Object.freeze({
  pinned: { which: "pinned", version: async () => PINNED_CLINE_VERSION },
  newest: { which: "newest", version: newestClineTwo },
});

/**
 * The path of Cline's `dist/cli.mjs` of `version`, installed into the cache first when missing
 * (`npm install --ignore-scripts` into a temporary folder, then one rename: an interrupted install
 * never leaves a half package where the next run would take it).
 *
 * @example await clineScript("2.18.0")
 */
export async function clineScript(version: string): Promise<string> {
  if (!VERSION.test(version)) throw new Error("not a Cline version");
  const script = cachedScript(version);
  if (existsSync(script)) return script;
  const entry = dirname(dirname(dirname(dirname(script))));
  mkdirSync(dirname(entry), { recursive: true });
  const temp = mkdtempSync(`${entry}.partial-`);
  try {
    writeFileSync(join(temp, "package.json"), '{"private":true}\n');
    await run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--ignore-scripts", `${PACKAGE}@${version}`],
      { cwd: temp, timeout: 600_000, encoding: "utf8", maxBuffer: 16 << 20 },
    );
    if (!existsSync(join(temp, "node_modules", "cline", "dist", "cli.mjs"))) {
      throw new Error("the Cline package has no dist/cli.mjs");
    }
    // The pinned and newest files may install the same version at once: the first one placed
    // wins, and a folder another run is using is never removed.
    if (!existsSync(script)) {
      rmSync(entry, { recursive: true, force: true });
      try {
        renameSync(temp, entry);
      } catch (error) {
        if (!existsSync(script)) throw error;
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return script;
}
