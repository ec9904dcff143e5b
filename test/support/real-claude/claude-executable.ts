/**
 * The real Claude Code executable for the tests: the linux-x64 npm package, cached outside the
 * repository and downloaded with `npm pack` when missing.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The Claude Code version the suite is pinned to: the contract was verified on it. */
export const PINNED_CLAUDE_CODE_VERSION = "2.1.334";

/** The npm package that holds the linux-x64 executable at `package/claude`. */
export const CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code-linux-x64";

/** A version string npm may resolve: digits and dots, an optional pre-release tail. */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/** The download of a ~370 MB tarball on a slow link. */
const DOWNLOAD_TIMEOUT_MS = 600_000;

/**
 * `${XDG_CACHE_HOME:-~/.cache}/brigade/claude-code`: one folder per version, each holding the
 * unpacked package (`<version>/package/claude`). Outside the repository, shared by every checkout.
 * Inside a test run, whose HOME and XDG folders are private, the run names the real cache in
 * `BRIGADE_TEST_CLAUDE_CODE_CACHE` (test/support/private-home.ts).
 */
export function claudeCodeCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.BRIGADE_TEST_CLAUDE_CODE_CACHE;
  if (named?.startsWith("/")) return named;
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg?.startsWith("/") ? xdg : join(homedir(), ".cache");
  return join(base, "brigade", "claude-code");
}

/** Where the executable of `version` lives in the cache (whether or not it is there). */
export function cachedClaudeCodePath(version: string): string {
  return join(claudeCodeCacheRoot(), version, "package", "claude");
}

/**
 * The newest published version: the registry's `latest` dist-tag of {@link CLAUDE_CODE_PACKAGE},
 * asked with `npm view`. Rejects with a message naming the cause when the registry cannot be
 * reached or answers something that is not a version: the newest-version case must fail loudly,
 * never skip.
 */
export async function latestClaudeCodeVersion(): Promise<string> {
  let answer: string;
  try {
    const { stdout } = await run(
      "npm",
      ["view", CLAUDE_CODE_PACKAGE, "dist-tags.latest", "--json=false", "--fetch-retries=1"],
      { timeout: 60_000, encoding: "utf8" },
    );
    answer = stdout.trim();
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(
      `cannot resolve the newest Claude Code: \`npm view ${CLAUDE_CODE_PACKAGE} dist-tags.latest\` failed (is the npm registry reachable?): ${detail}`,
    );
  }
  if (!VERSION.test(answer))
    throw new Error(
      `cannot resolve the newest Claude Code: the registry's latest tag is not a version`,
    );
  return answer;
}

/**
 * The path of the Claude Code executable of `version`, from the cache, or downloaded into it
 * first (`npm pack <package>@<version>` into a temporary folder beside the cache entry, `tar -x`,
 * then one rename, so an interrupted download never leaves a half-written executable where the
 * next run would take it). Rejects on a malformed version, a failed download or a package without
 * `package/claude`, and on any machine but Linux x64 (the only executable the tests pin).
 *
 * @example await claudeCodeExecutable("2.1.334") // ~/.cache/brigade/claude-code/2.1.334/package/claude
 */
export async function claudeCodeExecutable(version: string): Promise<string> {
  if (!VERSION.test(version)) throw new Error("claudeCodeExecutable: not a version");
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `the real-client tests run the linux-x64 Claude Code; this machine is ${process.platform}-${process.arch}`,
    );
  const target = cachedClaudeCodePath(version);
  if (existsSync(target)) return target;
  const root = claudeCodeCacheRoot();
  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `.download-${version}-`));
  try {
    const { stdout } = await run(
      "npm",
      ["pack", `${CLAUDE_CODE_PACKAGE}@${version}`, "--silent", "--pack-destination", staging],
      { timeout: DOWNLOAD_TIMEOUT_MS, encoding: "utf8", maxBuffer: 1 << 20 },
    );
    const tarball = stdout.trim().split("\n").at(-1) ?? "";
    await run("tar", ["-xzf", join(staging, tarball), "-C", staging], {
      timeout: DOWNLOAD_TIMEOUT_MS,
    });
    if (!existsSync(join(staging, "package", "claude")))
      throw new Error(`the package ${CLAUDE_CODE_PACKAGE}@${version} holds no package/claude`);
    rmSync(join(staging, tarball), { force: true });
    const entry = join(root, version);
    if (!existsSync(target)) {
      rmSync(entry, { recursive: true, force: true });
      try {
        renameSync(staging, entry);
      } catch (error) {
        // Another run (a parallel bench or test) may have put the same version there first.
        if (!existsSync(target)) throw error;
      }
    }
    return target;
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`cannot download Claude Code ${version} with npm pack: ${detail}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Which Claude Code a real-client suite runs: the pinned version, or the registry's newest,
 * resolved at test time so a contract change is seen the day it ships (an unreachable registry
 * fails the newest suite with the reason). Each suite has one test file per choice, so the two
 * versions run side by side.
 */
export interface ClaudeCodeChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

/** The two choices every version-pair suite runs. */
export const CLAUDE_CODE_CHOICES: Readonly<Record<ClaudeCodeChoice["which"], ClaudeCodeChoice>> =
  Object.freeze({
    pinned: { which: "pinned", version: async () => PINNED_CLAUDE_CODE_VERSION },
    newest: { which: "newest", version: latestClaudeCodeVersion },
  });
