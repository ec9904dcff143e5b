import { defineConfig } from "vitest/config";
import { LongFirstSequencer } from "./test/support/long-first-sequencer.ts";

/**
 * Which project runs which test file; each file is in exactly one (test/test-projects.test.ts).
 *
 * - `pure`: the dependency-free codecs and pure cores. No timers, processes, sockets or module
 *   state a test leaves behind, so they share warm worker threads without isolation.
 * - `unit`: everything else that finishes in about a second. Files share their worker processes
 *   (no isolation: importing the modules again for each of 120 files cost a third of the fast
 *   suite's CPU), so a file restores what it changes (env, platform, timers, handlers).
 * - `unit-isolated`: the unit files that replace a module (`vi.mock`): each in its own process,
 *   since a shared module cache would hand them the real module (test/test-projects.test.ts
 *   keeps every such file here).
 * - `slow`: real servers, real child-process worlds, real-time budgets, the whole hostile corpus
 *   and generators that take seconds each (the e2e, pacing, crash and plugin-package runs). Their
 *   tests get a generous default timeout: a loaded machine slows them, it must not fail them.
 * - `conformance`: the suites against real servers: a clean run per store spawning the adapter
 *   per call, the mutants and the three-process run calling it in process (docs/22).
 * - `real-client`: the real Claude Code executable under tmux against a fake Messages API
 *   (docs/47-real-client-tests.md), and the real Codex against a fake Responses API
 *   (docs/49-codex.md); a file per suite and version.
 *
 * `npm run test:fast` runs `pure`, `unit` and `unit-isolated`. `npm test` (scripts/run-tests.mjs)
 * runs every project in two vitest processes side by side: the files that wait on real clocks
 * (`real-client` and the pacing run) four at a time, and the rest on the cores. The files known to
 * take longest start first (LONG_FIRST in test/support/long-first-sequencer.ts), so a run is never
 * left waiting on a long file that started last.
 */
const PURE = [
  "src/formats/**/*.test.ts",
  "src/protocol/**/*.test.ts",
  "src/harness/inbound/**/*.test.ts",
  "src/harness/pacing/**/*.test.ts",
];

/** Unit files that replace a module with `vi.mock`: they need a module cache of their own. */
const ISOLATED = [
  "src/harness/watcher/process-probe-ps.test.ts",
  "src/local-files/local-files.test.ts",
];

const SLOW = [
  "src/**/*.integration.test.ts",
  "test/attachments-memory.test.ts",
  "test/attachments-receive.test.ts",
  "src/harness/hooks/hook-flows.test.ts",
  "src/harness/watcher/watcher-heartbeat.test.ts",
  "src/harness/watcher/watcher-policy.test.ts",
  "src/harness/watcher/watcher-redrive.test.ts",
  "test/cli-demo.test.ts",
  "test/cli-doctor-tls.test.ts",
  "test/cli-help.test.ts",
  "test/cli-install.test.ts",
  "test/cli-smoke.test.ts",
  "test/dashboard-browser.test.ts",
  "test/claude-code-tags.test.ts",
  "test/confusable-table.test.ts",
  "test/corpus.test.ts",
  "test/crash.test.ts",
  "test/faults-postgres.test.ts",
  "test/faults-sqlite.test.ts",
  "test/http-adapter.test.ts",
  "test/mcp-client.test.ts",
  "test/plugin-e2e.test.ts",
  "test/plugin-pacing.test.ts",
  "test/plugin-package.test.ts",
  "test/send-as-me-ancestry.test.ts",
  "test/serve-backup.test.ts",
  "test/serve-health.test.ts",
  "test/serve-metrics.test.ts",
  "test/serve-operator.test.ts",
  "test/serve-tls.test.ts",
  "test/sqlite-schema-upgrade.test.ts",
  "test/postgres-serve.test.ts",
  "test/postgres-dashboard.test.ts",
  "test/postgres-membership-bound.test.ts",
  "test/store-parity.test.ts",
];

const CONFORMANCE = [
  "test/conformance-sqlite.test.ts",
  "test/conformance-postgres.test.ts",
  "test/conformance-multi.test.ts",
  "test/conformance-mutants.test.ts",
];

const REAL_CLIENT = [
  "test/real-claude-code-pinned.test.ts",
  "test/real-claude-code-newest.test.ts",
  "test/real-claude-ack.test.ts",
  "test/real-claude-attachments-pinned.test.ts",
  "test/real-codex-attachments-pinned.test.ts",
  "test/real-claude-states-pinned.test.ts",
  "test/real-claude-states-newest.test.ts",
  "test/real-claude-drop-pinned.test.ts",
  "test/real-claude-drop-newest.test.ts",
  "test/real-claude-hooks.test.ts",
  "test/real-claude-settings.test.ts",
  "test/real-gemini-pinned.test.ts",
  "test/real-gemini-newest.test.ts",
  "test/real-codex-pull-pinned.test.ts",
  "test/real-codex-pull-newest.test.ts",
  "test/real-codex-push-pinned.test.ts",
  "test/real-codex-push-newest.test.ts",
  "test/real-codex-push-live-pinned.test.ts",
  "test/real-codex-push-live-newest.test.ts",
  "test/real-hosts-exchange.test.ts",
  "test/real-qwen-door-pinned.test.ts",
  "test/real-qwen-door-newest.test.ts",
  "test/real-qwen-live-pinned.test.ts",
  "test/real-qwen-live-newest.test.ts",
  "test/real-cline-pinned.test.ts",
  "test/real-cline-newest.test.ts",
  "test/real-opencode-pinned.test.ts",
  "test/real-opencode-newest.test.ts",
  "test/real-relay-chain.test.ts",
];

/** Every test file of the repository; the projects split it. */
const ALL = ["src/**/*.test.ts", "test/**/*.test.ts"];

/** Workers from `BRIGADE_TEST_WORKERS` (1 to 8), else 2. */
function workers(text: string | undefined): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 8 ? n : 2;
}

export default defineConfig({
  test: {
    // The PostgreSQL cluster starts before the run's temp folder exists (its server user must reach
    // its folder, and the run folder is private) and stops after that folder was checked.
    globalSetup: [
      "test/support/postgres-setup.ts",
      "test/support/global-setup.ts",
      "test/support/run-temp-dir.ts",
      // Inside the run's temp folder: HOME and the XDG folders, and the check of the real home.
      "test/support/private-home.ts",
    ],
    // The default reporter, then the budget report (each project's wall time against the budget).
    reporters: ["default", "./test/support/budget-reporter.ts"],
    pool: "forks",
    sequence: { sequencer: LongFirstSequencer },
    // Vitest's default is one worker fewer than the cores: a single worker on a two-core machine.
    // Most files wait on I/O or child processes, so two overlap well even there. scripts/run-tests.mjs
    // asks for more through BRIGADE_TEST_WORKERS (every project inherits this value; vitest's own
    // --maxWorkers would reach the root config alone).
    maxWorkers: workers(process.env.BRIGADE_TEST_WORKERS),
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "pure", include: PURE, pool: "threads", isolate: false },
      },
      {
        extends: true,
        test: {
          name: "unit",
          include: ALL,
          exclude: [...PURE, ...ISOLATED, ...SLOW, ...CONFORMANCE, ...REAL_CLIENT],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "unit-isolated", include: ISOLATED },
      },
      {
        extends: true,
        test: { name: "slow", include: SLOW, testTimeout: 120_000 },
      },
      {
        extends: true,
        test: { name: "conformance", include: CONFORMANCE },
      },
      {
        extends: true,
        test: {
          name: "real-client",
          include: REAL_CLIENT,
          testTimeout: 180_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
