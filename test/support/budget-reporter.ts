import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import type { Reporter, TestModule, TestSpecification } from "vitest/node";

/** The whole `npm test` must finish within this on the two-core machine (docs/00, test layout). */
export const SUITE_BUDGET_MS = 600_000;

/** `npm run test:fast` (the `pure` and `unit` projects alone) must finish within this. */
export const FAST_BUDGET_MS = 60_000;

/** The projects `npm run test:fast` runs. */
const FAST_PROJECTS = new Set(["pure", "unit", "unit-isolated"]);

/**
 * Steps `npm test` ran before vitest, with their wall time, as `name=ms` pairs separated by
 * commas (scripts/test.mjs sets it; a bare vitest run has none).
 */
export const PRE_STEPS_ENV = "BRIGADE_TEST_PRE_STEPS";

/**
 * Where a run writes its test counts as JSON `{ passed, failed, skipped, failures }` (scripts/run-tests.mjs
 * adds up both runs into one closing line and repeats each failure's name and first error line
 * at the very end, where a CI log's tail shows it).
 */
export const COUNTS_FILE_ENV = "BRIGADE_TEST_COUNTS_FILE";

interface Span {
  readonly project: string;
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

/** `name=ms,name=ms` → pairs; anything malformed is left out (a report, never a failure). */
export function parsePreSteps(text: string | undefined): [string, number][] {
  const steps: [string, number][] = [];
  for (const part of (text ?? "").split(",")) {
    const match = /^([a-z][a-z0-9:-]*)=(\d+)$/.exec(part.trim());
    if (match !== null) steps.push([match[1] as string, Number(match[2])]);
  }
  return steps;
}

/** An error message's first line, cut to 300 characters (a pointer into the log, not the log). */
function firstLine(message: string | undefined): string {
  return (message ?? "(no message)").split("\n")[0]?.slice(0, 300) ?? "";
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`.padStart(9);

/**
 * Prints, after every run, each project's wall time (first file started → last file ended; the
 * projects overlap), the busiest files, and the total against {@link SUITE_BUDGET_MS} (or
 * {@link FAST_BUDGET_MS} when only the fast projects ran), with the load average so a figure from a busy machine reads as one. A report, never a failing check: a
 * loaded machine slows the suite, it must not fail it.
 */
export default class BudgetReporter implements Reporter {
  readonly #spans: Span[] = [];
  #runStart = performance.now();

  onTestRunStart(_specifications: ReadonlyArray<TestSpecification>): void {
    this.#runStart = performance.now();
  }

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    const end = performance.now();
    const took = d.prepareDuration + d.environmentSetupDuration + d.setupDuration;
    const spent = took + d.collectDuration + d.duration;
    this.#spans.push({
      project: module.project.name,
      file: module.moduleId.replace(`${module.project.config.root}/`, ""),
      start: end - spent,
      end,
    });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0, failures: [] as string[] };
    for (const module of modules) {
      const file = module.moduleId.replace(`${module.project.config.root}/`, "");
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === "passed") counts.passed++;
        else if (result.state === "failed") {
          counts.failed++;
          counts.failures.push(
            `${file} > ${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`,
          );
        } else counts.skipped++;
      }
      // A file that failed to load has no tests, and fails the run.
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) {
        counts.failed++;
        counts.failures.push(`${file}: ${firstLine(module.errors()[0]?.message)}`);
      }
    }
    const countsFile = process.env[COUNTS_FILE_ENV];
    if (countsFile !== undefined) writeFileSync(countsFile, JSON.stringify(counts));
    const wall = performance.now() - this.#runStart;
    const pre = parsePreSteps(process.env[PRE_STEPS_ENV]);
    const preMs = pre.reduce((sum, [, ms]) => sum + ms, 0);
    const lines = ["", "Test budget (docs/00-architecture.md, test layout):"];
    for (const [name, ms] of pre) lines.push(`  ${name.padEnd(14)}${seconds(ms)}`);
    const projects = [...new Set(this.#spans.map((s) => s.project))];
    for (const project of projects) {
      const mine = this.#spans.filter((s) => s.project === project);
      const span = Math.max(...mine.map((s) => s.end)) - Math.min(...mine.map((s) => s.start));
      lines.push(`  ${project.padEnd(14)}${seconds(span)}  (${mine.length} files)`);
    }
    const slowest = [...this.#spans].sort((a, b) => b.end - b.start - (a.end - a.start));
    lines.push("  slowest files:");
    for (const s of slowest.slice(0, 8)) {
      lines.push(`    ${seconds(s.end - s.start)}  ${s.project}: ${s.file}`);
    }
    const total = wall + preMs;
    const load = loadavg()
      .map((n) => n.toFixed(2))
      .join(" ");
    const fast = projects.every((p) => FAST_PROJECTS.has(p));
    const budget = fast
      ? `${FAST_BUDGET_MS / 1000}-second test:fast`
      : `${SUITE_BUDGET_MS / 60_000}-minute`;
    lines.push(
      `  total ${seconds(total).trim()} of the ${budget} budget` +
        ` (vitest ${seconds(wall).trim()}${pre.length > 0 ? `, before it ${seconds(preMs).trim()}` : ""}; load ${load})`,
    );
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
