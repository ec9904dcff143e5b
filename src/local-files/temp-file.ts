import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  openSync,
  rmSync,
  writeSync,
} from "node:fs";
import type { LocalWriteFailure } from "./local-write-result.ts";

/** Mode of every private file we write: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Result of {@link writeTempFile}. */
export type TempFileWrite =
  | { readonly ok: true; readonly temp: string }
  | { readonly ok: false; readonly reason: LocalWriteFailure };

/** Bytes of `data` (a string as UTF-8). */
export function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? Buffer.from(data, "utf8") : data;
}

/** Writes all of `bytes` at the descriptor's position (a short write continues). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** Removes `path`, ignoring every failure (it may never have been created). */
export function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // nothing more to undo
  }
}

/**
 * Writes `bytes` to a fresh temporary beside `path` (same folder, so a rename or link stays on one
 * file system): created exclusively without following a link, 0600 from the first moment, then
 * set to exactly `mode` when one is given (else checked owner-only: `not_private`), written in
 * full and fsynced. On failure nothing is left behind.
 */
export function writeTempFile(
  path: string,
  bytes: Uint8Array,
  mode: number | undefined,
): TempFileWrite {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let fd: number;
  try {
    fd = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      PRIVATE_FILE_MODE,
    );
  } catch {
    return { ok: false, reason: "io_error" };
  }
  let failure: LocalWriteFailure | undefined;
  try {
    if (mode !== undefined) fchmodSync(fd, mode);
    else if ((fstatSync(fd).mode & 0o077) !== 0) failure = "not_private";
    if (failure === undefined) {
      writeAll(fd, bytes);
      fsyncSync(fd);
    }
  } catch {
    failure = "io_error";
  }
  try {
    closeSync(fd);
  } catch {
    failure ??= "io_error";
  }
  if (failure !== undefined) {
    removeQuietly(temp);
    return { ok: false, reason: failure };
  }
  return { ok: true, temp };
}
