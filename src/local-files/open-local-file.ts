import { closeSync, constants, fstatSync, openSync, type Stats } from "node:fs";

/**
 * Why a local file was not opened or read (stable tokens; none carries the path):
 * `missing` (nothing there, or a folder on the way is missing), `symlink` (the last component is
 * a symbolic link and links are not followed), `not_regular` (a folder, a FIFO, a socket, a
 * device…), `not_owned` (owned by another uid), `not_private` (a group or other permission bit
 * is set), `changed_meanwhile` (not the file an earlier `lstat` saw), `too_large` (over the
 * byte cap), `unreadable` (any other failure).
 *
 * @example LOCAL_FILE_REFUSALS.includes("symlink") === true
 */
export const LOCAL_FILE_REFUSALS = [
  "missing",
  "symlink",
  "not_regular",
  "not_owned",
  "not_private",
  "changed_meanwhile",
  "too_large",
  "unreadable",
] as const;

/** One {@link LOCAL_FILE_REFUSALS} token. */
export type LocalFileRefusal = (typeof LOCAL_FILE_REFUSALS)[number];

/** What {@link openLocalFile} checks besides "a regular file". */
export interface LocalFileChecks {
  /** Follow a symbolic link at the last component; by default a link is refused (`symlink`). */
  readonly followSymlink?: boolean;
  /** Require the owner to be this uid (`not_owned`) and no group/other bit (`not_private`). */
  readonly privateTo?: number;
  /** Require the very file an earlier `lstat` saw (same device and inode): else `changed_meanwhile`. */
  readonly sameAs?: { readonly dev: number; readonly ino: number };
}

/** Result of {@link openLocalFile}: an open descriptor the caller must close, or why not. */
export type LocalFileOpen =
  | { readonly ok: true; readonly fd: number; readonly stats: Stats }
  | { readonly ok: false; readonly reason: LocalFileRefusal };

/**
 * Opens `path` read-only as a trust boundary: `O_NONBLOCK`, so a FIFO planted where a file is
 * expected never hangs the open (and is then refused as `not_regular`); `O_NOFOLLOW` unless
 * `followSymlink`; then every check on the open descriptor (`fstat`, so nothing can be swapped
 * between check and read), in this order: a regular file, the owner and owner-only mode when
 * `privateTo` is given, the identity when `sameAs` is given. On success the caller owns `fd`.
 * Never throws.
 *
 * @example const o = openLocalFile(path, { privateTo: process.getuid!() }); if (o.ok) try { … } finally { closeSync(o.fd); }
 */
export function openLocalFile(path: string, checks: LocalFileChecks = {}): LocalFileOpen {
  const follow = checks.followSymlink === true;
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing" };
    // ELOOP on Linux and macOS, EMLINK on FreeBSD: O_NOFOLLOW met a link.
    if (!follow && (code === "ELOOP" || code === "EMLINK")) return { ok: false, reason: "symlink" };
    return { ok: false, reason: "unreadable" };
  }
  const refusal = checkOpen(fd, checks);
  if (typeof refusal === "string") {
    closeSync(fd);
    return { ok: false, reason: refusal };
  }
  return { ok: true, fd, stats: refusal };
}

function checkOpen(fd: number, checks: LocalFileChecks): Stats | LocalFileRefusal {
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch {
    return "unreadable";
  }
  if (!stats.isFile()) return "not_regular";
  if (checks.privateTo !== undefined) {
    if (stats.uid !== checks.privateTo) return "not_owned";
    if ((stats.mode & 0o077) !== 0) return "not_private";
  }
  const same = checks.sameAs;
  if (same !== undefined && (stats.ino !== same.ino || stats.dev !== same.dev)) {
    return "changed_meanwhile";
  }
  return stats;
}
