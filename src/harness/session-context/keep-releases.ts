import { requestRelease } from "../state/index.ts";
import type { SessionContext } from "./session-context.ts";

/**
 * Keeps the releases a heartbeat's answer names (`released_message_ids`: held messages the
 * session's person released on the dashboard, docs/52-dashboard.md) as release requests of the
 * session, exactly as `brigade inbox release` in the person's terminal records them, so the next
 * pull (the `inbox` tool, a hook's poll) delivers them. Ids are kept as given: a release request
 * only ever lets a message held for this session through. Never throws: a file that cannot be
 * written leaves the release to the next heartbeat, which names it again while it is unacked.
 *
 * @example keepReleases(context, answer.released_message_ids);
 */
export function keepReleases(
  context: Pick<SessionContext, "layout" | "uid" | "map">,
  ids: readonly string[] | undefined,
): void {
  if (ids === undefined || ids.length === 0) return;
  try {
    requestRelease(context.layout, context.map.brigade_session_id, ids, context.uid);
  } catch {
    // named again by the next heartbeat
  }
}
