import { join } from "node:path";
import { readLocalFile } from "../../local-files/index.ts";
import type { Activity } from "../../protocol/index.ts";
import { MAX_REGISTRY_BYTES } from "./session-registry.ts";

/**
 * Reads `status` from Claude Code's session registry `<folder>/<claudePid>.json`
 * (docs/spec/claude-code.md §5): exactly that file (the folder is never listed, the `.key` file
 * beside it never opened), read-only, without following a symlink, a regular file, at most 256 KiB.
 * `busy` only when the member is the string `busy`; anything else — a missing, unreadable,
 * oversized or malformed file included — is `idle`. Never writes, never throws.
 *
 * @example readRegistryActivity("/home/dana/.claude/sessions", "4242") // "idle"
 */
export function readRegistryActivity(folder: string | undefined, claudePid: string): Activity {
  if (folder === undefined) return "idle";
  const read = readLocalFile(join(folder, `${claudePid}.json`), { maxBytes: MAX_REGISTRY_BYTES });
  if (!read.ok) return "idle";
  try {
    const value: unknown = JSON.parse(Buffer.from(read.bytes).toString("utf8"));
    if (typeof value !== "object" || value === null || Array.isArray(value)) return "idle";
    return (value as { status?: unknown }).status === "busy" ? "busy" : "idle";
  } catch {
    return "idle";
  }
}
