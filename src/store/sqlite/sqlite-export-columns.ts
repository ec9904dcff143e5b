/**
 * What `brigade migrate-store` reads of a SQLite data file at the current schema version, and what
 * it leaves behind with why. Between them they name every table and column of the schema:
 * `sqlite-export-columns.test.ts` reads the schema of a fresh file and fails on a column in
 * neither, so a migration that adds a column cannot be forgotten by the copy.
 */

/** A table the export reads. */
export type ExportedTable =
  | "principals"
  | "teams"
  | "memberships"
  | "invitations"
  | "sessions"
  | "messages"
  | "join_failures"
  | "blobs"
  | "blob_uploaders"
  | "blob_chunks";

/**
 * The columns the export reads, per table; its SELECTs are built from these lists. Every one
 * reaches the copy, and its verification reads it back from the target and compares it (a column
 * a target did not keep fails the copy with `verification_failed`). Key columns a query filters
 * on count as read (a blob's uploaders and chunks by its `team_ref`, `sha256` and `content_id`).
 */
export const EXPORTED_COLUMNS: Readonly<Record<ExportedTable, readonly string[]>> = {
  principals: ["principal_ref", "token_digest", "created_at"],
  teams: [
    "team_ref",
    "team_name",
    "secret_digest",
    "creator_principal_ref",
    "offered_to_principal_ref",
    "offer_expires_at",
    "created_at",
    "used_at",
  ],
  memberships: ["team_ref", "principal_ref", "human_label", "status", "joined_at", "updated_at"],
  invitations: [
    "invitation_id",
    "team_ref",
    "secret_digest",
    "created_by",
    "max_uses",
    "uses",
    "created_at",
    "expires_at",
    "last_used_at",
    "revoked_at",
  ],
  sessions: [
    "session_id",
    "team_ref",
    "principal_ref",
    "session_name",
    "activity",
    "inbound",
    "session_description",
    "workspace_label",
    "model",
    "context_used_tokens",
    "brigade_version",
    "sync_peer",
    "live_delivery",
    "live_delivery_at",
    "harness",
    "harness_version",
    "lease_seconds",
    "lease_until",
    "last_seen_at",
    "created_at",
    "closed_at",
  ],
  messages: [
    "message_id",
    "team_ref",
    "sender_principal_ref",
    "sender_session_id",
    "sender_session_name",
    "sender_human_label",
    "recipient_session_id",
    "summary",
    "body",
    "reply_to",
    "hop_count",
    "created_at",
    "acked_at",
    "idempotency_key",
    "attachments",
    "sent_to_session_id",
    "disposition",
    "disposition_at",
    "released_at",
  ],
  join_failures: ["principal_ref", "at"],
  blobs: ["team_ref", "sha256", "size", "content_id", "created_at"],
  blob_uploaders: ["team_ref", "sha256", "principal_ref", "uploaded_at"],
  blob_chunks: ["content_id", "seq", "data"],
};

/** `EXPORTED_COLUMNS[table]` as a SELECT list. */
export function selectList(table: ExportedTable): string {
  return EXPORTED_COLUMNS[table].join(", ");
}

/**
 * Tables the export does not read at all, and why. A whole table goes here only when none of its
 * rows is state a copy must keep; a table the copy rebuilds from another lists its columns in
 * {@link NOT_EXPORTED_COLUMNS} instead, so a column added to it is looked at too.
 */
export const NOT_EXPORTED_TABLES: Readonly<Record<string, string>> = {
  schema_version:
    "the target records its own schema version (the copy opens it at its current one)",
  sqlite_sequence:
    "SQLite's own counter behind messages.seq; the target numbers its rows itself (see messages.seq)",
  web_logins:
    "[ours] one-time dashboard login links live 5 minutes and sign in once: not carried, the " +
    "person runs `brigade dashboard` again (their hourly count of links starts afresh)",
  web_sessions:
    "[ours] dashboard browser sessions live 12 hours at most: not carried, the person signs in " +
    "again with `brigade dashboard`; the copy's summary says how many were live",
};

/**
 * Columns of the tables the export reads (or rebuilds) that it does not read, as `table.column`,
 * and why each loses nothing.
 */
export const NOT_EXPORTED_COLUMNS: Readonly<Record<string, string>> = {
  "messages.seq":
    "the order is carried, not the number: messages are read in seq order and the target " +
    "numbers them as it inserts them, so inboxes, listings and replays keep their order",
  "join_failures.id":
    "the order is carried, not the number: the limiter counts failures per principal and time",
  "message_attachments.message_id":
    "rebuilt: the target's insertMessage writes a message's links from messages.attachments, " +
    "which holds the same blobs in the same order",
  "message_attachments.position": "rebuilt from messages.attachments (see message_id)",
  "message_attachments.team_ref": "rebuilt from messages.attachments (see message_id)",
  "message_attachments.sha256": "rebuilt from messages.attachments (see message_id)",
  "blob_contents.content_id":
    "rebuilt from the blob naming it (blobs.content_id); a content no blob names is an upload " +
    "that never finished (a stopped server cut it off), which the sweep would remove: not carried",
  "blob_contents.team_ref": "rebuilt from the blob naming it (blobs.team_ref)",
  "blob_contents.sha256": "rebuilt from the blob naming it (blobs.sha256, the same digest)",
  "blob_contents.size": "rebuilt from the blob naming it (blobs.size, the same size)",
  "blob_contents.created_at":
    "the copy gives a blob's content the blob's created_at: the content's own time is read only " +
    "while no blob names it (the sweep of unfinished uploads), and such a content is not carried",
};
