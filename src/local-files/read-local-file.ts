import { closeSync, readSync } from "node:fs";
import { type LocalFileChecks, type LocalFileRefusal, openLocalFile } from "./open-local-file.ts";

/** Options of {@link readLocalFile}. */
export interface LocalReadOptions extends LocalFileChecks {
  /** The largest file accepted, bytes. */
  readonly maxBytes: number;
  /** Return the last `maxBytes` bytes of a larger file instead of refusing it (`too_large`). */
  readonly tail?: boolean;
}

/** Result of {@link readLocalFile}. */
export type LocalFileRead =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: LocalFileRefusal };

/**
 * Reads a whole local file of at most `maxBytes` through {@link openLocalFile}'s checks (no
 * symlink unless followed, no FIFO hang, a regular file, optionally ours and owner-only, or the
 * file an earlier `lstat` saw). The size is checked on the descriptor and the file is read to one
 * byte past the cap, so a file that grows after the check is still refused. With `tail`, a
 * larger file gives its last `maxBytes` bytes. Never throws.
 *
 * @example const r = readLocalFile("/home/dana/.claude/settings.json", { maxBytes: 1_048_576, followSymlink: true });
 */
export function readLocalFile(path: string, options: LocalReadOptions): LocalFileRead {
  const opened = openLocalFile(path, options);
  if (!opened.ok) return opened;
  const { fd, stats } = opened;
  const max = options.maxBytes;
  const tail = options.tail === true;
  try {
    let position = 0;
    if (stats.size > max) {
      if (!tail) return { ok: false, reason: "too_large" };
      position = stats.size - max;
    }
    const buffer = Buffer.alloc(max + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, position + length);
      if (n === 0) break;
      length += n;
    }
    if (length > max) {
      if (!tail) return { ok: false, reason: "too_large" };
      return { ok: true, bytes: buffer.subarray(length - max, length) };
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch {
    return { ok: false, reason: "unreadable" };
  } finally {
    closeSync(fd);
  }
}
