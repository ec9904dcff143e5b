import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

// O_NONBLOCK: a FIFO planted where a file is expected must not hang a hook; fstat refuses it.
const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * Reads a regular file of at most `maxBytes` (read to one byte past the cap, so a file that grew
 * after the `fstat` is still refused). `undefined` when the file is missing, not a regular file,
 * too large or unreadable. `noFollow` refuses a symbolic link at the last component. With `tail`,
 * a larger file is not refused: its last `maxBytes` bytes are returned. Never throws.
 *
 * @example const bytes = readBoundedFile("/home/dana/.claude/settings.json", 1_048_576);
 */
export function readBoundedFile(
  path: string,
  maxBytes: number,
  options: { readonly noFollow?: boolean; readonly tail?: boolean } = {},
): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, options.noFollow === true ? FLAGS | constants.O_NOFOLLOW : FLAGS);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return undefined;
    let position = 0;
    if (info.size > maxBytes) {
      if (options.tail !== true) return undefined;
      position = info.size - maxBytes;
    }
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, position + length);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) {
      if (options.tail !== true) return undefined;
      return buffer.subarray(length - maxBytes, length);
    }
    return buffer.subarray(0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
