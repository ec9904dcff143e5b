import { renameSync } from "node:fs";
import { type LocalWriteResult, WRITTEN, writeFailed } from "./local-write-result.ts";
import { bytesOf, removeQuietly, writeTempFile } from "./temp-file.ts";

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /**
   * The new file's exact permission bits. Without it the file is private: created 0600 and
   * checked owner-only (`not_private`), whatever the umask.
   */
  readonly mode?: number;
  /**
   * Asked after the temporary is complete, right before the rename: `false` (or a throw) keeps
   * the target as it is (`changed_meanwhile` / `io_error`), e.g. when it changed since it was read.
   */
  readonly unchanged?: () => boolean;
}

/**
 * Replaces `path` atomically: a fresh temporary in the same folder (exclusive, no link followed,
 * 0600 from the first moment, {@link AtomicWriteOptions.mode} or owner-only, written in full,
 * fsynced), then renamed over `path`. A reader sees the old file or the new one, never a part.
 * The folder must already be what the caller wants (see `ensurePrivateFolders`). On any failure
 * the temporary is removed and `path` is unchanged. Never throws.
 *
 * @example writeFileAtomic(join(dir, "seen.json"), '{"version":1}\n').ok
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): LocalWriteResult {
  const written = writeTempFile(path, bytesOf(data), options.mode);
  if (!written.ok) return written;
  try {
    if (options.unchanged !== undefined && !options.unchanged()) {
      removeQuietly(written.temp);
      return writeFailed("changed_meanwhile");
    }
    renameSync(written.temp, path);
    return WRITTEN;
  } catch {
    removeQuietly(written.temp);
    return writeFailed("io_error");
  }
}
