/**
 * The real Qwen Code for the tests: the npm package `@qwen-code/qwen-code` (one bundled script,
 * no dependencies needed), unpacked once per version into a cache beside Claude Code's (outside
 * the repository) and run with this Node (docs/49-qwen.md).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { claudeCodeCacheRoot } from "../real-claude/claude-executable.ts";

const run = promisify(execFile);

/** The version the peer door was measured on (`QWEN_VERIFIED`). */
export const PINNED_QWEN_VERSION = "0.24.4";

const PACKAGE = "@qwen-code/qwen-code";
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/** `<cache>/qwen-code/<version>/package/cli-entry.js`. */
function cachedScript(version: string): string {
  return join(dirname(claudeCodeCacheRoot()), "qwen-code", version, "package", "cli-entry.js");
}

/** The registry's `latest` of `@qwen-code/qwen-code`; rejects loudly when it cannot be read. */
export async function latestQwenVersion(): Promise<string> {
  const { stdout } = await run("npm", ["view", PACKAGE, "dist-tags.latest", "--json=false"], {
    timeout: 60_000,
    encoding: "utf8",
  });
  const version = stdout.trim();
  if (!VERSION.test(version)) throw new Error("the registry's latest Qwen Code is not a version");
  return version;
}

/**
 * The path of Qwen Code's `cli-entry.js` of `version`, unpacked into the cache first when missing
 * (`npm pack` and `tar -x` into a temporary folder, then one rename: an interrupted download
 * never leaves a half package where the next run would take it).
 *
 * @example await qwenScript("0.24.4")
 */
export async function qwenScript(version: string): Promise<string> {
  if (!VERSION.test(version)) throw new Error("not a Qwen Code version");
  const script = cachedScript(version);
  if (existsSync(script)) return script;
  const entry = dirname(dirname(script));
  mkdirSync(dirname(entry), { recursive: true });
  const temp = mkdtempSync(`${entry}.partial-`);
  try {
    const { stdout } = await run(
      "npm",
      ["pack", `${PACKAGE}@${version}`, "--silent", "--pack-destination", temp],
      { timeout: 600_000, encoding: "utf8", maxBuffer: 1 << 20 },
    );
    const tarball = stdout.trim().split("\n").at(-1) ?? "";
    await run("tar", ["-xzf", join(temp, tarball), "-C", temp], { timeout: 600_000 });
    rmSync(join(temp, tarball), { force: true });
    if (!existsSync(join(temp, "package", "cli-entry.js"))) {
      throw new Error("the Qwen Code package has no cli-entry.js");
    }
    // The pinned and newest files may download the same version at once: the first one placed
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
