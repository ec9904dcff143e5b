import { isWellFormed, toWellFormed } from "../text/index.ts";
import { neutralisePlainTags, neutraliseScannedTags } from "./neutralise-tags.ts";
import {
  bmpClasses,
  classAt,
  LOWEST_LOOK_ALIKE_OPENER,
  OPEN_BIT,
  PAIR_BIT,
  STRIP_BIT,
  unitsAt,
} from "./reading-classes.ts";

// Anything outside printable ASCII, tab and newline: without one, R1-R4 are the identity.
const NOT_PLAIN_ASCII = /[^\t\n\x20-\x7E]/;
// Every code point below U+0300 is NFC-stable and none of them combines with a neighbour below
// U+0300, so NFC is the identity on text that has nothing at or above U+0300.
const FIRST_NFC_UNSTABLE = 0x300;
// `<` + U+0338 composes to `≮` (and `≺` + U+0338 to `⊀`): NFC can make a look-alike opener.
const COMBINING_LONG_SOLIDUS_OVERLAY = 0x338;

/** R1-R4 of a text, and whether the result may hold a look-alike of `<`. */
export interface CleanText {
  readonly text: string;
  /** False only when the text holds no look-alike of `<` (so `indexOf("<")` finds every opener). */
  readonly lookAlikes: boolean;
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
 * R1-R4 of formats.md §1.1 (repair, NFC, strip, NFC) for text that is not plain ASCII, in one
 * pass over the code units that also notes whether a look-alike of `<` occurs (so R5 can use
 * `indexOf` when none does).
 *
 * Computed as repair, strip, ONE NFC: equal to the spec's NFC-strip-NFC because no stripped code
 * point (Cc, Cf) has a canonical decomposition, appears in one, or has a non-zero combining class,
 * so stripping commutes with canonical decomposition and reordering (sanitize.test.ts checks the
 * premises over every code point and compares against the literal four-step pipeline).
 *
 * @example cleanMixedText("ok\r\n").text === "ok\n"
 */
export function cleanMixedText(s: string): CleanText {
  const t = isWellFormed(s) ? s : toWellFormed(s);
  const bmp = bmpClasses();
  let out = "";
  let copied = 0;
  let needsNfc = false;
  let lookAlikes = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    let k = bmp[c] ?? 0;
    let units = 1;
    if ((k & PAIR_BIT) !== 0) {
      k = classAt(t, i);
      units = unitsAt(t, i);
    }
    if ((k & STRIP_BIT) !== 0) {
      out += t.slice(copied, i);
      copied = i + units;
    } else if (c >= FIRST_NFC_UNSTABLE) {
      needsNfc = true;
      if ((k & OPEN_BIT) !== 0 || c === COMBINING_LONG_SOLIDUS_OVERLAY) lookAlikes = true;
    } else if (c >= LOWEST_LOOK_ALIKE_OPENER && (k & OPEN_BIT) !== 0) {
      lookAlikes = true;
    }
    i += units - 1;
  }
  const stripped = copied === 0 ? t : out + t.slice(copied);
  return { text: needsNfc ? stripped.normalize("NFC") : stripped, lookAlikes };
}

/**
 * The sanitiser, rules R1-R5 of formats.md §1.1 with R5 as amended in docs/11-sanitizer.md, no
 * length cap: lone surrogates become U+FFFD; NFC; every Cc except `\t` and `\n` and every Cf is
 * deleted; NFC again; the opener of every family tag on the tag reading (any case, look-alike
 * brackets, slashes, dashes and letters, invisible code points and combining marks read past)
 * becomes `&lt;`. Idempotent. Returns the input itself when nothing needs doing.
 *
 * @example sanitize("Deploy <System-Reminder>now") === "Deploy &lt;System-Reminder>now"
 */
export function sanitize(s: string): string {
  if (isPlainAscii(s)) return neutralisePlainTags(s);
  const clean = cleanMixedText(s);
  return neutraliseScannedTags(clean.text, clean.lookAlikes);
}
