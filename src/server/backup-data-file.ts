import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  createFileExclusive,
  createPrivateTempFolder,
  PRIVATE_FILE_MODE,
  type PrivateTempFolderRefusal,
  readLocalFile,
  writeFileAtomic,
} from "../local-files/index.ts";
import { copySqliteOnline, SQLITE_SCHEMA_VERSION } from "../store/sqlite/index.ts";
import { operatorKeyFileFor } from "./operator-key.ts";

/** Why `brigade backup` made no copy. */
export const BACKUP_ERROR_CODES = [
  "backup_source_missing",
  "backup_source_invalid",
  "backup_source_too_new",
  "backup_target_exists",
  "backup_target_is_source",
  "backup_target_not_regular",
  "backup_target_folder_missing",
  "backup_target_folder_shared",
  "backup_copy_replaced",
  "backup_interrupted",
  "backup_failed",
  "backup_check_failed",
] as const;

/** One of {@link BACKUP_ERROR_CODES}. */
export type BackupErrorCode = (typeof BACKUP_ERROR_CODES)[number];

const MESSAGES: Readonly<Record<BackupErrorCode, string>> = {
  backup_source_missing: "the data file does not exist or is not a regular file",
  backup_source_invalid: "the data file is not a Brigade SQLite data file",
  backup_source_too_new:
    "the data file has a newer schema than this program; back it up with the Brigade that runs it",
  backup_target_exists:
    "the output file already exists; choose another name, or pass --force to replace it",
  backup_target_is_source:
    "the output path is the data file or one of the files beside it (-wal, -shm, .operator-key); it is never replaced",
  backup_target_not_regular:
    "the output path is a symbolic link, a folder or another non-regular file; it is never replaced",
  backup_target_folder_missing: "the output file's folder does not exist; create it first",
  backup_target_folder_shared:
    "another user may change the output file's folder (it belongs to someone else, or others may write it and it has no sticky bit); choose a folder only you may change",
  backup_copy_replaced:
    "the temporary copy was replaced while it was made; nothing was written (check who else can write the output file's folder)",
  backup_interrupted: "the backup was interrupted; nothing was written",
  backup_failed:
    "the copy could not be written (disk full, no permission, or the data file is unreadable)",
  backup_check_failed:
    "the copy failed its integrity check; nothing was written (check the data file with PRAGMA integrity_check)",
};

/** `brigade backup` made no copy; the message is fixed and names no path. */
export class BackupError extends Error {
  readonly code: BackupErrorCode;
  constructor(code: BackupErrorCode) {
    super(MESSAGES[code]);
    this.name = "BackupError";
    this.code = code;
  }
}

/** What {@link backupDataFile} wrote. */
export interface BackupResult {
  /** The copy's schema version. */
  readonly schemaVersion: number;
  /** SQLite pages copied. */
  readonly pages: number;
  /** Whether `<out>.operator-key` was written beside the copy. */
  readonly operatorKey: boolean;
}

/** Options of {@link backupDataFile}. */
export interface BackupOptions {
  /** Replace an existing regular file at the output path (never a link or a folder). */
  readonly force?: boolean;
  /** Asked between copy steps; true abandons the copy (`backup_interrupted`). */
  readonly shouldStop?: () => boolean;
}

/**
 * Copies a `brigade serve` data file while the server may be running and writing it: SQLite's
 * online backup makes one consistent snapshot (`copySqliteOnline`) into a fresh temporary
 * (created exclusively, 0600, no link followed) inside a private folder made for it beside `out`
 * (`createPrivateTempFolder`: 0700, ours, in a folder no one else may change, so no other user
 * can swap the temporary or plant a link where SQLite writes it or its journal by name), checks
 * it with `PRAGMA integrity_check`, checks that it is still the very file created (a regular
 * file, same device and inode), and only then puts it at `out`: linked there when nothing is (so
 * an existing file is never replaced by a race), or renamed over an existing regular file with
 * `force`. The operator key digest beside the data file (`<data>.operator-key`), when present, is
 * copied to `<out>.operator-key` the same way, so the copy restores a closed server too. On any
 * failure or interruption the private folder is removed and nothing is left at `out`.
 *
 * @throws BackupError with the first problem found.
 * @example await backupDataFile("/var/lib/brigade/brigade.sqlite", "/backup/brigade-2026-12-03.sqlite");
 */
