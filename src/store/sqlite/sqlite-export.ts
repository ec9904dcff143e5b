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
import { selectList } from "./sqlite-export-columns.ts";

/** A team with its first-use mark (`null` while never used). */
export interface ExportedTeam extends TeamRow {
  used_at: number | null;
}

/** A message with what changed of it since it was sent (its state: a report, a move, a release). */
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

/** One chunk of a blob's content: its number (from 0) and bytes. */
export interface ExportedChunk {
  seq: number;
  data: Uint8Array;
}

/**
 * The dashboard sign-ins a copy does not carry (`NOT_EXPORTED_TABLES`) that still worked at the
 * time asked: browser sessions neither ended nor expired, and login links neither used nor expired.
 */
export interface LiveBrowserSignIns {
  web_sessions: number;
  web_logins: number;
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
  /** The chunks of a blob's content in `seq` order, read lazily, one at a time. */
  blobChunks(contentId: string): Iterable<ExportedChunk>;
  /** How many browser sign-ins (not carried) still worked at `now` (ms). */
  liveBrowserSignIns(now: number): LiveBrowserSignIns;
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
  const all = <T>(sql: string, ...params: unknown[]) =>
    db.prepare(sql).iterate(...params) as IterableIterator<T>;
  const count = (sql: string, ...params: unknown[]) =>
    db
      .prepare(sql)
      .pluck()
      .get(...params) as number;
  return {
    principals: () =>
      all<PrincipalRow>(
        `SELECT ${selectList("principals")} FROM principals ORDER BY created_at, rowid`,
      ),
    teams: () =>
      all<ExportedTeam>(`SELECT ${selectList("teams")} FROM teams ORDER BY created_at, rowid`),
    memberships: () =>
      all<MembershipRow>(
        `SELECT ${selectList("memberships")} FROM memberships ` +
          "ORDER BY joined_at, team_ref, principal_ref",
      ),
    invitations: () =>
      all<InvitationRow>(
        `SELECT ${selectList("invitations")} FROM invitations ORDER BY created_at, rowid`,
      ),
    sessions: () =>
      all<SessionRow>(`SELECT ${selectList("sessions")} FROM sessions ORDER BY created_at, rowid`),
    messages: () =>
      mapped(
        withAttachments<ExportedMessage>,
        all<ExportedMessage>(`SELECT ${selectList("messages")} FROM messages ORDER BY seq`),
      ),
    joinFailures: () =>
      all<ExportedJoinFailure>(
        `SELECT ${selectList("join_failures")} FROM join_failures ORDER BY id`,
      ),
    blobs: () => {
      const uploaders = db.prepare(
        `SELECT ${selectList("blob_uploaders")} FROM blob_uploaders ` +
          "WHERE team_ref = ? AND sha256 = ? ORDER BY principal_ref",
      );
      const rows = db
        .prepare(`SELECT ${selectList("blobs")} FROM blobs ORDER BY team_ref, sha256`)
        .all() as BlobRow[];
      return rows.map((row) => ({
        ...row,
        uploaders: (
          uploaders.all(row.team_ref, row.sha256) as (BlobUploaderRow & {
            team_ref: string;
            sha256: string;
          })[]
        ).map(({ principal_ref, uploaded_at }) => ({ principal_ref, uploaded_at })),
      }));
    },
    blobChunks: (contentId) =>
      mapped(
        ({ seq, data }) => ({ seq, data }),
        all<ExportedChunk>(
          `SELECT ${selectList("blob_chunks")} FROM blob_chunks WHERE content_id = ? ORDER BY seq`,
          contentId,
        ),
      ),
    liveBrowserSignIns: (now) => ({
      web_sessions: count(
        "SELECT count(*) FROM web_sessions WHERE ended_at IS NULL AND expires_at > ?",
        now,
      ),
      web_logins: count(
        "SELECT count(*) FROM web_logins WHERE used_at IS NULL AND expires_at > ?",
        now,
      ),
    }),
    close: () => {
      if (db.inTransaction) db.exec("COMMIT");
      db.close();
    },
  };
}
