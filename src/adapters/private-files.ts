import {
  ensurePrivateFolder,
  type LocalWriteResult,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  privateToThisUser,
  readLocalFile,
  writeFileAtomic,
} from "../local-files/index.ts";

/**
 * The adapters' view of the local-file rules (`src/local-files/`): the same checks, with a thrown
 * {@link PrivateFileError} for writes and the three outcomes the adapters act on for reads.
 */

/** File mode of every profile, credential and secret file we write: owner read/write only. */
/** Folder mode of every folder holding them: owner only. */
export { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE };

/** Why {@link ensurePrivateDir} or {@link writePrivateFileAtomic} failed. */
export const PRIVATE_FILE_ERROR_CODES = ["not_private", "io_error"] as const;

/** A private-file failure code. */
export type PrivateFileErrorCode = (typeof PRIVATE_FILE_ERROR_CODES)[number];

/**
 * A private folder or file could not be made or kept owner-only. The message is fixed: it never
 * names the path (which may contain a user name) or the content.
 *
 * @example
 * try { writePrivateFileAtomic(p, text); } catch (e) { if (e instanceof PrivateFileError) … }
 */
export class PrivateFileError extends Error {
  /** `not_private` (mode could not be made owner-only) or `io_error`. */
  readonly code: PrivateFileErrorCode;
  constructor(code: PrivateFileErrorCode, options?: { readonly cause?: unknown }) {
    super(
      code === "not_private" ? "a private file is accessible to others" : "file I/O failed",
      options,
    );
    this.name = "PrivateFileError";
    this.code = code;
  }
}

/**
 * Throws the {@link PrivateFileError} of a failed local write: `not_private` stays `not_private`,
 * every other reason (`exists`, `changed_meanwhile`, `io_error`) is `io_error`.
 *
 * @throws PrivateFileError when `result` is a failure.
 * @example throwUnlessWritten(writeFileAtomic(path, text));
 */
export function throwUnlessWritten(result: LocalWriteResult): void {
  if (!result.ok) {
    throw new PrivateFileError(result.reason === "not_private" ? "not_private" : "io_error");
  }
}

/**
 * Creates `path` (and missing parents) 0700, tightening a loose existing folder
 * (`ensurePrivateFolder`).
 *
 * @throws PrivateFileError `not_private` when the folder stays accessible to others, `io_error`
 * when it cannot be created.
 * @example
 * ensurePrivateDir("/home/dana/.config/brigade/credentials");
 */
export function ensurePrivateDir(path: string): void {
  throwUnlessWritten(ensurePrivateFolder(path));
}

/**
 * Writes `text` to `path` atomically and privately (`writeFileAtomic`: a temporary created 0600,
 * fsynced, renamed over `path`). The folder must already be private ({@link ensurePrivateDir}).
 * On failure `path` is unchanged and no temporary is left.
 *
 * @throws PrivateFileError `not_private` or `io_error`.
 * @example
 * writePrivateFileAtomic(join(dir, "default.json"), '{"token":"…"}\n');
 */
export function writePrivateFileAtomic(path: string, text: string): void {
  throwUnlessWritten(writeFileAtomic(path, text));
}

/** What {@link readPrivateFile} found. */
export type PrivateFileRead =
  | { readonly kind: "missing" }
  | { readonly kind: "world_readable" }
  | { readonly kind: "unreadable" }
  | { readonly kind: "ok"; readonly text: string };

/** Largest profile or credential file read, bytes (ours are a few hundred). */
const MAX_PRIVATE_FILE_BYTES = 1_048_576;

/**
 * Reads a private file through `readLocalFile` (no symlink followed, no FIFO hang, a regular file
 * of at most 1 MiB owned by this user, checked on the open descriptor). `missing` when nothing is
 * there (a path through a file included); `world_readable` when any group or other bit is set
 * (every file is 0600, docs/spec/claude-code.md §7.1; the caller refuses it with `config`) — this
 * check comes before the size, so a loose file over the cap is `world_readable` too;
 * `unreadable` on any other refusal (a symlink, a FIFO, a folder, a foreign owner, too large).
 * Where the platform has no uids (`process.getuid` absent) owner and mode are not checked.
 * Never throws.
 *
 * @example
 * const r = readPrivateFile(path); if (r.kind === "ok") JSON.parse(r.text);
 */
export function readPrivateFile(path: string): PrivateFileRead {
  const read = readLocalFile(path, { maxBytes: MAX_PRIVATE_FILE_BYTES, ...privateToThisUser() });
  if (read.ok) {
    const { buffer, byteOffset, byteLength } = read.bytes;
    return { kind: "ok", text: Buffer.from(buffer, byteOffset, byteLength).toString("utf8") };
  }
  if (read.reason === "missing") return { kind: "missing" };
  if (read.reason === "not_private") return { kind: "world_readable" };
  return { kind: "unreadable" };
}
