import { withAttachments } from "../../service/attachment-column.ts";
import type { FetchOutcome, MessageRow } from "../../service/store.ts";
import { MESSAGE_COLUMNS, SESSION_ACCESS_SQL } from "./postgres-tx.ts";

/**
 * One watch's fetch as one statement (parameters: team, principal, session, ids): the caller's
 * active membership and ownership of the session, and the still-unacknowledged messages among the
 * ids addressed to the session now, in the ids' order. One row always comes back (`member`,
 * `owner`, and NULL message columns when no message is due); a row per message otherwise. A
 * single statement reads one snapshot, as the service's unit of work does.
 */
export const FETCH_SQL: string =
  "WITH p AS MATERIALIZED (SELECT $1::text AS team, $2::text AS principal, $3::text AS session, " +
  "$4::text[] AS ids) " +
  "SELECT v.member, v.owner, r.* FROM p CROSS JOIN LATERAL (SELECT " +
  `${SESSION_ACCESS_SQL}) v ` +
  `LEFT JOIN LATERAL (SELECT ${MESSAGE_COLUMNS}, ids.ord ` +
  "FROM unnest(p.ids) WITH ORDINALITY AS ids(id, ord) " +
  "JOIN addressed_messages m ON m.message_id = ids.id " +
  "LEFT JOIN acks a ON a.message_id = m.message_id " +
  "WHERE v.member AND v.owner AND m.recipient_session_id = p.session AND a.acked_at IS NULL) r " +
  "ON true ORDER BY r.ord";

/**
 * The name {@link FETCH_SQL} is prepared under on each pooled connection. Planning this statement
 * (a view, two lateral joins, two EXISTS) costs about ten times its execution, and a watch runs
 * it once per delivery: prepared, each connection plans it once (then PostgreSQL's plan cache
 * settles on a generic plan) instead of once per message.
 */
export const FETCH_STATEMENT = "brigade_fetch_v1";

type FetchRow = MessageRow & { member: boolean; owner: boolean; ord: number | null };

/** The {@link FetchOutcome} of {@link FETCH_SQL}'s rows (already decoded). */
export function toFetchOutcome(records: readonly Record<string, unknown>[]): FetchOutcome {
  const rows = records as unknown as readonly FetchRow[];
  const first = rows[0];
  if (first === undefined) throw new Error("the fetch statement returned no row");
  if (!first.member) return { ok: false, refusal: "unauthorized" };
  if (!first.owner) return { ok: false, refusal: "not_found" };
  const messages: MessageRow[] = [];
  for (const row of rows) {
    if (row.message_id === null) continue;
    const { member: _member, owner: _owner, ord: _ord, ...message } = row;
    messages.push(withAttachments(message));
  }
  return { ok: true, messages };
}
