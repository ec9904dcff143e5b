import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's top folder. */
export const REPO_ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The built CLI, `dist/cli/main.js` (`npm run build`). */
export const BUILT_MAIN: string = join(REPO_ROOT, "dist", "cli", "main.js");

/** What a finished child process left. */
export interface CliRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node dist/cli/main.js <args>` (the built CLI, as a person runs it) with exactly `env`
 * (plus nothing inherited) and `input` on stdin; throws when `dist` was never built.
 *
 * @example const run = runBuiltCli(["--version"], { PATH: process.env.PATH ?? "" });
 */
export function runBuiltCli(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  options: { readonly input?: string; readonly cwd?: string; readonly timeoutMs?: number } = {},
): CliRun {
  if (!existsSync(BUILT_MAIN)) throw new Error("dist/cli/main.js is missing: run npm run build");
  const run = spawnSync(process.execPath, [BUILT_MAIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...env },
    input: options.input ?? "",
    encoding: "utf8",
    timeout: options.timeoutMs ?? 30_000,
  });
  return { status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}
