import type { ByPidMap, StateLayout } from "../state/index.ts";
import type { HookContext } from "./hook-context.ts";

/**
 * Starts (or confirms) the watcher of the session a by-pid map names, from a hook: the
 * collaborator's `ensureWatcher` with the running CLI script and the hook's environment (the
 * token goes to the watcher by environment only, never to disk). The outcome — and a failure's
 * reason — goes to stderr as `brigade hook: watcher <outcome>[ <reason>]`. Never throws.
 *
 * @example await startWatcherFromHook(ctx, layout, map, token);
 */
export async function startWatcherFromHook(
  ctx: HookContext,
  layout: StateLayout,
  map: ByPidMap,
  token: string,
): Promise<void> {
  try {
    const started = await ctx.services.ensureWatcher({
      layout,
      map,
      entryScript: ctx.entryScript,
      token,
      env: ctx.env as NodeJS.ProcessEnv,
    });
    const reason = started.reason === undefined ? "" : ` ${started.reason}`;
    ctx.log(`brigade hook: watcher ${started.outcome}${reason}\n`);
  } catch {
    ctx.log("brigade hook: watcher failed\n");
  }
}
