import type { ByPidMap } from "../state/index.ts";
import type { HookContext } from "./hook-context.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";

/**
 * `session close` of the Brigade session a by-pid map names, through that map's adapter profile
 * (`config_dir` + `team_key`), capped at `HOOK_LIMITS.closeMs` (1 s). A map without a config dir
 * is not closed. Used at SessionEnd and when SessionStart retires the session a pid served before
 * `/clear`. Returns whether the close succeeded; a failure is left to lease expiry. Never throws.
 *
 * @example if (!(await closeMappedSession(ctx, map))) ctx.log("brigade hook: close_failed\n");
 */
export async function closeMappedSession(
  ctx: HookContext,
  map: Pick<ByPidMap, "config_dir" | "team_key" | "brigade_session_id">,
): Promise<boolean> {
  if (map.config_dir === "") return false;
  try {
    const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
    await adapter.sessionClose(map.brigade_session_id, {
      signal: AbortSignal.timeout(HOOK_LIMITS.closeMs),
    });
    return true;
  } catch {
    return false;
  }
}
