import { createHash } from "node:crypto";
import { normalizeServerUrl } from "../../adapters/http/index.ts";

/** What every team key starts with (a valid http-adapter profile name, never `default`). */
export const TEAM_KEY_PREFIX = "team-";

/**
 * The team key of a team: the http adapter profile name (and the by-pid map's `team_key`) that
 * holds this machine's credential for `teamRef` on `server`. It is `"team-"` followed by the first
 * 16 lower-case hex digits of `sha256(normalizedServer ␀ teamRef)` (␀ = one 0x00 byte, UTF-8), so
 * it is deterministic, 21 characters, valid for the adapter's profile-name rule
 * (`[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}`), and says nothing readable about the server or the team.
 * The server is normalised with `normalizeServerUrl` first (a trailing `/` does not change the
 * key); text that is not an http(s) URL is hashed as given. Never throws.
 *
 * @example
 * teamKeyFor("http://127.0.0.1:7777/", "t-9c1e") === teamKeyFor("http://127.0.0.1:7777", "t-9c1e");
 * teamKeyFor("http://127.0.0.1:7777", "t-9c1e"); // "team-" + 16 hex digits
 */
export function teamKeyFor(server: string, teamRef: string): string {
  const normalized = normalizeServerUrl(server) ?? server;
  const digest = createHash("sha256").update(`${normalized}\u0000${teamRef}`, "utf8").digest("hex");
  return `${TEAM_KEY_PREFIX}${digest.slice(0, 16)}`;
}
