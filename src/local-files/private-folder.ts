import { chmodSync, mkdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { type LocalWriteResult, WRITTEN, writeFailed } from "./local-write-result.ts";

/** Mode of every private folder we make: owner only. */
export const PRIVATE_FOLDER_MODE = 0o700;

function isLoose(path: string): boolean {
  return (statSync(path).mode & 0o077) !== 0;
}

/**
 * Creates `path` (and missing parents) with mode 0700; a folder that exists with a group or other
 * bit is tightened to 0700, then checked again. `not_private` when it stays accessible to others,
 * `io_error` when it cannot be created or examined. Never throws.
 *
 * @example ensurePrivateFolder("/home/dana/.local/state/brigade").ok
 */
export function ensurePrivateFolder(path: string): LocalWriteResult {
  try {
    mkdirSync(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    if (isLoose(path)) chmodSync(path, PRIVATE_FOLDER_MODE);
  } catch {
    return writeFailed("io_error");
  }
  try {
    return isLoose(path) ? writeFailed("not_private") : WRITTEN;
  } catch {
    return writeFailed("io_error");
  }
}

/**
 * {@link ensurePrivateFolder} for `root` and for every folder from `root` down to `folder`, so no
 * folder on the way below the root stays open to others (`folder` outside `root` is made private
 * on its own). Stops at the first failure. Never throws.
 *
 * @example ensurePrivateFolders("/s/brigade", "/s/brigade/state/seen").ok
 */
export function ensurePrivateFolders(root: string, folder: string): LocalWriteResult {
  const top = ensurePrivateFolder(root);
  if (!top.ok) return top;
  const rest = relative(root, folder);
  if (rest === "" || rest.startsWith("..")) return ensurePrivateFolder(folder);
  let current = root;
  for (const part of rest.split(sep)) {
    current = join(current, part);
    const made = ensurePrivateFolder(current);
    if (!made.ok) return made;
  }
  return WRITTEN;
}
