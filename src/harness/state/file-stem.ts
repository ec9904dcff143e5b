import { isSafeId } from "../inbound/index.ts";
import { sha256Hex } from "./sha256-hex.ts";

/**
 * The `<stem>` of a per-session state file (docs/spec/claude-code.md §7.1): the id verbatim when it
 * is 1–64 bytes of `[A-Za-z0-9_-]`, else `sha256hex(id) + ".sha256"` (so no id can name a path
 * outside its folder, and two ids never share a file).
 *
 * @example fileStem("s-2b8e") === "s-2b8e"; fileStem("../x").endsWith(".sha256")
 */
export function fileStem(id: string): string {
  return isSafeId(id) ? id : `${sha256Hex(id)}.sha256`;
}
