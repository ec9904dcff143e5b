import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The built CLI entry. */
export const BUILT_CLI: string = join(REPO_ROOT, "dist/cli/main.js");

/** Builds `dist/` when it is missing (`npm test` builds before vitest; a bare vitest run may not). */
export function ensureBuilt(): void {
  if (existsSync(BUILT_CLI)) return;
  execFileSync(
    process.execPath,
    [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"],
    {
      cwd: REPO_ROOT,
      stdio: "inherit",
    },
  );
}

/**
 * Builds `dist-test/` from `tsconfig.test-build.json`: the test-only entries (the conformance
 * mutants under the `testing/` folders) that `dist/` never contains. Always runs, because `tsc -b` is
 * incremental and a stale mutant would test yesterday's code.
 */
export function buildTestSeams(): void {
  execFileSync(
    process.execPath,
    [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.test-build.json"],
    { cwd: REPO_ROOT, stdio: "inherit" },
  );
}

/**
 * `brigade serve` flags for a server the conformance suite drives with its adapter in process: a
 * run mints a few principals per case, about 150 within seconds from one loopback address, where
 * the default minting budget (30 a minute per address, 120 a minute per server) is sized for
 * people joining. The suite tests the BAP/1 limits, never these (docs/30, "Limits").
 */
export const FAST_SUITE_LIMITS: readonly string[] = [
  ...[
    "principals_per_address_per_minute",
    "principals_per_address_per_hour",
    "principals_per_server_per_minute",
    "principals_per_server_per_hour",
  ].flatMap((name) => ["--limit", `${name}=100000`]),
  // A small team quota, so the quota case (C-65) reaches it with a few 1 MiB uploads.
  "--limit",
  "team_storage_mib=4",
];

/** A `brigade serve` child process and its base URL. */
export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Everything the server wrote on stdout so far. */
  stdout(): string;
}

/**
 * Starts `node dist/cli/main.js serve --host 127.0.0.1 --port 0 --data <file> [extra…]` (creating
 * the data file's folder first: `--data` never does) and resolves with the URL it prints once
 * listening (rejects after 15 s or if it exits first).
 */
export function startServerProcess(
  dataFile: string,
  env: Record<string, string> = {},
  entry: readonly string[] = [BUILT_CLI, "serve"],
  extra: readonly string[] = [],
): Promise<ServerProcess> {
  mkdirSync(dirname(dataFile), { recursive: true, mode: 0o700 });
  // A flag in `extra` replaces the default (brigade serve refuses a value flag given twice).
  const defaults = {
    "--host": "127.0.0.1",
    "--port": "0",
    "--data": dataFile,
    "--log-level": "warn",
  };
  const child = spawn(
    process.execPath,
    [
      ...entry,
      ...Object.entries(defaults)
        .filter(([flag]) => !extra.includes(flag))
        .flat(),
      ...extra,
    ],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  let out = "";
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(
      () => reject(new Error("brigade serve printed no URL in 15 s")),
      15_000,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = /listening on (https?:\/\/\S+)/.exec(out);
      // Resolved once the start-up lines are out (the registration line is always among them).
      if (match !== null && /registration (open|closed)/.test(out)) {
        clearTimeout(timer);
        resolvePromise({ url: match[1] as string, child, stderr: () => err, stdout: () => out });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `brigade serve exited before listening (${code ?? signal}): ${err.slice(0, 500)}`,
        ),
      );
    });
  });
}

/** Resolves when the child has exited. */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => child.once("exit", () => resolvePromise()));
}
