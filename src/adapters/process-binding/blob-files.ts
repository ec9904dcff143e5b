import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { openLocalFile } from "../../local-files/index.ts";
import {
  BapError,
  type BlobDownload,
  type BlobDownloadResult,
  internalError,
  invalidInputError,
} from "../../protocol/index.ts";

const FILE_MODE = 0o600;

/**
 * The bytes of the regular file at `path` for `message upload`, streamed from one descriptor
 * opened without following a link at the last component and without hanging on a FIFO
 * (`openLocalFile`). Anything else there (nothing, a link, a folder, a device) is
 * `invalid_input` on `path`, `invalid_value`; the path itself is never echoed. The adapter sends
 * what the file holds: the server, not this reader, compares it with the declaration.
 */
export function openUploadSource(path: string): AsyncIterable<Uint8Array> {
  const opened = openLocalFile(path);
  if (!opened.ok) throw new BapError(invalidInputError("path", "invalid_value"));
  return createReadStream("", { fd: opened.fd, autoClose: true, highWaterMark: 256 * 1024 });
}

/**
 * The file a download writes to: created (exclusive, 0600, no link followed) when `offset` is 0;
 * otherwise the existing regular file, which must hold at least `offset` bytes and is cut back
 * to exactly `offset` (a resumed download). Anything else is `invalid_input` on `path` (or on
 * `offset` when the file is shorter), never echoing the path.
 */
function openTarget(path: string, offset: number): number {
  let fd: number;
  try {
    fd =
      offset === 0
        ? openSync(
            path,
            constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
            FILE_MODE,
          )
        : openSync(path, constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw new BapError(invalidInputError("path", "invalid_value"));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new BapError(invalidInputError("path", "invalid_value"));
    if (stats.size < offset) throw new BapError(invalidInputError("offset", "out_of_range"));
    if (offset > 0) ftruncateSync(fd, offset);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** SHA-256 (hex) of the first `size` bytes of `fd`, read in 256 KiB pieces. */
function digestOf(fd: number, size: number): string {
  const hash = createHash("sha256");
  const piece = Buffer.allocUnsafe(256 * 1024);
  let position = 0;
  while (position < size) {
    const read = readSync(fd, piece, 0, Math.min(piece.length, size - position), position);
    if (read === 0) break;
    hash.update(piece.subarray(0, read));
    position += read;
  }
  return hash.digest("hex");
}

/**
 * Writes an open download to `path` at its offset (see {@link openTarget}), syncs it, then checks
 * the whole file against the blob's digest and size: a complete file that does not match is
 * removed and the call fails `internal` `blob_digest_mismatch` (the bytes the server sent, or the
 * part an earlier attempt left, were not the blob's). A download cut off midway (the connection
 * lost) keeps what arrived, so the caller can resume at the file's size. The body is read one
 * chunk at a time.
 */
export async function writeDownload(
  download: BlobDownload,
  path: string,
): Promise<BlobDownloadResult> {
  const fd = openTarget(path, download.offset);
  let ok: boolean;
  try {
    let position = download.offset;
    for await (const chunk of download.body) {
      let written = 0;
      while (written < chunk.byteLength) {
        written += writeSync(fd, chunk, written, chunk.byteLength - written, position + written);
      }
      position += chunk.byteLength;
    }
    fsyncSync(fd);
    ok = position === download.size && digestOf(fd, download.size) === download.sha256;
  } finally {
    closeSync(fd);
  }
  if (!ok) {
    try {
      unlinkSync(path);
    } catch {
      // Already gone: nothing of the mismatching file is left either way.
    }
    throw new BapError(internalError("blob_digest_mismatch"));
  }
  return { sha256: download.sha256, size: download.size, path, offset: download.offset };
}
