import { repairUtf8 } from "../text/index.ts";
import { sanitize } from "./sanitize.ts";

/**
 * The sanitiser for bytes (stdin, files, sockets): UTF-8 repair with Go `strings.ToValidUTF8`
 * semantics (each run of invalid bytes becomes one U+FFFD), then {@link sanitize}.
 *
 * @example sanitizeBytes(new Uint8Array([0x61, 0xc0, 0x80, 0x62])) === "a\uFFFDb"
 */
export function sanitizeBytes(bytes: Uint8Array): string {
  return sanitize(repairUtf8(bytes));
}
