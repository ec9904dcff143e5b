import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, inject } from "vitest";

/**
 * Compares `actual` byte for byte with the golden file at `path`.
 *
 * The golden is rewritten only when the run was started with the explicit `--update` flag
 * (`npm run goldens`); a missing golden is a failure otherwise, never silently created.
 */
export function expectGolden(path: string, actual: string): void {
  if (inject("updateGoldens")) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual, "utf8");
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(path, "utf8");
  } catch {
    throw new Error(`golden ${path} is missing: review the output and run "npm run goldens"`);
  }
  expect(actual).toBe(expected);
}

/**
 * Fails when `dir` holds a file that no case names (an orphaned golden), or when a case names
 * a file that is not there. `names` are file names relative to `dir`.
 */
export function expectNoOrphanGoldens(dir: string, names: readonly string[]): void {
  if (inject("updateGoldens")) return;
  const present = readdirSync(dir).sort();
  expect(present).toEqual([...new Set(names)].sort());
}

/** The folder `testdata/` beside a test file, from its `import.meta.url`. */
export function testdataDir(metaUrl: string): string {
  return join(dirname(new URL(metaUrl).pathname), "testdata");
}
