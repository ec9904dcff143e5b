/**
 * The text of one watch announcement on the PostgreSQL channel (docs/51-postgres.md):
 * `<origin>|<item>,<item>…` where `<origin>` names the announcing process (so it can skip its own)
 * and each item is `m:<session_id>` (new messages for that session) or
 * `r:<principal_ref>/<team_ref>` (that membership ended). PostgreSQL caps a payload below
 * 8000 bytes; {@link MAX_ANNOUNCE_ITEMS_CHARS} keeps ours well inside.
 */

/** Most characters of the items part of one payload. */
export const MAX_ANNOUNCE_ITEMS_CHARS = 7000;

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const ORIGIN = /^[a-z0-9]{1,32}$/;

/** The item announcing new messages for `sessionId`. */
export function messagesItem(sessionId: string): string {
  return `m:${sessionId}`;
}

/** The item announcing that `principalRef`'s membership of `teamRef` ended. */
export function membershipEndedItem(principalRef: string, teamRef: string): string {
  return `r:${principalRef}/${teamRef}`;
}

/** One payload: `origin`, then the items (already built by the functions above). */
export function encodeAnnouncement(origin: string, items: readonly string[]): string {
  return `${origin}|${items.join(",")}`;
}

/** What one payload says. Malformed items are skipped; the rest still count. */
export interface Announcement {
  readonly origin: string;
  readonly sessionIds: readonly string[];
  readonly memberships: readonly { readonly principalRef: string; readonly teamRef: string }[];
}

/**
 * Parses a payload heard on the channel. Never throws: anything that is not a payload of ours is
 * `{ ok: false, reason: "malformed" }`, and an item that is not one of ours is skipped.
 *
 * @example parseAnnouncement("a1|m:s-1,r:p-1/t-1") // ok, sessionIds ["s-1"], one membership
 */
export function parseAnnouncement(
  payload: unknown,
): { ok: true; value: Announcement } | { ok: false; reason: "malformed" } {
  if (typeof payload !== "string" || payload.length > 8000)
    return { ok: false, reason: "malformed" };
  const bar = payload.indexOf("|");
  const origin = payload.slice(0, bar);
  if (bar < 0 || !ORIGIN.test(origin)) return { ok: false, reason: "malformed" };
  const sessionIds: string[] = [];
  const memberships: { principalRef: string; teamRef: string }[] = [];
  for (const item of payload.slice(bar + 1).split(",")) {
    const body = item.slice(2);
    if (item.startsWith("m:") && ID.test(body)) {
      sessionIds.push(body);
    } else if (item.startsWith("r:")) {
      const [principalRef, teamRef, extra] = body.split("/");
      if (
        extra === undefined &&
        principalRef !== undefined &&
        teamRef !== undefined &&
        ID.test(principalRef) &&
        ID.test(teamRef)
      ) {
        memberships.push({ principalRef, teamRef });
      }
    }
  }
  return { ok: true, value: { origin, sessionIds, memberships } };
}
