import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Names the run's own temp folder in the environment, so the projects set up one between them. */
const MARKER = "BRIGADE_TEST_RUN_TMPDIR";

/**
 * Gives the whole test run a temp folder of its own and holds every test to cleaning up after
 * itself. Before any worker starts, `TMPDIR` points at a fresh folder: workers, the servers,
 * CLIs and watchers they spawn, and `os.tmpdir()` everywhere all land there. At the end of the
 * run that folder must be empty — anything left is named and fails the run — and is removed.
 * Other runs on the same machine (another checkout, a concurrent run) never count, because
 * only this run's folder is checked. With `E2E_KEEP` set (keep the e2e worlds for inspection)
 * the folder is kept and its path printed instead.
 *
 * Every project inherits this setup; the first one to run creates the folder, the others find
 * it through {@link MARKER} and leave it alone.
 */
export default function setup(): (() => void) | undefined {
  if (process.env[MARKER] !== undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "brigade-test-run-"));
  process.env[MARKER] = dir;
  process.env.TMPDIR = dir;
  return () => {
    const left = readdirSync(dir);
    if (process.env.E2E_KEEP !== undefined) {
      console.log(`E2E_KEEP: the run's temp folders are kept in ${dir}`);
      return;
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    if (left.length > 0) {
      // Vitest reports an error thrown at teardown but keeps the exit status of the tests.
      process.exitCode = 1;
      throw new Error(
        `the tests left ${left.length} temp folder(s) behind (each test removes what it makes): ${left.sort().join(", ")}`,
      );
    }
  };
}
