#!/usr/bin/env node
// `npm test`: lint, type-check and build, then every vitest project, in two vitest processes side
// by side (docs/00-architecture.md, "Test layout"):
//   - the real-time run: the files that wait minutes on real clocks with little CPU (the real
//     clients under tmux against fake model APIs, and the pacing run), four at a time;
//   - the main run: everything else (pure, unit, unit-isolated, slow, conformance), on the cores.
// The real-time run's output is kept in a file and printed whole once it ends, so the two never
// interleave. Exit 0 only when every step and both runs passed. The budget line at the end adds
// up the wall time against the 10-minute budget.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const BUDGET_S = 600;
/** The files of the real-time run (vitest file filters) and the projects that hold them. */
const REAL_TIME_FILES = [
  "test/plugin-pacing.test.ts",
  "test/real-claude-",
  "test/real-gemini-",
  "test/real-codex-",
  "test/real-hosts-",
  "test/real-qwen-",
  "test/real-cline-",
  "test/real-opencode-",
  "test/real-relay-",
];
const REAL_TIME_PROJECTS = ["slow", "real-client"];
/** Real-time files at once: each mostly waits, on a real client or a real minute. */
const REAL_TIME_WORKERS = "4";
const MAIN_PROJECTS = ["pure", "unit", "unit-isolated", "slow", "conformance"];
/**
 * Workers of the main run: two more than the cores. The three conformance files start first and
 * take about eight minutes each, mostly waiting on their servers; with only three workers every
 * other file waited behind them.
 */
const MAIN_WORKERS = "4";

/** Runs one command; resolves its exit status (a signal counts as 1). */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", ...options });
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

const node = process.execPath;
const bin = (path) => join(root, "node_modules", path);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

const steps = [];
async function step(name, command, args) {
  const started = performance.now();
  const status = await run(command, args);
  steps.push([name, performance.now() - started]);
  if (status !== 0) {
    process.stderr.write(`npm test: ${name} failed (exit ${status})\n`);
    process.exit(status);
  }
}

const started = performance.now();
await step("lint", node, [bin("@biomejs/biome/bin/biome"), "check", "--error-on-warnings", "."]);
await step("typecheck", node, [bin("typescript/bin/tsc"), "-p", "tsconfig.json", "--noEmit"]);
await step("build", node, [bin("typescript/bin/tsc"), "-b", "tsconfig.build.json"]);

const preSteps = steps.map(([name, ms]) => `${name}=${Math.round(ms)}`).join(",");
const vitest = bin("vitest/vitest.mjs");
const logDir = mkdtempSync(join(tmpdir(), "brigade-real-time-log-"));
const realTimeLog = join(logDir, "real-time.log");
/** Each run's test counts, written by its budget reporter (test/support/budget-reporter.ts). */
const countsOf = { main: join(logDir, "main.json"), realTime: join(logDir, "real-time.json") };
const out = createWriteStream(realTimeLog);
const realTimeStart = performance.now();
const realTime = new Promise((resolve) => {
  const child = spawn(
    node,
    [vitest, "run", ...REAL_TIME_PROJECTS.flatMap((p) => ["--project", p]), ...REAL_TIME_FILES],
    {
      cwd: root,
      // No PostgreSQL here: these files run on the embedded store.
      env: {
        ...process.env,
        BRIGADE_TEST_NO_POSTGRES: "1",
        BRIGADE_TEST_WORKERS: REAL_TIME_WORKERS,
        BRIGADE_TEST_COUNTS_FILE: countsOf.realTime,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  child.on("error", () => resolve(1));
  child.on("close", (code) => resolve(code ?? 1));
}).then((status) => {
  steps.push(["real-time run", performance.now() - realTimeStart]);
  return status;
});

const mainStart = performance.now();
const mainStatus = await run(
  node,
  [
    vitest,
    "run",
    ...MAIN_PROJECTS.flatMap((p) => ["--project", p]),
    ...REAL_TIME_FILES.filter((f) => f.endsWith(".ts")).flatMap((f) => ["--exclude", f]),
  ],
  {
    env: {
      ...process.env,
      BRIGADE_TEST_PRE_STEPS: preSteps,
      BRIGADE_TEST_WORKERS: MAIN_WORKERS,
      BRIGADE_TEST_COUNTS_FILE: countsOf.main,
    },
  },
);
steps.push(["main run", performance.now() - mainStart]);
const realTimeStatus = await realTime;
await new Promise((resolve) => out.end(resolve));
process.stdout.write("\n── the real-time run (side by side with the run above) ──\n");
process.stdout.write(readFileSync(realTimeLog, "utf8"));
/** A run's counts; a run that wrote none (it crashed before its end) counts as one failure. */
function counts(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return { passed: 0, failed: 1, skipped: 0, failures: [`${file}: the run wrote no counts`] };
  }
}
const [main, realTimeCounts] = [counts(countsOf.main), counts(countsOf.realTime)];
rmSync(logDir, { recursive: true, force: true });

const total = performance.now() - started;
const parts = steps.map(([name, ms]) => `${name} ${seconds(ms)}`).join(", ");
process.stdout.write(
  `\nnpm test: ${seconds(total)} of the ${BUDGET_S / 60}-minute budget (${parts}; the two vitest runs side by side; load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")})\n`,
);
for (const failure of [...(main.failures ?? []), ...(realTimeCounts.failures ?? [])]) {
  process.stdout.write(`failed: ${failure}\n`);
}
// The closing line in the plain form CI reads: both runs' tests added up.
process.stdout.write(
  `tests: ${main.passed + realTimeCounts.passed} passed, ${main.failed + realTimeCounts.failed} failed, ${main.skipped + realTimeCounts.skipped} skipped\n`,
);
if (mainStatus !== 0) process.stderr.write("npm test: the main run failed\n");
if (realTimeStatus !== 0) process.stderr.write("npm test: the real-time run failed\n");
process.exit(mainStatus !== 0 || realTimeStatus !== 0 ? 1 : 0);
