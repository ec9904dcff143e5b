import type { ByPidMap } from "../state/index.ts";
import { heartbeatIfAdvertised } from "./advertised-heartbeat.ts";
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
  const outcome = await heartbeatIfAdvertised(
    ctx,
    map,
    "liveDelivery",
    { live_delivery: "no", live_delivery_reason: "watcher_stopped" },
    ms,
  );
  if (outcome === "sent") ctx.log("brigade hook: live_reported watcher_stopped\n");
  if (outcome === "failed") ctx.log("brigade hook: live_report_failed\n");
}
