import { randomBytes } from "node:crypto";
import { renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { throwUnlessWritten } from "../../adapters/index.ts";
import {
  ensurePrivateFolders,
  type LocalFileRefusal,
  readLocalFile,
  writeFileAtomic,
} from "../../local-files/index.ts";

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

/** How each refusal of the local-file checks reads as a state file outcome. */
const STATE_READ: Readonly<Record<LocalFileRefusal, Exclude<PrivateStateRead["kind"], "ok">>> = {
  missing: "missing",
  symlink: "not_private",
  not_regular: "not_private",
  not_owned: "not_private",
  not_private: "not_private",
  changed_meanwhile: "unreadable",
  too_large: "too_large",
  unreadable: "unreadable",
};

/**
 * Opens a state file as a trust boundary (`readLocalFile` of `src/local-files/`): without following
 * a symlink, a FIFO never hanging the open, then on the open descriptor (no race with a swap): a
 * regular file, no group/other permission bits, owned by `uid`, at most `maxBytes` (read up to
 * one byte more, so a file growing after the check is still caught). Never throws.
 *
 * @example if (r.kind === "ok") parse(r.bytes);
 */
export function readPrivateStateFile(
  path: string,
  options: PrivateStateReadOptions,
): PrivateStateRead {
  const read = readLocalFile(path, { maxBytes: options.maxBytes, privateTo: options.uid });
  if (read.ok) return { kind: "ok", bytes: read.bytes };
  return { kind: STATE_READ[read.reason] };
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
 * file's folder is created (or tightened to) 0700 (`ensurePrivateFolders`), then the file is
 * written atomically (`writeFileAtomic`: temporary created 0600, fsync, rename).
 *
 * @throws PrivateFileError (`not_private`, `io_error`) from `src/adapters/private-files.ts`.
 * @example writePrivateStateFile(layout.root, layout.seen("s-1"), '{"version":1,"message_ids":[]}\n');
 */
export function writePrivateStateFile(root: string, path: string, text: string): void {
  throwUnlessWritten(ensurePrivateFolders(root, dirname(path)));
  throwUnlessWritten(writeFileAtomic(path, text));
}
