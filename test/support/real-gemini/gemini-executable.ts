/**
 * The real Gemini CLI for the tests: the npm package `@google/gemini-cli`, installed once per
 * version into a cache beside Claude Code's (outside the repository) and run with this Node.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { claudeCodeCacheRoot } from "../real-claude/claude-executable.ts";

const run = promisify(execFile);

/** The version the Gemini lane was measured on (`GEMINI_FACTS.measuredOn`). */
export const PINNED_GEMINI_VERSION = "0.61.0";

const PACKAGE = "@google/gemini-cli";
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/** `<cache>/gemini-cli/<version>/node_modules/@google/gemini-cli/bundle/gemini.js`. */
function cachedScript(version: string): string {
  return join(
    dirname(claudeCodeCacheRoot()),
    "gemini-cli",
    version,
    "node_modules",
    "@google",
    "gemini-cli",
    "bundle",
    "gemini.js",
  );
}

/** The registry's `latest` of `@google/gemini-cli`; rejects loudly when it cannot be read. */
export async function latestGeminiVersion(): Promise<string> {
  const { stdout } = await run("npm", ["view", PACKAGE, "dist-tags.latest", "--json=false"], {
    timeout: 60_000,
    encoding: "utf8",
  });
  const version = stdout.trim();
  if (!VERSION.test(version)) throw new Error("the registry's latest Gemini CLI is not a version");
  return version;
}

/**
 * The path of Gemini CLI's `gemini.js` of `version`, installed into the cache first when missing
 * (`npm install --ignore-scripts` into a temporary folder, then one rename: an interrupted
 * install never leaves a half package where the next run would take it).
 *
 * @example await geminiScript("0.61.0")
 */
export async function geminiScript(version: string): Promise<string> {
  if (!VERSION.test(version)) throw new Error("not a Gemini CLI version");
  const script = cachedScript(version);
  if (existsSync(script)) return script;
  const root = dirname(dirname(dirname(dirname(dirname(script)))));
  mkdirSync(dirname(root), { recursive: true });
  const temp = mkdtempSync(`${root}.partial-`);
  try {
    await run(
      "npm",
      [
        "install",
        "--prefix",
        temp,
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        `${PACKAGE}@${version}`,
      ],
      { timeout: 600_000, encoding: "utf8" },
    );
    // The pinned and newest files may install the same version at once: the first one placed
    // wins, and a folder another run is using is never removed.
    if (!existsSync(script)) {
      rmSync(root, { recursive: true, force: true });
      try {
        renameSync(temp, root);
      } catch (error) {
        if (!existsSync(script)) throw error;
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  if (!existsSync(script)) throw new Error("the Gemini CLI package has no bundle/gemini.js");
  return script;
}
