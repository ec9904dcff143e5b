import type Database from "better-sqlite3";
import { attachmentsOfColumn } from "../../service/attachment-column.ts";
import { sendFingerprint } from "../../service/send-fingerprint.ts";
import type { SendCommand, SendOutcome } from "../../service/store.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * Every fact `message send` decides on, read by one statement: the team, the caller's membership,
 * both sessions and the recipient's owner's membership, an earlier message with the same idempotency key, the parent of a reply or the
 * latest message the other way inside the implicit-reply window, the sender's and the principal's
 * sends in the last minute and hour (with the oldest of each, for `retry_after_ms`), and the
 * unacknowledged counts of the pair and of the recipient's inbox. Each lookup uses the index the
 * service's own statements use (sqlite-tx.ts).
 */
const FACTS_SQL = `
SELECT
  t.team_ref IS NOT NULL AS team_exists,
  m.status AS member_status,
  m.human_label AS human_label,
  s.team_ref AS sender_team,
  s.principal_ref AS sender_principal,
  s.closed_at AS sender_closed_at,
  s.session_name AS sender_name,
  r.team_ref AS recipient_team,
  rm.status AS recipient_owner_status,
  (SELECT o.message_id FROM messages o
    WHERE o.sender_session_id = @sender AND o.idempotency_key = @key) AS original_id,
  (SELECT p.hop_count FROM messages p
    WHERE p.message_id = @reply_to AND p.recipient_session_id = @sender) AS parent_hop,
  (SELECT q.hop_count FROM messages q
    WHERE q.sender_session_id = @recipient AND q.recipient_session_id = @sender
      AND q.created_at > @reply_since
    ORDER BY q.created_at DESC, q.seq DESC LIMIT 1) AS previous_hop,
  ws.minute_count AS session_minute, ws.minute_oldest AS session_minute_oldest,
  ws.hour_count AS session_hour, ws.hour_oldest AS session_hour_oldest,
  wp.minute_count AS principal_minute, wp.minute_oldest AS principal_minute_oldest,
  wp.hour_count AS principal_hour, wp.hour_oldest AS principal_hour_oldest,
  (SELECT COUNT(*) FROM messages u
    WHERE u.recipient_session_id = @recipient AND u.acked_at IS NULL
      AND u.sender_session_id = @sender) AS pair_unacked,
  (SELECT COUNT(*) FROM messages u
    WHERE u.recipient_session_id = @recipient AND u.acked_at IS NULL) AS inbox_unacked
FROM (SELECT 1) AS one
LEFT JOIN teams t ON t.team_ref = @team
LEFT JOIN memberships m ON m.team_ref = @team AND m.principal_ref = @principal
LEFT JOIN sessions s ON s.session_id = @sender
LEFT JOIN sessions r ON r.session_id = @recipient
LEFT JOIN memberships rm ON rm.team_ref = r.team_ref AND rm.principal_ref = r.principal_ref
CROSS JOIN (
  SELECT COUNT(*) FILTER (WHERE created_at > @minute) AS minute_count,
    MIN(created_at) FILTER (WHERE created_at > @minute) AS minute_oldest,
    COUNT(*) AS hour_count, MIN(created_at) AS hour_oldest
  FROM messages WHERE sender_session_id = @sender AND created_at > @hour) AS ws
CROSS JOIN (
  SELECT COUNT(*) FILTER (WHERE created_at > @minute) AS minute_count,
    MIN(created_at) FILTER (WHERE created_at > @minute) AS minute_oldest,
    COUNT(*) AS hour_count, MIN(created_at) AS hour_oldest
  FROM messages WHERE sender_principal_ref = @principal AND created_at > @hour) AS wp
`;

/** The row of {@link FACTS_SQL}. */
interface SendFacts {
  team_exists: number;
  member_status: string | null;
  human_label: string | null;
  sender_team: string | null;
  sender_principal: string | null;
  sender_closed_at: number | null;
  sender_name: string | null;
  recipient_team: string | null;
  recipient_owner_status: string | null;
  original_id: string | null;
  parent_hop: number | null;
  previous_hop: number | null;
  session_minute: number;
  session_minute_oldest: number | null;
  session_hour: number;
  session_hour_oldest: number | null;
  principal_minute: number;
  principal_minute_oldest: number | null;
  principal_hour: number;
  principal_hour_oldest: number | null;
  pair_unacked: number;
  inbox_unacked: number;
}

/** The earlier message of an idempotency key: what its fingerprint and its answer need. */
interface OriginalMessage {
  message_id: string;
  recipient_session_id: string;
  body: string;
  summary: string | null;
  reply_to: string | null;
  hop_count: number;
  created_at: number;
  attachments: string | null;
}

/** `retry_after_ms` of a window rule: until its oldest counted send leaves it, at least 1 ms. */
function windowWait(oldest: number | null, windowMs: number, now: number): number {
  return Math.max(1, (oldest ?? now) + windowMs - now);
}

