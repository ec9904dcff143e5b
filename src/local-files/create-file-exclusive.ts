import { linkSync } from "node:fs";
import { type LocalWriteResult, WRITTEN, writeFailed } from "./local-write-result.ts";
import { bytesOf, removeQuietly, writeTempFile } from "./temp-file.ts";

/**
 * Creates `path` with complete content, never replacing anything there: the content goes to a
 * fresh temporary (exclusive, no link followed, 0600 from the first moment, then exactly `mode`
 * when given, else checked owner-only; fsynced), which is hard-linked into place — `link(2)`
 * fails when `path` exists, even as a dangling symlink, so of several racing creators exactly one
 * wins and no reader ever sees a half-written file. `exists` when something is already there.
 * The temporary is always removed. Never throws.
 *
 * @example createFileExclusive(layout.watcher("4242"), text).ok
 */
export function createFileExclusive(
  path: string,
  data: string | Uint8Array,
  options: { readonly mode?: number } = {},
): LocalWriteResult {
  const written = writeTempFile(path, bytesOf(data), options.mode);
  if (!written.ok) return written;
  try {
    linkSync(written.temp, path);
    return WRITTEN;
  } catch (error) {
    return writeFailed((error as NodeJS.ErrnoException).code === "EEXIST" ? "exists" : "io_error");
  } finally {
    removeQuietly(written.temp);
  }
}
