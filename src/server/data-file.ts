import { chmodSync, closeSync, constants, lstatSync, openSync } from "node:fs";
import { type LocalFileRefusal, openLocalFile, privateToThisUser } from "../local-files/index.ts";

/** Why `brigade serve` refused its data file (or the file's `-wal` / `-shm` companion). */
export const DATA_FILE_ERROR_CODES = [
  "data_file_symlink",
  "data_file_not_regular",
  "data_file_foreign_owner",
  "data_file_not_private",
  "data_folder_missing",
] as const;

/** One of {@link DATA_FILE_ERROR_CODES}. */
export type DataFileErrorCode = (typeof DATA_FILE_ERROR_CODES)[number];

const MESSAGES: Readonly<Record<DataFileErrorCode, string>> = {
  data_file_symlink: "the data file or its -wal/-shm file is a symbolic link",
  data_file_not_regular: "the data file or its -wal/-shm file is not a regular file",
  data_file_foreign_owner: "the data file or its -wal/-shm file belongs to another user",
  data_file_not_private:
    "the data file or its -wal/-shm file is accessible to group or others; make it owner-only (chmod 600)",
  data_folder_missing:
    "the folder of --data does not exist; create it first (mkdir -p -m 700 <folder>) or point --data at an existing folder",
};

/**
 * The data file cannot be used as it is. The message is fixed and never names the path (the
 * operator gave it; logs may be shared).
 */
export class DataFileError extends Error {
  readonly code: DataFileErrorCode;
  constructor(code: DataFileErrorCode) {
    super(MESSAGES[code]);
    this.name = "DataFileError";
    this.code = code;
  }
}

/** The SQLite file and the companions SQLite keeps beside it in WAL mode. */
function companions(path: string): readonly string[] {
  return [path, `${path}-wal`, `${path}-shm`];
}

/** The local-files refusals that make a data file unusable, as this file's error codes. */
const REFUSALS: Partial<Record<LocalFileRefusal, DataFileErrorCode>> = {
  symlink: "data_file_symlink",
  not_regular: "data_file_not_regular",
  not_owned: "data_file_foreign_owner",
  not_private: "data_file_not_private",
};

/**
 * Throws when `file` exists but is not a private regular file of this user. A missing file passes;
 * one that cannot be opened for another reason passes too, and SQLite's own open reports it.
 */
function refuseUnlessPrivate(file: string): void {
  const opened = openLocalFile(file, privateToThisUser());
  if (opened.ok) {
    closeSync(opened.fd);
    return;
  }
  const code = REFUSALS[opened.reason];
  if (code !== undefined) throw new DataFileError(code);
}

/**
 * Opens `brigade serve`'s SQLite store privately. Before anything is created or opened, the data
 * file and its `-wal` / `-shm` files, each when present, must be regular files of this user with
 * no group or other permission bit, and not symbolic links; anything else is refused, never
 * repaired, because what others could read may already have been read. A missing data file is
 * created 0600 (never through a symlink); the store is then opened under umask 077, so the
 * `-wal` and `-shm` files SQLite creates are owner-only whatever the process umask, and each of
 * the three files is set to 0600 once open.
 *
 * @throws DataFileError before the store is opened; whatever `open` throws after.
 * @example
 * const store = openPrivateDataFile("/var/lib/brigade/brigade.sqlite", openSqliteStore);
 */
export function openPrivateDataFile<T>(path: string, open: (path: string) => T): T {
  for (const file of companions(path)) refuseUnlessPrivate(file);
  closeSync(createPrivate(path));
  // Checked again on the path itself: a file swapped in between the check and the create is seen.
  refuseUnlessPrivate(path);
  const store = withPrivateUmask(() => open(path));
  for (const file of companions(path)) {
    try {
      if (lstatSync(file).isFile()) chmodSync(file, 0o600);
    } catch {
      // SQLite may not have created this companion (yet): nothing to tighten.
    }
  }
  return store;
}

function createPrivate(path: string): number {
  try {
    return openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    // O_NOFOLLOW on a symlink created since the check fails with ELOOP.
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new DataFileError("data_file_symlink");
    }
    throw error;
  }
}

/** Runs `work` with the process umask at 077 (where the process may set it), then restores it. */
function withPrivateUmask<T>(work: () => T): T {
  let previous: number | undefined;
  try {
    previous = process.umask(0o077);
  } catch {
    // Worker threads cannot set the umask; the chmod after opening still applies.
  }
  try {
    return work();
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
}