/**
 * `message send` on SQLite in one read and one write (the store's own `Store.sendMessage`): the
 * statements are prepared once on `db`, and each call decides and stores one send at
 * `command.now` inside the caller's unit of work, in the order of docs/spec/protocol.md §6.16
 * steps (b) to (j), with the same answers as the service's `sendInTx` over the unit-of-work
 * methods (the store contract runs its send cases through both). A refusal writes nothing.
 * Synchronous: the group committer runs it without a turn of the event loop per lookup.
 *
 * @example
 * const send = prepareSqliteSend(db); const outcome = send(command);
 */
export function prepareSqliteSend(db: Database.Database): (command: SendCommand) => SendOutcome {
  const facts = db.prepare(FACTS_SQL);
  const original = db.prepare(
    "SELECT message_id, recipient_session_id, body, summary, reply_to, hop_count, created_at, " +
      "attachments FROM messages WHERE message_id = ?",
  );
  const insert = db.prepare(
    "INSERT INTO messages (message_id, team_ref, sender_principal_ref, sender_session_id, " +
      "sender_session_name, sender_human_label, recipient_session_id, summary, body, reply_to, " +
      "hop_count, created_at, acked_at, idempotency_key) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
  );
  return (command) => {
    const { limits, now } = command;
    const f = facts.get({
      team: command.teamRef,
      principal: command.principalRef,
      sender: command.senderSessionId,
      recipient: command.recipientSessionId,
      key: command.idempotencyKey,
      reply_to: command.replyTo,
      reply_since: now - limits.implicitReplyWindowMs,
      minute: now - MINUTE_MS,
      hour: now - HOUR_MS,
    }) as SendFacts;
    if (f.team_exists !== 1 || f.member_status !== "active") {
      return { ok: false, refusal: "unauthorized" };
    }
    if (f.sender_team !== command.teamRef || f.sender_principal !== command.principalRef) {
      return { ok: false, refusal: "not_found" };
    }
    if (f.sender_closed_at !== null) return { ok: false, refusal: "session_closed" };
    // A session of a member who left or was removed is, to every sender, a session that does not
    // exist (as in the service's sendInTx).
    if (f.recipient_team !== command.teamRef || f.recipient_owner_status !== "active") {
      return { ok: false, refusal: "not_found" };
    }
    if (f.original_id !== null) {
      const first = original.get(f.original_id) as OriginalMessage;
      // This path is given sends without attachments: an original that named some differs.
      const same =
        sendFingerprint(
          first.recipient_session_id,
          first.body,
          first.summary,
          first.reply_to,
          attachmentsOfColumn(first.attachments),
        ) ===
        sendFingerprint(command.recipientSessionId, command.body, command.summary, command.replyTo);
      if (!same) return { ok: false, refusal: "idempotency_key_reused" };
      return {
        ok: true,
        duplicate: true,
        message: {
          message_id: first.message_id,
          recipient_session_id: first.recipient_session_id,
          hop_count: first.hop_count,
          created_at: first.created_at,
        },
      };
    }
    let hop: number;
    if (command.replyTo !== null) {
      if (f.parent_hop === null) return { ok: false, refusal: "not_found" };
      hop = f.parent_hop + 1;
    } else hop = f.previous_hop === null ? 0 : f.previous_hop + 1;
    if (hop > limits.maxHopCount) return { ok: false, refusal: "loop_detected" };
    const limited = (
      reason:
        | "send_per_minute"
        | "send_per_hour"
        | "principal_per_minute"
        | "principal_per_hour"
        | "sender_quota_for_recipient"
        | "recipient_inbox_full",
      retryAfterMs: number,
    ): SendOutcome => ({ ok: false, refusal: "rate_limited", reason, retryAfterMs });
    if (f.session_minute >= limits.sendPerMinute) {
      return limited("send_per_minute", windowWait(f.session_minute_oldest, MINUTE_MS, now));
    }
    if (f.session_hour >= limits.sendPerHour) {
      return limited("send_per_hour", windowWait(f.session_hour_oldest, HOUR_MS, now));
    }
    if (f.principal_minute >= limits.principalPerMinute) {
      return limited("principal_per_minute", windowWait(f.principal_minute_oldest, MINUTE_MS, now));
    }
    if (f.principal_hour >= limits.principalPerHour) {
      return limited("principal_per_hour", windowWait(f.principal_hour_oldest, HOUR_MS, now));
    }
    if (f.pair_unacked >= limits.pairCap) {
      return limited("sender_quota_for_recipient", limits.capRetryAfterMs);
    }
    if (f.inbox_unacked >= limits.inboxCap) {
      return limited("recipient_inbox_full", limits.capRetryAfterMs);
    }
    insert.run(
      command.messageId,
      command.teamRef,
      command.principalRef,
      command.senderSessionId,
      f.sender_name,
      f.human_label,
      command.recipientSessionId,
      command.summary,
      command.body,
      command.replyTo,
      hop,
      now,
      command.idempotencyKey,
    );
    return {
      ok: true,
      duplicate: false,
      message: {
        message_id: command.messageId,
        recipient_session_id: command.recipientSessionId,
        hop_count: hop,
        created_at: now,
      },
    };
  };
}
