import type { ByPidMap } from "../state/index.ts";
import { describeAdapter } from "./adapter-features.ts";
import type { HookContext } from "./hook-context.ts";

/**
 * Tells the team that this session cannot receive live because no watcher runs and the hook
 * could not start one (docs/42-hooks.md, "The watcher's state"): one `session heartbeat`
 * `{live_delivery: "no", live_delivery_reason: "watcher_stopped"}`, only when the adapter
 * advertises `session.live_delivery`, with `describe` and the heartbeat together capped at `ms`.
 * A watcher started later says `"yes"` again at its first heartbeat. Logged to stderr as
 * `brigade hook: live_reported watcher_stopped` or `brigade hook: live_report_failed`; never
 * throws.
 *
 * @example await reportWatcherStopped(ctx, map, 1_500);
 */
export async function reportWatcherStopped(
  ctx: HookContext,
  map: ByPidMap,
  ms: number,
): Promise<void> {
  const signal = AbortSignal.timeout(ms);
  try {
    const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
    const described = await describeAdapter(adapter, ms);
    if (!described.ok || !described.features.liveDelivery) return;
    await adapter.sessionHeartbeat(
      map.brigade_session_id,
      { live_delivery: "no", live_delivery_reason: "watcher_stopped" },
      { signal },
    );
    ctx.log("brigade hook: live_reported watcher_stopped\n");
  } catch {
    ctx.log("brigade hook: live_report_failed\n");
  }
}
