import Database from "better-sqlite3";

/** What {@link copySqliteOnline} found and made. */
export interface SqliteCopy {
  /** The copied file's `schema_version`, or `null` when it has none (not a Brigade data file). */
  readonly schemaVersion: number | null;
  /** `PRAGMA integrity_check` of the copy: `"ok"`, or SQLite's first complaint. */
  readonly integrity: string;
  /** Pages copied. */
  readonly pages: number;
}

/** Most pages SQLite may copy in one backup step: all of them, so the copy is one snapshot. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database at `source` into `destination` (an empty or missing file) with
 * SQLite's online backup API while other processes keep reading and writing the source: the
 * pages are copied in one step under one read transaction, so the copy is exactly the database
 * as of one commit (writers are not blocked: the source runs in WAL mode). A write landing
 * between steps makes SQLite restart the copy, so the result is always one consistent snapshot.
 * Then the copy is opened on its own and checked with `PRAGMA integrity_check`.
 * `shouldStop` is asked between steps; when it answers true the copy is abandoned (rejects).
 * Throws what SQLite throws (`source` missing or not a database).
 *
 * @example const copy = await copySqliteOnline("/var/lib/brigade/brigade.sqlite", "/backup/b.sqlite");
 */
export async function copySqliteOnline(
  source: string,
  destination: string,
  shouldStop: () => boolean = () => false,
): Promise<SqliteCopy> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  let pages = 0;
  try {
    db.pragma("busy_timeout = 5000");
    const progress = await db.backup(destination, {
      progress: () => {
        if (shouldStop()) throw new Error("backup stopped");
        return ALL_PAGES;
      },
    });
    pages = progress.totalPages;
  } finally {
    db.close();
  }
  const copy = new Database(destination, { fileMustExist: true });
  try {
    const integrity = String(copy.pragma("integrity_check", { simple: true }));
    const hasVersion = copy
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
      .get();
    const row =
      hasVersion === undefined
        ? undefined
        : (copy.prepare("SELECT version FROM schema_version").get() as
            | { version: number }
            | undefined);
    return { schemaVersion: row?.version ?? null, integrity, pages };
  } finally {
    copy.close();
  }
}
