import { defineConfig } from "vitest/config";

/** The conformance suites start real servers and spawn hundreds of adapter processes; they run
 * after everything else, one file at a time, so their rate-window cases see a quiet machine. */
const CONFORMANCE = ["test/conformance.test.ts", "test/conformance-mutants.test.ts"];

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: CONFORMANCE,
        },
      },
      {
        extends: true,
        test: {
          name: "conformance",
          include: CONFORMANCE,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
