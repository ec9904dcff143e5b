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
import {
  buildTestSeams,
  ensureBuilt,
  REPO_ROOT,
  startServerProcess,
} from "./support/server-process.ts";

/** Test-only server entry: same flags as `brigade serve`, mutant from `BRIGADE_TEST_MUTANT`. */
const SERVE_MUTANT = join(REPO_ROOT, "dist-test/server/testing/serve-mutant.js");
/** Test-only adapter entry: `--test-mutant <name>` then the `brigade adapter http` argv. */
const ADAPTER_MUTANT = join(REPO_ROOT, "dist-test/adapters/http/testing/adapter-mutant.js");

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

describe("positive controls (docs/spec/protocol.md §12.4): each mutant fails exactly its cases", () => {
  test.each(Object.keys(CONFORMANCE_MUTANTS) as ConformanceMutant[])(
    "%s",
    async (mutant) => {
      const url = await startMutantServer(mutant);
      const adapter = [
        process.execPath,
        ADAPTER_MUTANT,
        "--test-mutant",
        mutant,
        "adapter",
        "http",
      ];
      const parsed = parseConformanceArgs([
        "--adapter",
        JSON.stringify(adapter),
        "--env",
        `BRIGADE_SERVER=${url}`,
        "--json",
      ]);
      if (!parsed.ok || parsed.help) throw new Error("bad options");
      const outcome = await runSuite(parsed.options, { verbose: () => {}, caseDone: () => {} });
      if (!("report" in outcome)) throw new Error(outcome.error);
      const failed = outcome.report.results.filter((r) => r.status === "fail").map((r) => r.id);
      expect(failed.sort()).toEqual([...CONFORMANCE_MUTANTS[mutant]].sort());
      expect(outcome.exitCode).toBe(1);
    },
    15 * 60_000,
  );
});
