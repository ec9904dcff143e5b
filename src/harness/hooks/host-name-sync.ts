import { basename } from "node:path";
import { registeredName } from "../../formats/sanitize/index.ts";
import {
  claudeConfigDir,
  FALLBACK_SESSION_NAME,
  readSessionRegistry,
} from "../claude-code/index.ts";
import { type ByPidMap, writeByPidMap } from "../state/index.ts";
import { defaultNamePerson, defaultSessionName } from "./default-session-name.ts";
import type { HookContext } from "./hook-context.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import { isoSeconds } from "./session-connect.ts";
import type { HookSession } from "./session-start-hook.ts";

/**
 * The name Claude Code now gives this session, when it should replace the registered one: the
 * registry's name when the person set it (`nameSource` `user`: `--name` or `/rename`), or its
 * automatic name while the registered one is only the folder's name or the fallback (the registry
 * may not have existed yet at SessionStart), alone or as the base of a default name
 * `<person>-<base>-claude-code`, which then becomes `<person>-<automatic name>-claude-code`.
 * Through `registeredName`; `undefined` when nothing should change.
 *
 * @example hostNameUpdate({ name: "billing", nameSource: "user" }, "api", "/w/api") === "billing"
 */
export function hostNameUpdate(
  registry: { readonly name: string; readonly nameSource: string },
  current: string,
  cwd: string,
): string | undefined {
  const name = registeredName(registry.name);
  if (name === "" || name === current) return undefined;
  if (registry.nameSource === "user") return name;
  if (registry.nameSource !== "derived") return undefined;
  // The placeholders: the folder's name or the fallback, alone (an older registration) or as
  // the base of a default name `<person>-<base>-claude-code`, whose person part is kept.
  const folder = cwd === "" ? "" : basename(cwd);
  if (current === FALLBACK_SESSION_NAME || (folder !== "" && current === folder)) return name;
  const person =
    (folder === "" ? undefined : defaultNamePerson(current, folder, FALLBACK_SESSION_NAME)) ??
    defaultNamePerson(current, "", FALLBACK_SESSION_NAME);
  if (person === undefined) return undefined;
  const updated = defaultSessionName(person, name, FALLBACK_SESSION_NAME);
  return updated === current ? undefined : updated;
}

/**
 * At a prompt, carries a name the person gave the session in Claude Code (`/rename`) to the team:
 * one `session heartbeat` with `session_name` (capped by `policyHeartbeatMs` and the prompt
 * budget), then the by-pid map. A failure is only logged; the next prompt tries again. Never
 * throws.
 *
 * @example map = await syncHostName(input.cwd, ctx, where, map, deadline);
 */
export async function syncHostName(
  cwd: string,
  ctx: HookContext,
  where: HookSession,
  map: ByPidMap,
  deadline: number,
): Promise<ByPidMap> {
  const registry = readSessionRegistry(claudeConfigDir(ctx.env), where.claudePid);
  const name = hostNameUpdate(registry, map.session_name, cwd);
  if (name === undefined) return map;
  const ms = Math.min(HOOK_LIMITS.policyHeartbeatMs, deadline - ctx.now() - 200);
  if (ms < 100) return map;
  try {
    const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
    await adapter.sessionHeartbeat(
      map.brigade_session_id,
      { session_name: name },
      { signal: AbortSignal.timeout(ms) },
    );
  } catch {
    ctx.log("brigade hook: rename_failed\n");
    return map;
  }
  const updated: ByPidMap = { ...map, session_name: name, updated_at: isoSeconds(ctx.now()) };
  try {
    writeByPidMap(where.layout, updated);
  } catch {
    ctx.log("brigade hook: map_write_failed\n");
  }
  return updated;
}
