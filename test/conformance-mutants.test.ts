import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { ADAPTER_MUTANTS } from "../src/adapters/http/testing/adapter-mutant-command.ts";
import { parseConformanceArgs } from "../src/conformance/args.ts";
import { CONFORMANCE_MUTANTS, type ConformanceMutant } from "../src/conformance/mutants.ts";
import { runSuite } from "../src/conformance/runner.ts";
import { SERVER_MUTANTS } from "../src/server/testing/server-mutants.ts";
import { inProcessMutantAdapter } from "./support/in-process-adapter.ts";
import {
  buildTestSeams,
  ensureBuilt,
  FAST_SUITE_LIMITS,
  REPO_ROOT,
  startServerProcess,
} from "./support/server-process.ts";

/** Test-only server entry: same flags as `brigade serve`, mutant from `BRIGADE_TEST_MUTANT`. */
const SERVE_MUTANT = join(REPO_ROOT, "dist-test/server/testing/serve-mutant.js");

let child: ChildProcess | undefined;
let dir: string | undefined;

beforeAll(() => {
  ensureBuilt();
  buildTestSeams();
});

afterEach(() => {
  child?.kill("SIGTERM");
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  child = undefined;
  dir = undefined;
});

async function startMutantServer(mutant: ConformanceMutant): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), `conformance-${mutant}-`));
  const server = await startServerProcess(
    join(dir, "brigade.sqlite"),
    { BRIGADE_TEST_MUTANT: mutant },
    [SERVE_MUTANT],
    FAST_SUITE_LIMITS,
  );
  child = server.child;
  return server.url;
}

describe("mutant names", () => {
  test("both testing entries know exactly the mutants of CONFORMANCE_MUTANTS", () => {
    const names = Object.keys(CONFORMANCE_MUTANTS).sort();
    expect([...SERVER_MUTANTS].sort()).toEqual(names);
    expect([...ADAPTER_MUTANTS].sort()).toEqual(names);
  });
});

/**
 * Each mutant's server runs as its own process; the suite calls the mutant adapter entry in this
 * process (the server is the subject here; test/conformance.suite.ts spawns the adapter per call),
 * and stops each case at its first failure: the question is only which cases fail.
 */
describe("positive controls (docs/spec/protocol.md §12.4): each mutant fails exactly its cases", () => {
  test.each(Object.keys(CONFORMANCE_MUTANTS) as ConformanceMutant[])(
    "%s",
    async (mutant) => {
      const url = await startMutantServer(mutant);
      const parsed = parseConformanceArgs([
        "--adapter",
        JSON.stringify(["in-process-mutant-adapter", mutant]),
        "--env",
        `BRIGADE_SERVER=${url}`,
        "--json",
      ]);
      if (!parsed.ok || parsed.help) throw new Error("bad options");
      const outcome = await runSuite(
        parsed.options,
        { verbose: () => {}, caseDone: () => {} },
        { transport: inProcessMutantAdapter(mutant), stopCaseAtFirstFailure: true },
      );
      if (!("report" in outcome)) throw new Error(outcome.error);
      const failed = outcome.report.results.filter((r) => r.status === "fail").map((r) => r.id);
      const reasons = outcome.report.results
        .filter((r) => r.status === "fail")
        .map((r) => `${r.id}: ${r.reason}`)
        .join("\n");
      expect(failed.sort(), reasons).toEqual([...CONFORMANCE_MUTANTS[mutant]].sort());
      expect(outcome.exitCode).toBe(1);
    },
    15 * 60_000,
  );
});
