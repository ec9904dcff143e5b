import { lstatSync, mkdtempSync, rmdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { currentUid } from "./private-to-this-user.ts";

/** Why {@link createPrivateTempFolder} made no folder. */
export const PRIVATE_TEMP_FOLDER_REFUSALS = [
  "parent_missing",
  "parent_shared",
  "not_private",
  "io_error",
] as const;

/** One of {@link PRIVATE_TEMP_FOLDER_REFUSALS}. */
export type PrivateTempFolderRefusal = (typeof PRIVATE_TEMP_FOLDER_REFUSALS)[number];

/** What {@link createPrivateTempFolder} made. */
export type PrivateTempFolder =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: PrivateTempFolderRefusal };

const WRITABLE_BY_OTHERS = 0o022;
const STICKY = 0o1000;

/**
 * Makes a fresh folder inside `parent`, named `prefix` and six random characters, that no other
 * user can change while this process writes in it: `mkdtemp` creates it 0700 (it fails rather
 * than reuse or follow anything already at the name), and the new entry is checked to be a real
 * folder owned by this user with an owner-only mode (`not_private` otherwise, and it is removed). A file written inside it by name (say, by a library that takes a path, and
 * the journal that library puts beside it) cannot be swapped for a link by anyone else, provided
 * no one else can rename the folder itself: so `parent` (links followed) must be owned by this
 * user or root and be writable by no one else, unless it carries the sticky bit, which stops
 * others renaming what they do not own (`/tmp`); else `parent_shared`. `parent_missing` when it
 * is not a folder, `io_error` when it cannot be examined or the folder cannot be made. Where the
 * platform has no uids, owners and modes are not checked; `uid` (default this process's) is the
 * user who must own them. Never throws. The caller removes the folder.
 *
 * @example createPrivateTempFolder("/var/backups/brigade", ".brigade-2026-12-01.sqlite.")
 */
export function createPrivateTempFolder(
  parent: string,
  prefix: string,
  options: { readonly uid?: number } = {},
): PrivateTempFolder {
  const uid = options.uid ?? currentUid();
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(parent, { throwIfNoEntry: false });
  } catch {
    return { ok: false, reason: "io_error" };
  }
  if (stats === undefined || !stats.isDirectory()) return { ok: false, reason: "parent_missing" };
  const checkOwners = process.getuid !== undefined;
  if (checkOwners) {
    const mode = Number(stats.mode);
    const ownedSafely = stats.uid === uid || stats.uid === 0;
    const shared = (mode & WRITABLE_BY_OTHERS) !== 0 && (mode & STICKY) === 0;
    if (!ownedSafely || shared) return { ok: false, reason: "parent_shared" };
  }
  let path: string;
  try {
    path = mkdtempSync(join(parent, prefix));
  } catch {
    return { ok: false, reason: "io_error" };
  }
  try {
    const made = lstatSync(path);
    const mine = !checkOwners || made.uid === uid;
    if (!made.isDirectory() || !mine || (Number(made.mode) & 0o077) !== 0) {
      rmdirSync(path);
      return { ok: false, reason: "not_private" };
    }
  } catch {
    return { ok: false, reason: "io_error" };
  }
  return { ok: true, path };
}
