import type { AckOutcome } from "../../service/store.ts";
import { decodeText } from "./pg-text.ts";
import { SESSION_ACCESS_SQL } from "./postgres-tx.ts";

/**
 * One `message ack` as one statement (parameters: team, principal, session, ids, time in ms): the
 * caller's active membership and ownership of the session, then, only when both hold, the ids
 * addressed to the session now lose their `inbox` row and gain an `acks` row (an earlier ack's
 * time stays). One row comes back: `member`, `owner` and the ids found. Like the fetch, the
 * parameters sit behind a `MATERIALIZED` CTE so the prepared statement keeps one generic plan.
 */
export const ACK_SQL: string =
  "WITH p AS MATERIALIZED (SELECT $1::text AS team, $2::text AS principal, $3::text AS session, " +
  "$4::text[] AS ids, $5::bigint AS at), " +
  "v AS MATERIALIZED (SELECT " +
  `${SESSION_ACCESS_SQL} FROM p), ` +
  "target AS MATERIALIZED (SELECT m.message_id FROM p CROSS JOIN v " +
  "JOIN addressed_messages m ON m.message_id = ANY(p.ids) AND m.recipient_session_id = p.session " +
  "WHERE v.member AND v.owner), " +
  "delivered AS (DELETE FROM inbox WHERE message_id IN (SELECT message_id FROM target)), " +
  "recorded AS (INSERT INTO acks (message_id, acked_at) SELECT t.message_id, p.at FROM target t " +
  "CROSS JOIN p ON CONFLICT (message_id) DO NOTHING) " +
  "SELECT v.member, v.owner, ARRAY(SELECT message_id FROM target) AS found FROM v";

/** The name {@link ACK_SQL} is prepared under on each pooled connection. */
export const ACK_STATEMENT = "brigade_ack_v1";

/** The {@link AckOutcome} of {@link ACK_SQL}'s row (decoded) for the command's `messageIds`. */
export function toAckOutcome(
  records: readonly Record<string, unknown>[],
  messageIds: readonly string[],
): AckOutcome {
  const row = records[0];
  if (row === undefined) throw new Error("the ack statement returned no row");
  if (row.member !== true) return { ok: false, refusal: "unauthorized" };
  if (row.owner !== true) return { ok: false, refusal: "not_found" };
  const ids: unknown[] = Array.isArray(row.found) ? row.found : [];
  const found = new Set(ids.map((id) => (typeof id === "string" ? decodeText(id) : id)));
  return {
    ok: true,
    acked: messageIds.filter((id) => found.has(id)),
    unknown: messageIds.filter((id) => !found.has(id)),
  };
}
