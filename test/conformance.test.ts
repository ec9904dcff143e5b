import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseConformanceArgs } from "../src/conformance/args.ts";
import { runSuite, type SuiteOutcome } from "../src/conformance/runner.ts";
import { ensureBuilt } from "./support/server-process.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MAIN = join(root, "dist/cli/main.js");

/** A running `brigade serve` on a temp SQLite file and its base URL. */
interface Server {
  readonly url: string;
  readonly child: ChildProcess;
  readonly dir: string;
}

/**
 * Starts `node <entry> serve --data <tmp>/brigade.sqlite --host 127.0.0.1 --port 0` (the contract of
 * docs/22-conformance.md) and waits for the first `http://…` URL it prints on stdout or stderr.
 */
async function startServer(
  entry: readonly string[],
  env: Record<string, string> = {},
): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), "conformance-serve-"));
  const child = spawn(
    process.execPath,
    [...entry, "--data", join(dir, "brigade.sqlite"), "--host", "127.0.0.1", "--port", "0"],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const url = await new Promise<string>((res, rej) => {
    let seen = "";
    const timer = setTimeout(
      () => rej(new Error("brigade serve printed no URL within 15 s")),
      15_000,
    );
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString("utf8");
      const match = /https?:\/\/127\.0\.0\.1:\d+/.exec(seen);
      if (match) {
        clearTimeout(timer);
        res(match[0]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", () => rej(new Error("brigade serve exited before listening")));
  });
  return { url, child, dir };
}

function stopServer(server: Server | undefined): void {
  if (server === undefined) return;
  server.child.kill("SIGTERM");
  rmSync(server.dir, { recursive: true, force: true });
}

/** Runs the suite in process against `adapter` and returns the outcome. */
async function runAgainst(
  adapter: readonly string[],
  extra: readonly string[] = [],
): Promise<SuiteOutcome> {
  const parsed = parseConformanceArgs(["--adapter", JSON.stringify(adapter), "--json", ...extra]);
  if (!parsed.ok || parsed.help) throw new Error("bad options");
  return runSuite(parsed.options, { verbose: () => {}, caseDone: () => {} });
}

describe("conformance against brigade serve + the http adapter", () => {
  let server: Server | undefined;
  beforeAll(async () => {
    ensureBuilt();
    server = await startServer([MAIN, "serve"]);
  });
  afterAll(() => stopServer(server));

  test(
    "a clean run passes every non-slow case",
    async () => {
      const url = server?.url as string;
      const outcome = await runAgainst(
        [process.execPath, MAIN, "adapter", "http"],
        ["--env", `BRIGADE_SERVER=${url}`],
      );
      if (!("report" in outcome)) throw new Error(outcome.error);
      const failed = outcome.report.results.filter((r) => r.status !== "pass");
      expect(failed.map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
      expect(outcome.report.results).toHaveLength(48);
      expect(outcome.exitCode).toBe(0);
    },
    15 * 60_000,
  );
});
