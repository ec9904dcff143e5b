import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { Activity } from "../../protocol/index.ts";
import { MAX_REGISTRY_BYTES } from "./session-registry.ts";

/**
 * Reads `status` from Claude Code's session registry `<folder>/<claudePid>.json` (claude-code.md
 * §5): exactly that file (the folder is never listed, the `.key` file beside it never opened),
 * read-only, without following a symlink, a regular file, at most 256 KiB. `busy` only when the
 * member is the string `busy`; anything else — a missing, unreadable, oversized or malformed file
 * included — is `idle`. Never writes, never throws.
 *
 * @example readRegistryActivity("/home/dana/.claude/sessions", "4242") // "idle"
 */
export function readRegistryActivity(folder: string | undefined, claudePid: string): Activity {
  if (folder === undefined) return "idle";
  let fd: number;
  try {
    fd = openSync(
      join(folder, `${claudePid}.json`),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch {
    return "idle";
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_REGISTRY_BYTES) return "idle";
    const buffer = Buffer.alloc(MAX_REGISTRY_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > MAX_REGISTRY_BYTES) return "idle";
    const value: unknown = JSON.parse(buffer.subarray(0, length).toString("utf8"));
    if (typeof value !== "object" || value === null || Array.isArray(value)) return "idle";
    return (value as { status?: unknown }).status === "busy" ? "busy" : "idle";
  } catch {
    return "idle";
  } finally {
    closeSync(fd);
  }
}
