/**
 * Why a local write failed (stable tokens; none carries the path or the content): `not_private`
 * (a private file or folder would be, or stays, accessible to others), `exists` (an exclusive
 * create met a file already there), `changed_meanwhile` (the caller's guard saw the target change
 * before the replace), `io_error` (any other failure).
 *
 * @example LOCAL_WRITE_FAILURES.includes("exists") === true
 */
export const LOCAL_WRITE_FAILURES = [
  "not_private",
  "exists",
  "changed_meanwhile",
  "io_error",
] as const;

/** One {@link LOCAL_WRITE_FAILURES} token. */
export type LocalWriteFailure = (typeof LOCAL_WRITE_FAILURES)[number];

/** Result of every local write: done, or why not (nothing half-written is left behind). */
export type LocalWriteResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: LocalWriteFailure };

/** The successful {@link LocalWriteResult}. */
export const WRITTEN: LocalWriteResult = { ok: true };

/** A failed {@link LocalWriteResult}. */
export function writeFailed(reason: LocalWriteFailure): LocalWriteResult {
  return { ok: false, reason };
}
