import { lstatSync } from "node:fs";

/**
 * Whether anything is at `path` — a file, a folder, or a link (even a dangling one, which is
 * never followed: `lstat`). Any failure, a missing folder on the way included, reads as `false`.
 * Never throws.
 *
 * @example entryExists("/home/dana/src/api/.git") === true
 */
export function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
