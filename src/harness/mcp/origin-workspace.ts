import { isValidProfileName, ProfileStore } from "../../adapters/http/index.ts";
import type { SessionContext } from "../session-context/index.ts";

/** What every origin workspace `brigade mcp` writes starts with. */
export const WORKSPACE_PREFIX = "brigade:";

/**
 * The `workspace` of the agent-message sentinel on a message `brigade mcp` delivers
 * (docs/48-mcp.md, docs/14-agent-message.md): `brigade:<team_ref>@<host>`, the team's stable ref
 * and the host (lower case, with the port only when it is not the scheme's default) of the
 * server it lives on. The sender is a teammate on another machine, never local to the receiving
 * one, and sender and receiver always share the team and its server, so this names where the
 * sender is. Without a parsable server address: `brigade:<team_ref>`. Pure.
 *
 * @example originWorkspace("t-46f0", "https://Brigade.example.com:443/") === "brigade:t-46f0@brigade.example.com"
 */
export function originWorkspace(teamRef: string, serverUrl: string | undefined): string {
  let host = "";
  if (serverUrl !== undefined && URL.canParse(serverUrl)) host = new URL(serverUrl).host;
  return `${WORKSPACE_PREFIX}${teamRef}${host === "" ? "" : `@${host}`}`;
}

/**
 * {@link originWorkspace} of a bound session: its map's `team_ref` and the server of its
 * credential profile (`config_dir`, `team_key`). An unreadable profile leaves the host out.
 * Never throws.
 *
 * @example sessionWorkspace(ctx) // "brigade:t-46f0@brigade.example.com"
 */
export function sessionWorkspace(ctx: Pick<SessionContext, "map" | "configDir">): string {
  const teamKey = ctx.map.team_key;
  const profile = isValidProfileName(teamKey)
    ? new ProfileStore(ctx.configDir, teamKey).readProfile()
    : undefined;
  const server = profile?.kind === "ok" ? profile.value.server : undefined;
  return originWorkspace(ctx.map.team_ref, server);
}
