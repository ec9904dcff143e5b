import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/**
 * A fresh folder under the temp dir, named `prefix` plus six random characters, removed with
 * everything in it when the calling test finishes (passed or failed). Call it inside a test, or
 * in a helper a test calls; a folder shared by several tests belongs in `beforeAll`/`afterAll`.
 */
export function testTempDir(prefix: string): string {
  // Registered first: outside a test it throws before anything is made.
  let dir: string | undefined;
  onTestFinished(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });
  dir = mkdtempSync(join(tmpdir(), prefix));
  return dir;
}
