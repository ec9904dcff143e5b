import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseConformanceArgs } from "../src/conformance/args.ts";
import { runSuite, type SuiteOutcome } from "../src/conformance/runner.ts";
import type { AdapterTransport } from "../src/conformance/transport.ts";
import { inProcessHttpAdapter } from "./support/in-process-adapter.ts";
import { type FreshSchema, freshPostgresSchema } from "./support/postgres-schema.ts";
import {
  BUILT_CLI,
  ensureBuilt,
  exited,
  FAST_SUITE_LIMITS,
  type ServerProcess,
  startServerProcess,
} from "./support/server-process.ts";

/**
 * Runs the suite against `adapter` and returns the outcome; `transport` undefined spawns the
 * adapter per call.
 */
async function runAgainst(
  adapter: readonly string[],
  extra: readonly string[],
  transport: AdapterTransport | undefined,
): Promise<SuiteOutcome> {
  const parsed = parseConformanceArgs(["--adapter", JSON.stringify(adapter), "--json", ...extra]);
  if (!parsed.ok || parsed.help) throw new Error("bad options");
  const listener = { verbose: () => {}, caseDone: () => {} };
  return runSuite(parsed.options, listener, transport === undefined ? {} : { transport });
}

/**
 * How a clean run reaches `brigade adapter http`: `spawned`, a real process per call (the whole
 * stack, the process boundary included), or `in-process`, the same entry in this process (the
 * store is the subject). docs/22-conformance.md, "The adapter transport".
 */
export type CleanRunTransport = "spawned" | "in-process";

/**
 * Registers the clean run against a `brigade serve` on `kind` through `transport`; a test file
 * per store, so the two run side by side.
 */
export function cleanConformanceRun(
  kind: "sqlite" | "postgres",
  transport: CleanRunTransport,
): void {
  describe(`conformance against brigade serve (${kind} store) + the http adapter, ${transport}`, () => {
    let server: ServerProcess | undefined;
    let dir: string | undefined;
    let schema: FreshSchema | undefined;
    beforeAll(async () => {
      ensureBuilt();
      dir = mkdtempSync(join(tmpdir(), "conformance-serve-"));
      const env: Record<string, string> = {};
      if (kind === "postgres") {
        schema = await freshPostgresSchema("conformance");
        env.BRIGADE_STORE = schema.url;
      }
      // A whole run mints more principals in a minute than a default server allows one address, and
      // the quota case (C-65) needs a small team quota: FAST_SUITE_LIMITS gives both.
      server = await startServerProcess(
        join(dir, "brigade.sqlite"),
        env,
        undefined,
        FAST_SUITE_LIMITS,
      );
    });
    afterAll(async () => {
      const child = server?.child;
      if (child !== undefined) {
        child.kill("SIGTERM");
        await exited(child);
      }
      await schema?.drop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    test(
      "a clean run passes every non-slow case",
      async () => {
        const url = server?.url as string;
        const health = (await (await fetch(`${url}/v1/health`)).json()) as { store?: string };
        expect(health.store).toBe(kind);
        const outcome =
          transport === "spawned"
            ? await runAgainst(
                [process.execPath, BUILT_CLI, "adapter", "http"],
                ["--env", `BRIGADE_SERVER=${url}`],
                undefined,
              )
            : await runAgainst(
                ["in-process-http-adapter"],
                ["--env", `BRIGADE_SERVER=${url}`],
                inProcessHttpAdapter(),
              );
        if (!("report" in outcome)) throw new Error(outcome.error);
        const failed = outcome.report.results.filter((r) => r.status !== "pass");
        expect(failed.map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
        expect(outcome.report.results).toHaveLength(82);
        expect(outcome.exitCode).toBe(0);
      },
      15 * 60_000,
    );
  });
}
