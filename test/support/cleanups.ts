import { afterEach } from "vitest";

/** Something a test undoes after itself: closes a store, stops a server, drops a schema. */
export type Cleanup = () => Promise<void> | void;

/**
 * The list a test file pushes its cleanups onto. Call it once at the top of the file: after each
 * test, every cleanup pushed during it runs, newest first, one at a time (awaited), and the list
 * is emptied. A cleanup that throws fails that test and leaves the older ones not run.
 *
 * @example const cleanups = cleanupsAfterEach(); cleanups.push(() => store.close());
 */
export function cleanupsAfterEach(): Cleanup[] {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}
