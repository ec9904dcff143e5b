import { statSync } from "node:fs";
import { dirname } from "node:path";
import { currentUid } from "./private-to-this-user.ts";

/** Why a folder cannot hold this user's private configuration. */
export const OWN_FOLDER_REFUSALS = [
  "parent_missing",
  "not_a_folder",
  "foreign_owner",
  "writable_by_others",
  "io_error",
] as const;

/** One of {@link OWN_FOLDER_REFUSALS}. */
export type OwnFolderRefusal = (typeof OWN_FOLDER_REFUSALS)[number];

/** What {@link checkOwnFolder} found. */
export type OwnFolderCheck =
  | { readonly ok: true; readonly exists: boolean }
  | { readonly ok: false; readonly reason: OwnFolderRefusal };

/** Group- or other-writable: someone else may add, remove or replace entries. */
const WRITABLE_BY_OTHERS = 0o022;

/**
 * Whether `path` can be (or become) this user's private folder, before anything is written in
 * it, like ssh's check of `~/.ssh`: an existing one (links followed) must be a folder owned by
 * this user that neither group nor others may write (`writable_by_others`: what they may already
 * have put there is not undone by tightening it; `foreign_owner`; `not_a_folder`). A folder that
 * others may only read is fine: the writer tightens it to 0700. A missing one is fine when its
 * parent is a folder, or always with `createParents` (`parent_missing` otherwise). Creates
 * nothing. Where the platform has no uids, owner and mode are not checked. Never throws.
 *
 * @example checkOwnFolder("/home/dana/.config/brigade", { createParents: true })
 */
export function checkOwnFolder(
  path: string,
  options: { readonly createParents: boolean; readonly uid?: number },
): OwnFolderCheck {
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(path, { throwIfNoEntry: false });
  } catch {
    return { ok: false, reason: "io_error" };
  }
  if (stats === undefined) {
    if (options.createParents) return { ok: true, exists: false };
    try {
      return statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory() === true
        ? { ok: true, exists: false }
        : { ok: false, reason: "parent_missing" };
    } catch {
      return { ok: false, reason: "parent_missing" };
    }
  }
  if (!stats.isDirectory()) return { ok: false, reason: "not_a_folder" };
  if (process.getuid === undefined) return { ok: true, exists: true };
  if (stats.uid !== (options.uid ?? currentUid())) return { ok: false, reason: "foreign_owner" };
  if ((Number(stats.mode) & WRITABLE_BY_OTHERS) !== 0) {
    return { ok: false, reason: "writable_by_others" };
  }
  return { ok: true, exists: true };
}
