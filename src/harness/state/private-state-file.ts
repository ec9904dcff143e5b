import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, rmSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import { ensurePrivateDir, writePrivateFileAtomic } from "../../adapters/index.ts";

/**
 * What {@link readPrivateStateFile} found: `ok` with the raw bytes; `missing`; `not_private` (a
 * symlink, not a regular file, group/other permission bits, or another owner); `too_large`;
 * `unreadable` (any other failure).
 *
 * @example const r = readPrivateStateFile(path, { maxBytes: 65_536, uid: process.getuid!() });
 */
export type PrivateStateRead =
  | { readonly kind: "ok"; readonly bytes: Uint8Array }
  | { readonly kind: "missing" }
  | { readonly kind: "not_private" }
  | { readonly kind: "too_large" }
  | { readonly kind: "unreadable" };

/** Options of {@link readPrivateStateFile}. */
export interface PrivateStateReadOptions {
  /** The largest accepted file, bytes. */
  readonly maxBytes: number;
  /** Our uid: the file must be owned by it. */
  readonly uid: number;
}

// O_NONBLOCK: a planted FIFO must not hang the open; the fstat below refuses it anyway.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens a state file as a trust boundary: without following a symlink (`O_NOFOLLOW`), then on the
 * open descriptor (`fstat`, no race with a swap): a regular file, no group/other permission bits,
 * owned by `uid`, at most `maxBytes` (read up to one byte more, so a file growing after the fstat
 * is still caught). Never throws.
 *
 * @example if (r.kind === "ok") parse(r.bytes);
 */
export function readPrivateStateFile(
  path: string,
  options: PrivateStateReadOptions,
): PrivateStateRead {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    if (code === "ELOOP" || code === "EMLINK") return { kind: "not_private" };
    return { kind: "unreadable" };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || (info.mode & 0o077) !== 0 || info.uid !== options.uid) {
      return { kind: "not_private" };
    }
    if (info.size > options.maxBytes) return { kind: "too_large" };
    const buffer = Buffer.alloc(options.maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > options.maxBytes) return { kind: "too_large" };
    return { kind: "ok", bytes: buffer.subarray(0, length) };
  } catch {
    return { kind: "unreadable" };
  } finally {
    closeSync(fd);
  }
}

/**
 * Takes a one-shot state file another process keeps writing (a release request, a notice): it is
 * first renamed to a name of our own, then read through {@link readPrivateStateFile} and deleted,
 * so what the writer puts there meanwhile lands in a new file, read next time, instead of being
 * deleted unread. `missing` when there is nothing to take (or it cannot be taken). Never throws.
 *
 * @example const r = takePrivateStateFile(layout.notice("4242"), { maxBytes: 4096, uid });
 */
export function takePrivateStateFile(
  path: string,
  options: PrivateStateReadOptions,
): PrivateStateRead {
  const taken = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.taken`;
  try {
    renameSync(path, taken);
  } catch {
    return { kind: "missing" };
  }
  const read = readPrivateStateFile(taken, options);
  try {
    rmSync(taken, { force: true });
  } catch {
    // a leftover taken file is never read again
  }
  return read;
}

/**
 * Writes `text` to `path` under the state directory `root`: every folder from `root` down to the
 * file's folder is created (or tightened to) 0700, then the file is written atomically (temporary
 * file created 0600, fsync, rename).
 *
 * @throws PrivateFileError (`not_private`, `io_error`) from `src/adapters/private-files.ts`.
 * @example writePrivateStateFile(layout.root, layout.seen("s-1"), '{"version":1,"message_ids":[]}\n');
 */
export function writePrivateStateFile(root: string, path: string, text: string): void {
  const folder = dirname(path);
  ensurePrivateDir(root);
  let current = root;
  const rest = relative(root, folder);
  if (rest !== "" && !rest.startsWith("..")) {
    for (const part of rest.split(sep)) {
      current = `${current}${sep}${part}`;
      ensurePrivateDir(current);
    }
  } else {
    ensurePrivateDir(folder);
  }
  writePrivateFileAtomic(path, text);
}
