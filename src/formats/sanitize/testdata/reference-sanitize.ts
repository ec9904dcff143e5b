import { MAX_BODY_BYTES, TRUNCATION_MARKER } from "../limits.ts";
import { oracleTagOpeners, replaceOpeners } from "./tag-oracle.ts";

/**
 * The literal R1-R5 pipeline of docs/spec/formats.md §1.1, in the spec's order with both NFC
 * passes, R5 as amended in docs/11-sanitizer.md and written independently (tag-oracle.ts): no
 * class table, no recorded openers, no shortcut. The fast paths are compared with it.
 */
export function referenceSanitize(s: string): string {
  const r1 = (s as unknown as { toWellFormed(): string }).toWellFormed();
  const r2 = r1.normalize("NFC");
  const r3 = r2.replace(/[^\P{Cc}\t\n]|\p{Cf}/gu, "");
  const r4 = r3.normalize("NFC");
  return replaceOpeners(r4, oracleTagOpeners(r4));
}

/**
 * The body rule of docs/spec/formats.md §1.4 on {@link referenceSanitize}: the whole text when it
 * fits in 16,384 UTF-8 bytes, else the longest prefix of whole code points within 16,373 bytes and
 * the marker, found by encoding code point by code point.
 */
export function referenceBody(s: string): string {
  const t = referenceSanitize(s);
  const encoder = new TextEncoder();
  if (encoder.encode(t).length <= MAX_BODY_BYTES) return t;
  const budget = MAX_BODY_BYTES - TRUNCATION_MARKER.length;
  let kept = "";
  let bytes = 0;
  for (const c of t) {
    const n = encoder.encode(c).length;
    if (bytes + n > budget) break;
    kept += c;
    bytes += n;
  }
  return kept + TRUNCATION_MARKER;
}
