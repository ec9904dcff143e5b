import { closeSync, constants, fchmodSync, fstatSync, openSync } from "node:fs";
import { type LocalWriteResult, WRITTEN, writeFailed } from "./local-write-result.ts";
import { bytesOf, PRIVATE_FILE_MODE, writeAll } from "./temp-file.ts";

/** Result of {@link openAppendFile}: a descriptor the caller must close, or `io_error`. */
export type AppendFileOpen =
  | { readonly ok: true; readonly fd: number }
  | { readonly ok: false; readonly reason: "io_error" };

/**
 * Opens `path` for appending without following a symlink at it (`O_NOFOLLOW`) and without
 * blocking (`O_NONBLOCK`: a FIFO planted there never hangs the open), a regular file only:
 * created 0600 when missing, an existing file kept as it is. For a descriptor handed on (a child's stdout); to
 * append text, use {@link appendPrivateFile}. Never throws.
 *
 * @example const o = openAppendFile(layout.watcherLog("4242")); if (o.ok) spawn(…, { stdio: ["ignore", o.fd, o.fd] });
 */
export function openAppendFile(path: string): AppendFileOpen {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY |
        constants.O_APPEND |
        constants.O_CREAT |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK,
      PRIVATE_FILE_MODE,
    );
  } catch {
    return { ok: false, reason: "io_error" };
  }
  try {
    if (fstatSync(fd).isFile()) return { ok: true, fd };
  } catch {
    // refused below
  }
  closeSync(fd);
  return { ok: false, reason: "io_error" };
}

/**
 * Appends `data` to `path` through {@link openAppendFile}, first making a file that exists with
 * a group or other bit private again (0600), on the open descriptor. Never throws.
 *
 * @example appendPrivateFile(layout.watcherLog("4242"), '{"event":"watch_ready"}\n').ok
 */
export function appendPrivateFile(path: string, data: string | Uint8Array): LocalWriteResult {
  const opened = openAppendFile(path);
  if (!opened.ok) return opened;
  try {
    if ((fstatSync(opened.fd).mode & 0o077) !== 0) fchmodSync(opened.fd, PRIVATE_FILE_MODE);
    writeAll(opened.fd, bytesOf(data));
    return WRITTEN;
  } catch {
    return writeFailed("io_error");
  } finally {
    closeSync(opened.fd);
  }
}
