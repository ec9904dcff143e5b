/**
 * The real Codex executable for the tests: the linux-x64 build of the npm package `@openai/codex`
 * (published as the version `<v>-linux-x64` of the same package), cached outside the repository
 * and downloaded with `npm pack` when missing, as the Claude Code suite does (docs/47, docs/49).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { CODEX_CACHE_ENV } from "../private-home.ts";

const run = promisify(execFile);

/** The Codex version the pull lane is pinned to: its facts (src/harness/codex/codex-facts.ts) were measured on it. */
export const PINNED_CODEX_VERSION = "0.171.0";

/** The npm package; its platform builds are versions of it (`0.171.0-linux-x64`). */
export const CODEX_PACKAGE = "@openai/codex";

/** Where the executable sits in the unpacked linux-x64 package. */
const EXECUTABLE_IN_PACKAGE = join(
  "package",
  "vendor",
  "x86_64-unknown-linux-musl",
  "bin",
  "codex",
);

/** A release version: digits and dots, an optional pre-release tail. */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/** The download of a ~170 MB tarball on a slow link. */
const DOWNLOAD_TIMEOUT_MS = 600_000;

/**
 * `${XDG_CACHE_HOME:-~/.cache}/brigade/codex`, one folder per version; inside a test run the run
 * names the real cache in `BRIGADE_TEST_CODEX_CACHE` (test/support/private-home.ts).
 */
export function codexCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[CODEX_CACHE_ENV];
  if (named?.startsWith("/")) return named;
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg?.startsWith("/") ? xdg : join(homedir(), ".cache");
  return join(base, "brigade", "codex");
}

/**
 * The newest published version: the registry's `latest` dist-tag of {@link CODEX_PACKAGE}.
 * Rejects naming the cause when the registry cannot be reached: the newest case fails, never skips.
 */
export async function latestCodexVersion(): Promise<string> {
  let answer: string;
  try {
    const { stdout } = await run(
      "npm",
      ["view", CODEX_PACKAGE, "dist-tags.latest", "--json=false", "--fetch-retries=1"],
      { timeout: 60_000, encoding: "utf8" },
    );
    answer = stdout.trim();
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(
      `cannot resolve the newest Codex: \`npm view ${CODEX_PACKAGE} dist-tags.latest\` failed (is the npm registry reachable?): ${detail}`,
    );
  }
  if (!VERSION.test(answer))
    throw new Error("cannot resolve the newest Codex: the registry's latest tag is not a version");
  return answer;
}

/**
 * The path of the Codex executable of `version`, from the cache, or downloaded into it first
 * (`npm pack @openai/codex@<version>-linux-x64` into a staging folder beside the cache entry,
 * `tar -x`, one rename, so an interrupted download never leaves a half-written executable).
 * Rejects on a malformed version, a failed download, a package without the executable, and on any
 * machine but Linux x64.
 *
 * @example await codexExecutable("0.171.0") // ~/.cache/brigade/codex/0.171.0/package/vendor/…/bin/codex
 */
export async function codexExecutable(version: string): Promise<string> {
  if (!VERSION.test(version)) throw new Error("codexExecutable: not a version");
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `the real-client tests run the linux-x64 Codex; this machine is ${process.platform}-${process.arch}`,
    );
  const root = codexCacheRoot();
  const target = join(root, version, EXECUTABLE_IN_PACKAGE);
  if (existsSync(target)) return target;
  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `.download-${version}-`));
  try {
    const { stdout } = await run(
      "npm",
      ["pack", `${CODEX_PACKAGE}@${version}-linux-x64`, "--silent", "--pack-destination", staging],
      { timeout: DOWNLOAD_TIMEOUT_MS, encoding: "utf8", maxBuffer: 1 << 20 },
    );
    const tarball = stdout.trim().split("\n").at(-1) ?? "";
    await run("tar", ["-xzf", join(staging, tarball), "-C", staging], {
      timeout: DOWNLOAD_TIMEOUT_MS,
    });
    if (!existsSync(join(staging, EXECUTABLE_IN_PACKAGE)))
      throw new Error(
        `the package ${CODEX_PACKAGE}@${version}-linux-x64 holds no codex executable`,
      );
    rmSync(join(staging, tarball), { force: true });
    const entry = join(root, version);
    if (!existsSync(target)) {
      rmSync(entry, { recursive: true, force: true });
      try {
        renameSync(staging, entry);
      } catch (error) {
        // A parallel run may have put the same version there first.
        if (!existsSync(target)) throw error;
      }
    }
    return target;
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`cannot download Codex ${version} with npm pack: ${detail}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Which Codex a suite runs: the pinned version, or the registry's newest, resolved at test time. */
export interface CodexChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

/** The two choices a version-pair suite runs, one test file each. */
export const CODEX_CHOICES: Readonly<Record<CodexChoice["which"], CodexChoice>> = Object.freeze({
  pinned: { which: "pinned", version: async () => PINNED_CODEX_VERSION },
  newest: { which: "newest", version: latestCodexVersion },
});
