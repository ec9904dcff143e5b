import { rmSync } from "node:fs";
import { readByPidMap } from "../state/index.ts";
import { closeMappedSession } from "./close-mapped-session.ts";
import type { HookContext } from "./hook-context.ts";
import type { HookInput } from "./hook-input.ts";
import { clearRegistrationRetry } from "./registration-retry.ts";
import { stopPidWatcher } from "./session-connect.ts";
import { hookSession } from "./session-start-hook.ts";

/** SessionEnd reasons after which the same process continues with another conversation. */
export const CONTINUING_END_KINDS: readonly string[] = ["clear", "resume"];

/**
 * The SessionEnd hook (docs/spec/claude-code.md §1.4, §7.3), inside 1.4 s. After `clear` / `resume`
 * it does nothing: the SessionStart that follows in the same process renews or replaces the map,
 * replaces the watcher and closes the old session. Otherwise: delete the by-pid map (the watcher
 * also exits when its map is gone) and the retry marker, keep the by-native hint, then stop the
 * watcher and `session close` (capped at 1 s) side by side. Prints nothing. Never throws.
 *
 * @example await runSessionEnd(input, ctx);
 */
export async function runSessionEnd(input: HookInput, ctx: HookContext): Promise<void> {
  if (CONTINUING_END_KINDS.includes(input.reason)) return;
  const where = hookSession(ctx);
  if (where === undefined) return;
  const read = readByPidMap({ claudePid: where.claudePid, env: ctx.env, uid: ctx.uid });
  clearRegistrationRetry(where.layout, where.claudePid);
  if (!read.ok) {
    ctx.log(`brigade hook: ${read.reason}\n`);
    return;
  }
  const map = read.map;
  try {
    rmSync(where.layout.byPid(where.claudePid), { force: true });
  } catch {
    ctx.log("brigade hook: map_not_removed\n");
  }
  const stop = stopPidWatcher(ctx, where.layout, where.claudePid);
  const close = (async () => {
    if (map.config_dir !== "" && !(await closeMappedSession(ctx, map))) {
      ctx.log("brigade hook: close_failed\n");
    }
  })();
  await Promise.all([stop, close]);
}
