import Database from "better-sqlite3";
import { withAttachments } from "../../service/attachment-column.ts";
import type {
  BlobRow,
  BlobUploaderRow,
  InvitationRow,
  MembershipRow,
  MessageRow,
  MessageStateColumns,
  PrincipalRow,
  SessionRow,
  TeamRow,
} from "../../service/store.ts";
import { SQLITE_SCHEMA_VERSION } from "./schema.ts";

/** A team with its first-use mark (`null` while never used). */
export interface ExportedTeam extends TeamRow {
  used_at: number | null;
}

/** A message with what changed of it since it was sent (its state: a report, a move). */
export type ExportedMessage = MessageRow & MessageStateColumns;

/** A verified blob with every principal that uploaded it (capability `message.attachments`). */
export interface ExportedBlob extends BlobRow {
  uploaders: BlobUploaderRow[];
}

/** One recorded failed join. */
export interface ExportedJoinFailure {
  principal_ref: string;
  at: number;
}

/**
 * Everything a store holds, in an order a copy can insert it (referenced rows first; sessions and
 * messages in their original insertion order, which listing and inbox order rest on).
 */
export interface StoreSnapshot {
  principals(): Iterable<PrincipalRow>;
  teams(): Iterable<ExportedTeam>;
  memberships(): Iterable<MembershipRow>;
  /** Every invitation (only digests of their secrets, as the store keeps them). */
  invitations(): Iterable<InvitationRow>;
  sessions(): Iterable<SessionRow>;
  messages(): Iterable<ExportedMessage>;
  joinFailures(): Iterable<ExportedJoinFailure>;
  /**
   * Every verified blob with its uploaders, in `(team_ref, sha256)` order, read at once (a few
   * short rows each); a copy inserts them before the messages that name them.
   */
  blobs(): readonly ExportedBlob[];
  /** The chunks of a blob's content in order (`seq` from 0), read lazily, one at a time. */
  blobChunks(contentId: string): Iterable<Uint8Array>;
}

/** Why a SQLite file cannot be exported. */
export const SQLITE_EXPORT_REFUSALS = [
  "not_a_brigade_file",
  "source_schema_outdated",
  "source_schema_too_new",
] as const;
/** One of {@link SQLITE_EXPORT_REFUSALS}. */
export type SqliteExportRefusal = (typeof SQLITE_EXPORT_REFUSALS)[number];

/** A SQLite file that cannot be exported (value-free: the reason only, never the path). */
export class SqliteExportError extends Error {
  readonly code = "source_unreadable" as const;
  readonly reason: SqliteExportRefusal;
  constructor(reason: SqliteExportRefusal) {
    super(`the source database cannot be exported (${reason})`);
    this.name = "SqliteExportError";
    this.reason = reason;
  }
}

/** An open, read-only {@link StoreSnapshot} of a SQLite file; `close` ends the snapshot. */
export interface SqliteExport extends StoreSnapshot {
  close(): void;
}

const SESSION_COLUMNS =
  "session_id, team_ref, principal_ref, session_name, activity, inbound, session_description, " +
  "workspace_label, model, context_used_tokens, brigade_version, sync_peer, live_delivery, live_delivery_at, " +
  "harness, harness_version, lease_seconds, lease_until, last_seen_at, created_at, closed_at";

/** `rows` with `map` applied to each, lazily. */
function* mapped<T>(map: (row: T) => T, rows: Iterable<T>): Iterable<T> {
  for (const row of rows) yield map(row);
}

/**
 * Opens `path` read-only and takes one consistent snapshot of it (a read transaction held until
 * `close`, so a server still writing the file cannot tear the copy). The file must carry the
 * current schema (`brigade serve` migrates it on start); else `SqliteExportError`
 * (`source_schema_outdated` / `source_schema_too_new` / `not_a_brigade_file`). Rows are read lazily.
 *
 * @example const source = openSqliteExport("brigade.sqlite"); …; source.close();
 */
export function openSqliteExport(path: string): SqliteExport {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT version FROM schema_version").get() as
      | { version: number }
      | undefined;
    if (row === undefined) throw new SqliteExportError("not_a_brigade_file");
    if (row.version < SQLITE_SCHEMA_VERSION) throw new SqliteExportError("source_schema_outdated");
    if (row.version > SQLITE_SCHEMA_VERSION) throw new SqliteExportError("source_schema_too_new");
  } catch (error) {
    db.close();
    if (error instanceof SqliteExportError) throw error;
    throw new SqliteExportError("not_a_brigade_file");
  }
  db.exec("BEGIN");
  // A deferred transaction takes its snapshot at the first read; take it now.
  db.prepare("SELECT count(*) FROM principals").get();
  const all = <T>(sql: string) => db.prepare(sql).iterate() as IterableIterator<T>;
  return {
    principals: () =>
      all<PrincipalRow>(
        "SELECT principal_ref, token_digest, created_at FROM principals ORDER BY created_at, rowid",
      ),
    teams: () =>
      all<ExportedTeam>(
        "SELECT team_ref, team_name, secret_digest, creator_principal_ref, " +
          "offered_to_principal_ref, created_at, used_at " +
          "FROM teams ORDER BY created_at, rowid",
      ),
    memberships: () =>
      all<MembershipRow>(
        "SELECT team_ref, principal_ref, human_label, status, joined_at, updated_at " +
          "FROM memberships ORDER BY joined_at, team_ref, principal_ref",
      ),
    invitations: () =>
      all<InvitationRow>(
        "SELECT invitation_id, team_ref, secret_digest, created_by, max_uses, uses, created_at, " +
          "expires_at, last_used_at, revoked_at FROM invitations ORDER BY created_at, rowid",
      ),
    sessions: () =>
      all<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY created_at, rowid`),
    messages: () =>
      mapped(
        withAttachments<ExportedMessage>,
        all<ExportedMessage>(
          "SELECT message_id, team_ref, sender_principal_ref, sender_session_id, " +
            "sender_session_name, sender_human_label, recipient_session_id, summary, body, " +
            "reply_to, hop_count, created_at, acked_at, idempotency_key, attachments, " +
            "sent_to_session_id, disposition, disposition_at FROM messages ORDER BY seq",
        ),
      ),
    joinFailures: () =>
      all<ExportedJoinFailure>("SELECT principal_ref, at FROM join_failures ORDER BY id"),
    blobs: () => {
      const uploaders = db.prepare(
        "SELECT principal_ref, uploaded_at FROM blob_uploaders WHERE team_ref = ? AND sha256 = ? " +
          "ORDER BY principal_ref",
      );
      const rows = db
        .prepare(
          "SELECT team_ref, sha256, size, content_id, created_at FROM blobs ORDER BY team_ref, sha256",
        )
        .all() as BlobRow[];
      return rows.map((row) => ({
        ...row,
        uploaders: uploaders.all(row.team_ref, row.sha256) as BlobUploaderRow[],
      }));
    },
    blobChunks: (contentId) =>
      db
        .prepare("SELECT data FROM blob_chunks WHERE content_id = ? ORDER BY seq")
        .pluck()
        .iterate(contentId) as IterableIterator<Uint8Array>,
    close: () => {
      if (db.inTransaction) db.exec("COMMIT");
      db.close();
    },
  };
}
