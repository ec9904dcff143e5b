/**
 * The real OpenCode for the tests: the executable of npm `opencode-linux-x64` (the platform
 * package the `opencode-ai` launcher links at its install; docs/49-opencode.md), unpacked once
 * per version into the cache beside Claude Code's, outside the repository.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
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
 * `<cache>/opencode/<version>/config-deps`: what OpenCode's first start installs into its
 * configuration folder when a plugin is there (`package.json` naming `@opencode-ai/plugin` of its
 * own version, `package-lock.json`, `node_modules`), installed once per version.
 */
export function openCodeConfigDeps(executable: string): string {
  return join(dirname(dirname(dirname(executable))), "config-deps");
}

/**
 * Installs {@link openCodeConfigDeps} when missing, the same way as the executable (a temporary
 * folder, then one rename). Measured on 1.18.33: a TUI whose configuration folder holds a plugin
 * but no `node_modules` runs an npm install before it draws anything (10 s with the registry near,
 * 74 s with no network, over a minute on a loaded CI machine); seeded, it starts in 4 s with no
 * network at all, so the tests never reach past loopback.
 */
async function installConfigDeps(executable: string, version: string): Promise<void> {
  const deps = openCodeConfigDeps(executable);
  if (existsSync(join(deps, "node_modules", "@opencode-ai", "plugin"))) return;
  const temp = mkdtempSync(`${deps}.partial-`);
  try {
    writeFileSync(
      join(temp, "package.json"),
      `${JSON.stringify({ dependencies: { "@opencode-ai/plugin": version } }, null, 2)}\n`,
    );
    await run("npm", ["install", "--no-audit", "--no-fund", "--silent"], {
      cwd: temp,
      timeout: 600_000,
      encoding: "utf8",
      maxBuffer: 1 << 20,
    });
    if (!existsSync(join(deps, "node_modules", "@opencode-ai", "plugin"))) {
      rmSync(deps, { recursive: true, force: true });
      try {
        renameSync(temp, deps);
      } catch (error) {
        if (!existsSync(join(deps, "node_modules", "@opencode-ai", "plugin"))) throw error;
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * The path of OpenCode's executable of `version`, unpacked into the cache first when missing
 * (with its {@link openCodeConfigDeps})
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
  if (existsSync(executable)) {
    await installConfigDeps(executable, version);
    return executable;
  }
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
  await installConfigDeps(executable, version);
  return executable;
}
