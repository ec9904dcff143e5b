/**
 * Waits until no push lane of a person runs any more: after the Qwen Code TUI is closed, each
 * lane sees its client process gone at its next tick, closes its door (removing the door's own
 * inbox folder from the run's temp folder) and deletes its pidfile `watchers/<pid>.json`.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../plugin-world.ts";

/** Resolves once `stateDir/watchers` holds no pidfile (at most `ms`). */
export async function lanesGone(stateDir: string, ms = 20_000): Promise<void> {
  await waitFor(
    () => {
      try {
        return !readdirSync(join(stateDir, "watchers")).some((n) => /^\d+\.json$/.test(n));
      } catch {
        return true;
      }
    },
    ms,
    "the push lanes to end",
  );
}
