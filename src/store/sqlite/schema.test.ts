import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import { migrate, SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION } from "./schema.ts";

function messageIndexes(db: Database.Database): string[] {
  return (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
}

function plan(db: Database.Database, sql: string, ...params: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
    .map((r) => r.detail)
    .join(" | ");
}

/** The indexes a message insert maintains from version 2 on: one per access path. */
const EXPECTED_MESSAGE_INDEXES = [
  "messages_acked_gc",
  "messages_by_principal",
  "messages_idempotency",
  "messages_recipient_state",
  "messages_sender_window",
  "messages_unacked_gc",
  "sqlite_autoindex_messages_1",
];

describe("schema migrations", () => {
  test("a version-1 file is brought to the current version with its rows kept and indexes replaced", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL) STRICT");
    db.exec(SQLITE_MIGRATIONS[0] as string);
    db.exec("INSERT INTO schema_version (version) VALUES (1)");
    db.exec(
      "INSERT INTO principals VALUES ('p-1', 'd', 0); INSERT INTO teams VALUES ('t-1', 'core', 'x', 'p-1', 0);" +
        "INSERT INTO memberships VALUES ('t-1', 'p-1', NULL, 'active', 0, 0);" +
        "INSERT INTO sessions (session_id, team_ref, principal_ref, session_name, activity, inbound, harness, " +
        "harness_version, lease_seconds, lease_until, last_seen_at, created_at) " +
        "VALUES ('s-1', 't-1', 'p-1', 'one', 'busy', 'accept', 'h', '1', 90, 0, 0, 0);" +
        "INSERT INTO messages (message_id, team_ref, sender_principal_ref, sender_session_id, sender_session_name, " +
        "recipient_session_id, body, hop_count, created_at) VALUES ('m-1', 't-1', 'p-1', 's-1', 'one', 's-1', 'b', 0, 5)",
    );
    expect(messageIndexes(db)).toContain("messages_by_pair");
    expect(migrate(db)).toBe(SQLITE_SCHEMA_VERSION);
    expect(SQLITE_SCHEMA_VERSION).toBe(12);
    expect(messageIndexes(db)).toEqual(EXPECTED_MESSAGE_INDEXES);
    expect(db.prepare("SELECT message_id FROM messages").all()).toEqual([{ message_id: "m-1" }]);
    // A team older than the mark counts as used: the retention sweep never guesses otherwise.
    expect(db.prepare("SELECT used_at FROM teams").all()).toEqual([{ used_at: 0 }]);
    // A message older than message states has none reported and was never adopted.
    expect(
      db.prepare("SELECT disposition, disposition_at, sent_to_session_id FROM messages").all(),
    ).toEqual([{ disposition: null, disposition_at: null, sent_to_session_id: null }]);
    expect(() => db.exec("UPDATE messages SET disposition = 'read'")).toThrow(/CHECK/);
    // A session older than live delivery never said whether it can receive live.
    expect(db.prepare("SELECT live_delivery, live_delivery_at FROM sessions").all()).toEqual([
      { live_delivery: null, live_delivery_at: null },
    ]);
    // A team older than transfer offers has none standing, so none has an end.
    expect(
      db.prepare("SELECT offered_to_principal_ref, offer_expires_at FROM teams").all(),
    ).toEqual([{ offered_to_principal_ref: null, offer_expires_at: null }]);
    // A team older than invitations has none.
    expect(db.prepare("SELECT COUNT(*) AS n FROM invitations").get()).toEqual({ n: 0 });
    // A message older than attachments names none.
    expect(db.prepare("SELECT attachments FROM messages").all()).toEqual([{ attachments: null }]);
    expect(migrate(db)).toBe(SQLITE_SCHEMA_VERSION);
  });

  test("migration 12: an offer standing at the upgrade gets the whole 7 days from then; a team without one gets no end", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE schema_version (version INTEGER NOT NULL) STRICT");
    for (const sql of SQLITE_MIGRATIONS.slice(0, 11)) db.exec(sql);
    db.exec("INSERT INTO schema_version (version) VALUES (11)");
    db.exec(
      "INSERT INTO principals VALUES ('p-1', 'd1', 0), ('p-2', 'd2', 0);" +
        "INSERT INTO teams (team_ref, team_name, secret_digest, creator_principal_ref, created_at, " +
        "offered_to_principal_ref) VALUES ('t-1', 'offered', 'x', 'p-1', 0, 'p-2'), " +
        "('t-2', 'plain', 'y', 'p-1', 0, NULL)",
    );
    const before = Date.now();
    expect(migrate(db)).toBe(12);
    const after = Date.now();
    const rows = db
      .prepare("SELECT team_ref, offer_expires_at FROM teams ORDER BY team_ref")
      .all() as { team_ref: string; offer_expires_at: number | null }[];
    const week = 7 * 24 * 3600 * 1000;
    expect(rows[1]).toEqual({ team_ref: "t-2", offer_expires_at: null });
    const end = rows[0]?.offer_expires_at ?? 0;
    // julianday carries about a millisecond; allow 5 ms either side of the upgrade's moment.
    expect(end).toBeGreaterThanOrEqual(before + week - 5);
    expect(end).toBeLessThanOrEqual(after + week + 5);
  });

  test("a fresh file gets the same indexes, and every hot count stays inside an index", () => {
    const db = new Database(":memory:");
    migrate(db);
    expect(messageIndexes(db)).toEqual(EXPECTED_MESSAGE_INDEXES);
    const covering = (sql: string, index: string, ...params: unknown[]) =>
      expect(plan(db, sql, ...params)).toContain(`USING COVERING INDEX ${index}`);
    covering(
      "SELECT COUNT(*), MIN(created_at) FROM messages WHERE sender_session_id = ? AND created_at > ?",
      "messages_sender_window",
      "s",
      0,
    );
    covering(
      "SELECT COUNT(*), MIN(created_at) FROM messages WHERE sender_principal_ref = ? AND created_at > ?",
      "messages_by_principal",
      "p",
      0,
    );
    covering(
      "SELECT COUNT(*) FROM messages WHERE recipient_session_id = ? AND sender_session_id = ? AND acked_at IS NULL",
      "messages_recipient_state",
      "r",
      "s",
    );
    covering(
      "SELECT COUNT(*) FROM messages WHERE recipient_session_id = ? AND acked_at IS NULL",
      "messages_recipient_state",
      "r",
    );
    covering(
      "SELECT hop_count FROM messages WHERE sender_session_id = ? AND recipient_session_id = ? AND created_at > ? " +
        "ORDER BY created_at DESC, seq DESC LIMIT 1",
      "messages_sender_window",
      "s",
      "r",
      0,
    );
    covering(
      "SELECT COUNT(*), MIN(created_at) FROM teams WHERE creator_principal_ref = ? AND created_at > ?",
      "teams_by_creator",
      "p",
      0,
    );
    // A sender's listing of its latest messages walks its window index backwards, no sort.
    const sentPlan = plan(
      db,
      "SELECT message_id FROM messages WHERE sender_session_id = ? ORDER BY created_at DESC, seq DESC LIMIT 20",
      "s",
    );
    expect(sentPlan).toContain("messages_sender_window (sender_session_id=?)");
    // Deleting a session finds its messages (ON DELETE CASCADE) through an index, not a scan.
    expect(plan(db, "DELETE FROM sessions WHERE session_id = ?", "s")).toContain(
      "messages_recipient_state (recipient_session_id=?)",
    );
    // A blob's recipients are found from the blob (its links), never by scanning messages, and a
    // content's chunks by their own index.
    const named = plan(
      db,
      "SELECT 1 FROM message_attachments a JOIN messages m ON m.message_id = a.message_id " +
        "JOIN sessions s ON s.session_id = m.recipient_session_id " +
        "WHERE a.team_ref = ? AND a.sha256 = ? AND s.principal_ref = ?",
      "t",
      "h",
      "p",
    );
    expect(named).toContain("message_attachments_by_blob (team_ref=? AND sha256=?)");
    expect(named).not.toMatch(/SCAN m\b/);
    expect(
      plan(db, "SELECT data FROM blob_chunks WHERE content_id = ? AND seq = ?", "c", 0),
    ).toContain("blob_chunks_by_content (content_id=? AND seq=?)");
    expect(
      plan(db, "SELECT COALESCE(SUM(size), 0) FROM blob_contents WHERE team_ref = ?", "t"),
    ).toContain("USING COVERING INDEX blob_contents_by_team (team_ref=?)");
  });
});
