import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConformanceOptions } from "./args.ts";
import type { ConformanceCase, Fixture } from "./case.ts";
import { ALL_CASES } from "./cases/index.ts";
import { CaseFailure, CaseSkip, SuiteContext } from "./context.ts";
import { scanTree } from "./file-scan.ts";
import { setUpFixture } from "./fixture.ts";
import { type CaseResult, type ConformanceReport, summarize } from "./report.ts";
import { shuffleWithSeed } from "./shuffle.ts";
import type { AdapterTransport } from "./transport.ts";

/**
 * What a run produced: the exit status of docs/spec/protocol.md §12.1 and, unless it stopped early,
 * the report.
 */
export type SuiteOutcome =
  | { readonly exitCode: 0 | 1; readonly report: ConformanceReport; readonly runDir: string }
  | { readonly exitCode: 2 | 3; readonly error: string };

/** Where the runner reports progress (`-v` lines and each finished case). */
export interface SuiteListener {
  readonly verbose: (line: string) => void;
  readonly caseDone: (result: CaseResult) => void;
}

/** How a run reaches its adapter and how much it proves of each failing case. */
export interface SuiteRunOptions {
  /** The adapter transport; default: spawn `options.adapter` per call (the suite's contract). */
  readonly transport?: AdapterTransport;
  /**
   * Stop a case at its first recorded failure. A run whose question is only which cases fail (a
   * mutant's positive control) needs no more; a run that reports reasons to a person keeps going.
   */
  readonly stopCaseAtFirstFailure?: boolean;
}

/**
 * Chooses the cases to run: `--only`, `--skip`, `--tags`, and `slow` cases only with `--slow`
 * (or when named by `--only`). Unknown ids and an empty selection are usage errors.
 *
 * @example selectCases(ALL_CASES, options) // { ok: true, cases: [...] }
 */
export function selectCases(
  all: readonly ConformanceCase[],
  options: Pick<ConformanceOptions, "only" | "skip" | "tags" | "slow">,
): { ok: true; cases: ConformanceCase[] } | { ok: false; reason: string } {
  const known = new Set(all.map((c) => c.id));
  for (const id of [...(options.only ?? []), ...options.skip]) {
    if (!known.has(id)) return { ok: false, reason: "unknown case id" };
  }
  const cases = all.filter((c) => {
    if (options.only !== undefined && !options.only.includes(c.id)) return false;
    if (options.skip.includes(c.id)) return false;
    if (options.tags.length > 0 && !c.tags.some((t) => options.tags.includes(t))) return false;
    const named = options.only?.includes(c.id) === true || options.tags.includes("slow");
    return !c.tags.includes("slow") || options.slow || named;
  });
  return cases.length === 0 ? { ok: false, reason: "no case selected" } : { ok: true, cases };
}

async function runCase(ctx: SuiteContext, c: ConformanceCase, fx: Fixture): Promise<CaseResult> {
  ctx.log = { failures: [], notes: [] };
  const started = performance.now();
  let status: CaseResult["status"] = "pass";
  let reason = "";
  const missing = c.capabilities.filter((cap) => !ctx.capabilities.has(cap));
  if (missing.length > 0) {
    status = "skip";
    reason = `adapter lacks ${missing.join(", ")}`;
  } else {
    try {
      await c.run(ctx, fx);
    } catch (error) {
      if (error instanceof CaseSkip) {
        status = "skip";
        reason = error.message;
      } else if (error instanceof CaseFailure) {
        // A case stopped at its first failure throws the reason already recorded.
        if (!ctx.log.failures.includes(error.message)) ctx.log.failures.push(error.message);
      } else {
        ctx.log.failures.push(
          `suite error: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    if (ctx.log.failures.length > 0) {
      status = "fail";
      reason = ctx.log.failures.join("; ");
    }
  }
  const result: CaseResult = {
    id: c.id,
    rule: c.rule,
    status,
    duration_ms: Math.round(performance.now() - started),
    reason,
    ...(ctx.log.notes.length > 0 ? { notes: [...ctx.log.notes] } : {}),
  };
  return result;
}

/**
 * Runs the suite of docs/spec/protocol.md §12: builds the run directory and fixture, runs the
 * selected cases (in `--shuffle` order when given), scans the run directory for secrets (attributed
 * to C-05), and returns the report. Exit 3 when the fixture cannot be built (adapter missing, team
 * setup refused, lease too short); exit 2 for a bad selection.
 */
export async function runSuite(
  options: ConformanceOptions,
  listener: SuiteListener,
  run: SuiteRunOptions = {},
): Promise<SuiteOutcome> {
  const selection = selectCases(ALL_CASES, options);
  if (!selection.ok) return { exitCode: 2, error: selection.reason };
  const started = performance.now();
  const runDir = mkdtempSync(join(tmpdir(), "brigade-conformance-"));
  const ctx = new SuiteContext(options, runDir, listener.verbose, run.transport);
  const cleanup = (): void => {
    ctx.transport.close();
    if (!options.keepTemp) rmSync(runDir, { recursive: true, force: true });
  };
  let fx: Fixture | undefined;
  try {
    fx = await setUpFixture(ctx);
  } catch (error) {
    ctx.log.failures.push(error instanceof Error ? error.message : String(error));
  }
  if (ctx.log.failures.length > 0 || fx === undefined) {
    cleanup();
    return { exitCode: 3, error: `fixture: ${ctx.log.failures.join("; ")}` };
  }
  const ordered =
    options.shuffle === undefined
      ? selection.cases
      : shuffleWithSeed(selection.cases, options.shuffle);
  const results: CaseResult[] = [];
  ctx.stopAtFirstFailure = run.stopCaseAtFirstFailure === true;
  for (const c of ordered) {
    listener.verbose(`${c.id} …`);
    const result = await runCase(ctx, c, fx);
    results.push(result);
    if (c.id !== "C-05") listener.caseDone(result);
  }
  const leaks = scanTree(runDir, ctx.secrets).map((hit) => `on disk: ${hit}`);
  const index = results.findIndex((r) => r.id === "C-05");
  const c05 = results[index];
  if (c05 !== undefined) {
    if (leaks.length > 0) {
      const reason = [c05.reason, ...leaks].filter((s) => s !== "").join("; ");
      results[index] = { ...c05, status: "fail", reason };
    }
    listener.caseDone(results[index] as CaseResult);
  } else if (leaks.length > 0) {
    const rule = ALL_CASES.find((c) => c.id === "C-05")?.rule ?? "";
    const leak: CaseResult = {
      id: "C-05",
      rule,
      status: "fail",
      duration_ms: 0,
      reason: leaks.join("; "),
    };
    results.push(leak);
    listener.caseDone(leak);
  }
  const d = ctx.describeResult;
  const adapter = (d.adapter ?? {}) as Record<string, unknown>;
  const summary = summarize(results);
  const report: ConformanceReport = {
    adapter: {
      name: String(adapter.name ?? ""),
      version: String(adapter.version ?? ""),
      command: options.adapter,
    },
    protocol_version: String(d.protocol_version ?? ""),
    capabilities: [...ctx.capabilities],
    results,
    summary,
    duration_ms: Math.round(performance.now() - started),
    ...(options.shuffle !== undefined ? { shuffle: options.shuffle.toString() } : {}),
  };
  cleanup();
  return { exitCode: summary.fail > 0 ? 1 : 0, report, runDir };
}
