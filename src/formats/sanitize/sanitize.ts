import { isWellFormed, toWellFormed } from "../text/index.ts";
import { neutralisePlainTags, neutraliseTags } from "./neutralise-tags.ts";

// Anything outside printable ASCII, tab and newline: without one, R1-R4 are the identity.
const NOT_PLAIN_ASCII = /[^\t\n\x20-\x7E]/;
// R3: Cc except tab and newline, and every Cf.
const STRIP = /[^\P{Cc}\t\n]|\p{Cf}/u;
const STRIP_ALL = /[^\P{Cc}\t\n]|\p{Cf}/gu;
// Every code point below U+0300 is NFC-stable and none of them combines with a neighbour below
// U+0300, so NFC is the identity on text that has nothing at or above U+0300.
const MAY_NEED_NFC = /[^\0-\u02FF]/;

/**
 * R1-R4 of formats.md §1.1 (repair, NFC, strip, NFC) without the tag scan.
 *
 * Computed as repair, strip, ONE NFC: equal to the spec's NFC-strip-NFC because no stripped code
 * point (Cc, Cf) has a canonical decomposition, appears in one, or has a non-zero combining class,
 * so stripping commutes with canonical decomposition and reordering (sanitize.test.ts checks the
 * premises over every code point and compares against the literal four-step pipeline).
 */
export function cleanText(s: string): string {
  return isPlainAscii(s) ? s : cleanMixedText(s);
}

/**
 * Reports whether `s` holds only printable ASCII, tab and newline: text that R1-R4 leave
 * unchanged and that R5 keeps ASCII (one UTF-8 byte per UTF-16 code unit).
 *
 * @example isPlainAscii("a\tb\n") === true; isPlainAscii("a\r") === false
 */
export function isPlainAscii(s: string): boolean {
  return !NOT_PLAIN_ASCII.test(s);
}

/**
 * {@link cleanText} for text already known not to be plain ASCII, so the scan is not repeated.
 *
 * @example cleanMixedText("ok\r\n") === "ok\n"
 */
export function cleanMixedText(s: string): string {
  let t = s;
  if (!isWellFormed(t)) t = toWellFormed(t);
  if (STRIP.test(t)) t = t.replace(STRIP_ALL, "");
  if (MAY_NEED_NFC.test(t)) t = t.normalize("NFC");
  return t;
}

/**
 * The sanitiser, rules R1-R5 of formats.md §1.1, no length cap: lone surrogates become U+FFFD;
 * NFC; every Cc except `\t` and `\n` and every Cf is deleted; NFC again; every `<` that starts one
 * of the five frame tag families (any case, any interior whitespace, one optional `/`) becomes
 * `&lt;`. Idempotent. Returns the input itself when nothing needs doing.
 *
 * @example sanitize("Deploy <System-Reminder>now") === "Deploy &lt;System-Reminder>now"
 */
export function sanitize(s: string): string {
  return isPlainAscii(s) ? neutralisePlainTags(s) : neutraliseTags(cleanMixedText(s));
}
