import type { HeartbeatRequest } from "../../protocol/index.ts";
import type { ByPidMap } from "../state/index.ts";
import { type AdapterFeatures, describeAdapter } from "./adapter-features.ts";
import type { HookContext } from "./hook-context.ts";

/** What {@link heartbeatIfAdvertised} did. */
export type AdvertisedHeartbeatOutcome = "sent" | "not_advertised" | "failed";

/**
 * One `session heartbeat` of the map's session carrying `heartbeat`, sent only when the adapter's
 * `describe` advertises `feature` (an optional member is never sent unadvertised,
 * docs/spec/protocol.md §8). `describe` and the heartbeat together take at most `ms`. `not_advertised` also covers a
 * `describe` that failed; `failed` is an adapter that could not be opened or a heartbeat that was
 * refused or timed out. Never throws; logs nothing (each caller names its own event).
 *
 * @example await heartbeatIfAdvertised(ctx, map, "inbound", { inbound: map.inbound }, 1_000);
 */
export async function heartbeatIfAdvertised(
  ctx: HookContext,
  map: ByPidMap,
  feature: keyof AdapterFeatures,
  heartbeat: HeartbeatRequest,
  ms: number,
): Promise<AdvertisedHeartbeatOutcome> {
  const signal = AbortSignal.timeout(ms);
  try {
    const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
    const described = await describeAdapter(adapter, ms);
    if (!described.ok || !described.features[feature]) return "not_advertised";
    await adapter.sessionHeartbeat(map.brigade_session_id, heartbeat, { signal });
    return "sent";
  } catch {
    return "failed";
  }
}
