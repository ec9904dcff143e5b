import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isReceivedFileId } from "./clean-name.ts";

/**
 * How long received files are kept when the backend does not say, seconds **[ours]**: seven
 * days, the unacknowledged-message retention floor of docs/spec/protocol.md §6.9 (a message
 * older than that is no longer delivered, so nothing can name its files again).
 */
export const DEFAULT_UPLOADS_RETENTION_SECONDS: number = 7 * 24 * 3600;

/** The id of a received file's name (`<id>-<name>`) or partial name (`.<id>.part`), if any. */
function idOf(name: string): string | undefined {
  if (name.startsWith(".") && name.endsWith(".part") && name.length === 42) {
    return name.slice(1, 37);
  }
  return name.length > 37 && name.charAt(36) === "-" ? name.slice(0, 36) : undefined;
}

/**
 * Removes from the uploads folder `dir` the files of messages older than the retention window
 * (docs/15-attachments.md "Receiving"): each entry named as Brigade names a received file (or a
 * partial one) whose id passes `isReceivedFileId` (so another program's files in a shared folder
 * such as `/workspace/uploads/` are never touched), a regular file of this user (never a link, a folder or another user's file),
 * whose time — the message's `created_at`, set when it was written — is more than
 * `retentionSeconds` before `nowMs`. Anything else in the folder is left alone. Returns how many
 * files were removed. Never throws.
 *
 * @example sweepUploads("/home/dana/api/.brigade-uploads", Date.now(), 604_800) // 3
 */
export function sweepUploads(dir: string, nowMs: number, retentionSeconds: number): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const before = nowMs - retentionSeconds * 1000;
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of names) {
    const id = idOf(name);
    if (id === undefined || !isReceivedFileId(id)) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isFile() || (uid !== undefined && st.uid !== uid)) continue;
      if (st.mtimeMs >= before) continue;
    } catch {
      continue;
    }
    removeQuietly(path);
    removed += 1;
  }
  return removed;
}

/** Removes `path`, ignoring every failure (it may be gone already). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // nothing more to undo
  }
}