export async function backupDataFile(
  dataFile: string,
  out: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  if (!isRegularFile(dataFile)) throw new BackupError("backup_source_missing");
  const keyFile = operatorKeyFileFor(dataFile);
  const sources = [dataFile, `${dataFile}-wal`, `${dataFile}-shm`, `${dataFile}-journal`, keyFile];
  // Whatever the spelling (a link, `..`, another hard link): replacing a live file corrupts it.
  for (const target of [out, operatorKeyFileFor(out)]) {
    if (sources.some((source) => sameFile(source, target))) {
      throw new BackupError("backup_target_is_source");
    }
  }
  refuseTarget(out, options.force === true);
  const key = readLocalFile(keyFile, { maxBytes: 4096 });
  if (key.ok) refuseTarget(operatorKeyFileFor(out), options.force === true);

  const folder = createPrivateTempFolder(dirname(out), `.${basename(out)}.tmp-`);
  if (!folder.ok) throw new BackupError(FOLDER_REFUSALS[folder.reason]);
  try {
    const temp = join(folder.path, "copy.sqlite");
    const created = createTemp(temp);
    const copy = await copyInto(dataFile, temp, options.shouldStop ?? (() => false));
    if (options.shouldStop?.() === true) throw new BackupError("backup_interrupted");
    if (!sameEntry(temp, created)) throw new BackupError("backup_copy_replaced");
    place(temp, out, options.force === true);
    if (key.ok) {
      const keyOut = operatorKeyFileFor(out);
      const written =
        options.force === true
          ? writeFileAtomic(keyOut, key.bytes, { mode: PRIVATE_FILE_MODE })
          : createFileExclusive(keyOut, key.bytes, { mode: PRIVATE_FILE_MODE });
      if (!written.ok) {
        // A copy of a closed server without its key would restore a server nobody can administer.
        rmSync(out, { force: true });
        throw new BackupError(
          written.reason === "exists" ? "backup_target_exists" : "backup_failed",
        );
      }
    }
    return { schemaVersion: copy.schemaVersion, pages: copy.pages, operatorKey: key.ok };
  } finally {
    rmSync(folder.path, { recursive: true, force: true });
  }
}

const FOLDER_REFUSALS: Readonly<Record<PrivateTempFolderRefusal, BackupErrorCode>> = {
  parent_missing: "backup_target_folder_missing",
  parent_shared: "backup_target_folder_shared",
  not_private: "backup_failed",
  io_error: "backup_failed",
};

/** Device and inode of a file, to tell later that a path still names it. */
interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** Creates the empty temporary (exclusive, 0600, no link followed) and returns its identity. */
function createTemp(temp: string): FileIdentity {
  let fd: number;
  try {
    fd = openSync(
      temp,
      constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      PRIVATE_FILE_MODE,
    );
  } catch {
    throw new BackupError("backup_failed");
  }
  try {
    const stats = fstatSync(fd);
    return { dev: stats.dev, ino: stats.ino };
  } finally {
    closeSync(fd);
  }
}

/** Whether `path` is, without following a link, the regular file `identity` names. */
function sameEntry(path: string, identity: FileIdentity): boolean {
  try {
    const stats = lstatSync(path);
    return stats.isFile() && stats.dev === identity.dev && stats.ino === identity.ino;
  } catch {
    return false;
  }
}

async function copyInto(
  dataFile: string,
  temp: string,
  shouldStop: () => boolean,
): Promise<{ schemaVersion: number; pages: number }> {
  let copy: Awaited<ReturnType<typeof copySqliteOnline>>;
  try {
    copy = await copySqliteOnline(dataFile, temp, shouldStop);
  } catch (error) {
    if (shouldStop()) throw new BackupError("backup_interrupted");
    const code = (error as { code?: unknown }).code;
    const notDatabase = code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT";
    throw new BackupError(notDatabase ? "backup_source_invalid" : "backup_failed");
  }
  if (copy.schemaVersion === null) throw new BackupError("backup_source_invalid");
  if (copy.schemaVersion > SQLITE_SCHEMA_VERSION) throw new BackupError("backup_source_too_new");
  if (copy.integrity !== "ok") throw new BackupError("backup_check_failed");
  return { schemaVersion: copy.schemaVersion, pages: copy.pages };
}

/** Refuses an output path that exists (unless `force` and a regular file) or is not a file. */
function refuseTarget(path: string, force: boolean): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch {
    return;
  }
  if (!stats.isFile()) throw new BackupError("backup_target_not_regular");
  if (!force) throw new BackupError("backup_target_exists");
}

/** Puts the checked copy at `out`: a link when nothing may be replaced, else an atomic rename. */
function place(temp: string, out: string, force: boolean): void {
  try {
    if (force) {
      refuseTarget(out, true);
      renameSync(temp, out);
    } else linkSync(temp, out);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
    throw new BackupError(exists ? "backup_target_exists" : "backup_failed");
  }
}

/** Whether both paths exist and name the same file (device and inode). */
function sameFile(a: string, b: string): boolean {
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
