import type Database from "better-sqlite3";
import { withAttachments } from "../../service/attachment-column.ts";
import type {
  AckCommand,
  AckOutcome,
  FetchCommand,
  FetchOutcome,
  MessageRow,
  SessionRefusal,
} from "../../service/store.ts";

/**
 * The two checks every session verb starts with, in one statement: the caller is an active
 * member of an existing team (`member`), and the session is the caller's in that team (`owned`).
 * The same as the service's `sessionRefusal` over the unit-of-work methods.
 */
const ACCESS_SQL = `
SELECT
  EXISTS (SELECT 1 FROM teams t JOIN memberships m ON m.team_ref = t.team_ref
    WHERE t.team_ref = @team AND m.principal_ref = @principal AND m.status = 'active') AS member,
  EXISTS (SELECT 1 FROM sessions s
    WHERE s.session_id = @session AND s.team_ref = @team AND s.principal_ref = @principal) AS owned
`;

/** A watch's fetch and a `message ack`, each decided by the store in one synchronous step. */
export interface SqliteSessionOps {
  /** `Store.fetchMessages`: see {@link prepareSqliteSessionOps}. */
  fetch(command: FetchCommand): FetchOutcome;
  /** `Store.ackMessages`: see {@link prepareSqliteSessionOps}. */
  ack(command: AckCommand): AckOutcome;
}

/**
 * The SQLite store's own fetch and ack (`Store.fetchMessages`, `Store.ackMessages`), prepared once
 * on `db` and run inside the caller's unit of work without a turn of the event loop per lookup:
 * the access checks in one statement (`unauthorized` when the caller is not an active member of
 * the team, else `not_found` when the session is not the caller's), then one statement per id.
 * The fetch returns the still-unacknowledged messages among the ids that are addressed to the
 * session now, in the ids' order; the ack acknowledges each id addressed to the session now at
 * `command.at` (an earlier ack's time stays) and lists it `acked`, the others `unknown`. A refusal
 * acknowledges nothing. The same answers as the service's `fetchInTx` and `ackInTx` (the store
 * contract runs its cases through both).
 *
 * @example
 * const ops = prepareSqliteSessionOps(db); const outcome = ops.fetch(command);
 */
export function prepareSqliteSessionOps(db: Database.Database): SqliteSessionOps {
  const access = db.prepare(ACCESS_SQL);
  const due = db.prepare(
    "SELECT message_id, team_ref, sender_principal_ref, sender_session_id, sender_session_name, " +
      "sender_human_label, recipient_session_id, summary, body, reply_to, hop_count, created_at, " +
      "acked_at, idempotency_key, attachments FROM messages " +
      "WHERE message_id = ? AND recipient_session_id = ? AND acked_at IS NULL",
  );
  const ack = db.prepare(
    "UPDATE messages SET acked_at = COALESCE(acked_at, ?) " +
      "WHERE message_id = ? AND recipient_session_id = ?",
  );
  const refusal = (command: FetchCommand): SessionRefusal | null => {
    const row = access.get({
      team: command.teamRef,
      principal: command.principalRef,
      session: command.sessionId,
    }) as { member: number; owned: number };
    if (row.member !== 1) return { ok: false, refusal: "unauthorized" };
    if (row.owned !== 1) return { ok: false, refusal: "not_found" };
    return null;
  };
  return {
    fetch(command) {
      const refused = refusal(command);
      if (refused !== null) return refused;
      const messages: MessageRow[] = [];
      for (const id of command.messageIds) {
        const row = due.get(id, command.sessionId) as MessageRow | undefined;
        if (row !== undefined) messages.push(withAttachments(row));
      }
      return { ok: true, messages };
    },
    ack(command) {
      const refused = refusal(command);
      if (refused !== null) return refused;
      const acked: string[] = [];
      const unknown: string[] = [];
      for (const id of command.messageIds) {
        if (ack.run(command.at, id, command.sessionId).changes > 0) acked.push(id);
        else unknown.push(id);
      }
      return { ok: true, acked, unknown };
    },
  };
}
