import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";

/** File mode of every profile, credential and secret file we write: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Folder mode of every folder holding them: owner only. */
export const PRIVATE_DIR_MODE = 0o700;

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
 * Creates `path` (and missing parents) with mode 0700, then verifies the leaf: a folder that
 * exists with group or other bits is tightened to 0700 and checked again.
 *
 * @throws PrivateFileError `not_private` when the folder stays accessible to others, `io_error`
 * when it cannot be created.
 * @example
 * ensurePrivateDir("/home/dana/.config/brigade/credentials");
 */
export function ensurePrivateDir(path: string): void {
  try {
    mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, PRIVATE_DIR_MODE);
  } catch (cause) {
    throw new PrivateFileError("io_error", { cause });
  }
  if ((statSync(path).mode & 0o077) !== 0) throw new PrivateFileError("not_private");
}

/**
 * Writes `text` to `path` atomically and privately: a fresh temporary file in the same folder is
 * created exclusively **with** mode 0600 (never readable by others at any moment), written,
 * fsynced, its mode verified, then renamed over `path`. The folder must already be private
 * ({@link ensurePrivateDir}). On failure the temporary file is removed and `path` is unchanged.
 *
 * @throws PrivateFileError
 * @example
 * writePrivateFileAtomic(join(dir, "default.json"), '{"token":"…"}\n');
 */
export function writePrivateFileAtomic(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temporary, "wx", PRIVATE_FILE_MODE);
    if ((fstatSync(fd).mode & 0o077) !== 0) throw new PrivateFileError("not_private");
    const bytes = Buffer.from(text, "utf8");
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (cause) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already failing; the original cause is what matters
      }
    }
    try {
      unlinkSync(temporary);
    } catch {
      // it may never have been created
    }
    if (cause instanceof PrivateFileError) throw cause;
    throw new PrivateFileError("io_error", { cause });
  }
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
 * Reads a private file, every check on the open descriptor (no race between check and read):
 * opened without following a symlink and without blocking (a FIFO never hangs a hook), a regular
 * file of at most 1 MiB owned by this user. `missing` when absent; `world_readable` when anyone
 * but its owner may read or write it (any group or other bit: every file is 0600, claude-code.md
 * §7.1; the caller refuses it with `config`); `unreadable` on any other failure, a symlink or a
 * foreign owner included. Never throws.
 *
 * @example
 * const r = readPrivateFile(path); if (r.kind === "ok") JSON.parse(r.text);
 */
export function readPrivateFile(path: string): PrivateFileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT"
      ? { kind: "missing" }
      : { kind: "unreadable" };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_PRIVATE_FILE_BYTES) return { kind: "unreadable" };
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) return { kind: "unreadable" };
    if ((info.mode & 0o077) !== 0) return { kind: "world_readable" };
    return { kind: "ok", text: readFileSync(fd, "utf8") };
  } catch {
    return { kind: "unreadable" };
  } finally {
    closeSync(fd);
  }
}
