import type { ByPidMap, StateLayout } from "../state/index.ts";
import type { HookContext } from "./hook-context.ts";
import { reportWatcherStopped } from "./watcher-stopped-report.ts";

/**
 * Starts (or confirms) the watcher of the session a by-pid map names, from a hook: the
 * collaborator's `ensureWatcher` with the running CLI script and the hook's environment (the
 * token goes to the watcher by environment only, never to disk). The outcome — and a failure's
 * reason — goes to stderr as `brigade hook: watcher <outcome>[ <reason>]`. When no watcher could
 * be left running, the team is told the session cannot receive live (`reportWatcherStopped`,
 * capped at `reportMs`; skipped below 100 ms). Returns nothing: a caller that must know whether
 * a watcher delivers asks the pidfile (`isWatcherRunning`), which a watcher still starting has
 * not written yet. Never throws.
 *
 * @example await startWatcherFromHook(ctx, layout, map, token, 1_500);
 */
export async function startWatcherFromHook(
  ctx: HookContext,
  layout: StateLayout,
  map: ByPidMap,
  token: string,
  reportMs: number,
): Promise<void> {
  if (await ensureFromHook(ctx, layout, map, token)) return;
  if (reportMs >= 100) await reportWatcherStopped(ctx, map, reportMs);
  else ctx.log("brigade hook: live_report_skipped\n");
}

async function ensureFromHook(
  ctx: HookContext,
  layout: StateLayout,
  map: ByPidMap,
  token: string,
): Promise<boolean> {
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
    return started.outcome !== "failed";
  } catch {
    ctx.log("brigade hook: watcher failed\n");
    return false;
  }
}
