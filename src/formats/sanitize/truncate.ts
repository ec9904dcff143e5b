import { indexAfterCodePoints } from "../text/index.ts";
import { cutBeforeTag } from "./cut-before-tag.ts";
import { TRUNCATION_MARKER } from "./limits.ts";

const MARKER_LENGTH = 11;
const NON_ASCII = /[^\0-\x7F]/;

/**
 * Caps `s` at `limit` code points, marker included (docs/spec/formats.md §1.4): unchanged when it
 * fits, else the first `max(limit - 11, 0)` code points plus {@link TRUNCATION_MARKER}. The result
 * has exactly `limit` code points for every `limit >= 11`, unless the cut would complete one of
 * Claude Code's tags: then it is made before that tag's opener (docs/11-sanitizer.md).
 *
 * @example truncateRunes("abcdefghijklmnop", 12) === "a[truncated]"
 */
export function truncateRunes(s: string, limit: number): string {
  if (s.length <= limit) return s;
  if (indexAfterCodePoints(s, limit) === -1) return s;
  const keep = Math.max(limit - MARKER_LENGTH, 0);
  const cut = cutBeforeTag(s, indexAfterCodePoints(s, keep), TRUNCATION_MARKER);
  return s.slice(0, cut) + TRUNCATION_MARKER;
}

/**
 * Caps `s` at `limit` UTF-8 bytes, marker included (docs/spec/formats.md §1.4, body only):
 * unchanged when it fits, else the longest prefix of whole code points within `max(limit - 11, 0)`
 * bytes plus {@link TRUNCATION_MARKER}. The result is at most `limit` bytes and up to 3 bytes
 * shorter, unless the cut would complete one of Claude Code's tags: then it is made before that
 * tag's opener (docs/11-sanitizer.md).
 *
 * @example truncateBytes("€".repeat(5462), 16384) === "€".repeat(5457) + "[truncated]"
 */
export function truncateBytes(s: string, limit: number): string {
  const n = s.length;
  // Every UTF-16 code unit encodes to at most 3 bytes.
  if (n * 3 <= limit) return s;
  // ASCII text is one byte per code unit: one regex scan.
  if (n <= limit && !NON_ASCII.test(s)) return s;
  // encodeInto stops before the first code point that does not fit, which is exactly the cut
  // docs/spec/formats.md §1.4 describes (whole code points only); `read` is the UTF-16 length of
  // what fit. When it all fits, that one encoding is the whole cost.
  const fit = encoder.encodeInto(s, scratch(limit));
  if (fit.read === n) return s;
  // Too long: step back from the prefix that fills `limit` to the one that leaves room for the
  // marker (at most 11 bytes, a few code points), instead of encoding the text a second time.
  const keep = Math.max(limit - MARKER_LENGTH, 0);
  let read = fit.read;
  let written = fit.written;
  while (written > keep) {
    const c = s.charCodeAt(read - 1);
    const pair =
      (c & 0xfc00) === 0xdc00 && read >= 2 && (s.charCodeAt(read - 2) & 0xfc00) === 0xd800;
    written -= pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    read -= pair ? 2 : 1;
  }
  return s.slice(0, cutBeforeTag(s, read, TRUNCATION_MARKER)) + TRUNCATION_MARKER;
}

const encoder = new TextEncoder();
let buffer = new Uint8Array(0);

/** A reusable byte buffer of exactly `size` bytes (contents are scratch). */
function scratch(size: number): Uint8Array {
  if (buffer.length < size) buffer = new Uint8Array(size);
  return buffer.subarray(0, size);
}
