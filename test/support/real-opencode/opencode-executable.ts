/**
 * The real OpenCode for the tests: the executable of npm `opencode-linux-x64` (the platform
 * package the `opencode-ai` launcher links at its install; docs/49-opencode.md), unpacked once
 * per version into the cache beside Claude Code's, outside the repository.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { claudeCodeCacheRoot } from "../real-claude/claude-executable.ts";

const run = promisify(execFile);

/** The version the door and the plugin were measured on (`OPENCODE_VERIFIED`). */
export const PINNED_OPENCODE_VERSION = "1.18.33";

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/** `<cache>/opencode/<version>/package/bin/opencode`. */
function cachedExecutable(version: string): string {
  return join(dirname(claudeCodeCacheRoot()), "opencode", version, "package", "bin", "opencode");
}

/** The registry's `latest` of `opencode-ai`; rejects loudly when it cannot be read. */
export async function latestOpenCodeVersion(): Promise<string> {
  const { stdout } = await run("npm", ["view", "opencode-ai", "dist-tags.latest", "--json=false"], {
    timeout: 60_000,
    encoding: "utf8",
  });
  const version = stdout.trim();
  if (!VERSION.test(version)) throw new Error("the registry's latest OpenCode is not a version");
  return version;
}

/**
 * The path of OpenCode's executable of `version`, unpacked into the cache first when missing
 * (`npm pack opencode-linux-x64@<version>` and `tar -x` into a temporary folder, then one rename:
 * an interrupted download never leaves a half package where the next run would take it).
 *
 * @example await openCodeExecutable("1.18.33")
 */
export async function openCodeExecutable(version: string): Promise<string> {
  if (!VERSION.test(version)) throw new Error("not an OpenCode version");
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error("the real-client OpenCode test runs on Linux x64 (opencode-linux-x64)");
  }
  const executable = cachedExecutable(version);
  if (existsSync(executable)) return executable;
  const entry = dirname(dirname(dirname(executable)));
  mkdirSync(dirname(entry), { recursive: true });
  const temp = mkdtempSync(`${entry}.partial-`);
  try {
    const { stdout } = await run(
      "npm",
      ["pack", `opencode-linux-x64@${version}`, "--silent", "--pack-destination", temp],
      { timeout: 600_000, encoding: "utf8", maxBuffer: 1 << 20 },
    );
    const tarball = stdout.trim().split("\n").at(-1) ?? "";
    await run("tar", ["-xzf", join(temp, tarball), "-C", temp], { timeout: 600_000 });
    rmSync(join(temp, tarball), { force: true });
    if (!existsSync(join(temp, "package", "bin", "opencode"))) {
      throw new Error("the OpenCode package has no bin/opencode");
    }
    // The pinned and newest files may download the same version at once: the first one placed
    // wins, and a folder another run is using is never removed.
    if (!existsSync(executable)) {
      rmSync(entry, { recursive: true, force: true });
      try {
        renameSync(temp, entry);
      } catch (error) {
        if (!existsSync(executable)) throw error;
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return executable;
}
