import { lstatSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { createFileExclusive, ensurePrivateFolders } from "../../local-files/index.ts";
import type { StateLayout } from "./state-layout.ts";

/**
 * How old a lock must be to count as left behind, ms: well past a hook's 4.5 s budget, so only a
 * hook killed mid-run leaves one this old.
 */
export const SHOWN_LOCK_STALE_MS = 10_000;

/**
 * Takes the session's delivery lock (`state/shown/<stem>.lock`, created exclusively, 0600) for
 * one hook run: Claude Code runs the PostToolUse hooks of parallel tool calls at once, and two
 * runs that fetched the same messages would each print them (the model reading each twice) and
 * each rewrite the shown records. Returns the function that releases it, or `undefined` when
 * another run holds it (that run delivers; this one does nothing). A lock whose file is older
 * than {@link SHOWN_LOCK_STALE_MS} (by the wall clock its time is written in) is taken over.
 * Never throws: a lock that cannot be made at all (an unwritable state folder) lets the run go on
 * unlocked.
 *
 * @example const release = lockShown(layout, "s-1"); if (release) try { … } finally { release(); }
 */
export function lockShown(layout: StateLayout, sessionId: string): (() => void) | undefined {
  const path = layout.shown(sessionId).replace(/\.json$/, ".lock");
  const release = () => rmSync(path, { force: true });
  if (!ensurePrivateFolders(layout.root, dirname(path)).ok) return () => undefined;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const created = createFileExclusive(path, `${process.pid}\n`);
    if (created.ok) return release;
    if (created.reason !== "exists") return () => undefined;
    if (!stale(path)) return undefined;
    release();
  }
  return undefined;
}

function stale(path: string): boolean {
  try {
    return Date.now() - lstatSync(path).mtimeMs > SHOWN_LOCK_STALE_MS;
  } catch {
    // gone meanwhile: the next attempt creates it
    return true;
  }
}
