import { lstat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { currentUid } from "../../local-files/index.ts";
import { sunPathLimit } from "./inbox-socket-limits.ts";

/**
 * Why a post to Claude Code's inbox socket was refused before dialling
 * (docs/spec/claude-code.md §3.2). A refused path is never connected to; none of these tokens
 * carries the path or the content.
 *
 * - `content_empty`: the content is not a non-empty string (Claude Code ignores such posts).
 * - `message_too_large`: the two lines exceed {@link INBOX_POST_MAX_CHARS}.
 * - `path_invalid`: the path is empty or holds a NUL character.
 * - `path_not_absolute`: the path is relative.
 * - `path_too_long`: the path is longer than the platform's `sun_path` limit (107 / 103 bytes).
 * - `socket_missing`: nothing exists at the path (or a folder on the way is missing).
 * - `socket_unreadable`: `lstat` failed for another reason (e.g. permission denied).
 * - `socket_is_symlink`: the path is a symbolic link (never followed).
 * - `not_a_socket`: the path is a file of another type.
 * - `socket_mode_not_0600`: the socket's permission bits are not exactly 0600.
 * - `socket_wrong_owner`: the socket is owned by another uid.
 *
 * @example INBOX_SOCKET_REFUSALS.includes("socket_is_symlink") === true
 */
export const INBOX_SOCKET_REFUSALS = [
  "content_empty",
  "message_too_large",
  "path_invalid",
  "path_not_absolute",
  "path_too_long",
  "socket_missing",
  "socket_unreadable",
  "socket_is_symlink",
  "not_a_socket",
  "socket_mode_not_0600",
  "socket_wrong_owner",
] as const;

/** One pre-dial refusal. */
export type InboxSocketRefusal = (typeof INBOX_SOCKET_REFUSALS)[number];

/** Result of {@link checkInboxSocketPath}. */
export type InboxSocketPathCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: InboxSocketRefusal };

/** Who we are and where we run; both default to the current process. */
export interface InboxSocketPathCheckOptions {
  /** Our uid (the socket's required owner); defaults to `process.getuid()`. */
  readonly uid?: number;
  /** Selects the `sun_path` limit; defaults to `process.platform`. */
  readonly platform?: NodeJS.Platform;
}

/** Every permission bit, including setuid, setgid and sticky: "exactly 0600" means all of them. */
const PERMISSION_BITS = 0o7777;

/**
 * The pre-checks of docs/spec/claude-code.md §3.2, from ONE `lstat` (never `stat`: a symlink is
 * refused, not followed): absolute path; at most {@link sunPathLimit} UTF-8 bytes; not a symlink; a
 * socket; permission bits exactly 0600; owned by our uid. Never throws; the answer names a fixed
 * token of {@link INBOX_SOCKET_REFUSALS} and never the path.
 *
 * The check and the later `connect` are two system calls, so a path swapped between them is not
 * caught here; Claude Code's socket lives in a private 0700 folder, which is what closes that gap.
 *
 * @example await checkInboxSocketPath("cc.sock") // { ok: false, reason: "path_not_absolute" }
 */
export async function checkInboxSocketPath(
  path: string,
  options: InboxSocketPathCheckOptions = {},
): Promise<InboxSocketPathCheck> {
  if (typeof path !== "string" || path.length === 0 || path.includes("\0")) {
    return { ok: false, reason: "path_invalid" };
  }
  if (!isAbsolute(path)) return { ok: false, reason: "path_not_absolute" };
  const platform = options.platform ?? process.platform;
  if (Buffer.byteLength(path, "utf8") > sunPathLimit(platform)) {
    return { ok: false, reason: "path_too_long" };
  }
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = code === "ENOENT" || code === "ENOTDIR";
    return { ok: false, reason: missing ? "socket_missing" : "socket_unreadable" };
  }
  if (stats.isSymbolicLink()) return { ok: false, reason: "socket_is_symlink" };
  if (!stats.isSocket()) return { ok: false, reason: "not_a_socket" };
  if ((stats.mode & PERMISSION_BITS) !== 0o600) {
    return { ok: false, reason: "socket_mode_not_0600" };
  }
  const uid = options.uid ?? currentUid();
  if (stats.uid !== uid) return { ok: false, reason: "socket_wrong_owner" };
  return { ok: true };
}
