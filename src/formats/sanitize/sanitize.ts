import { isWellFormed, toWellFormed } from "../text/index.ts";
import { renormaliseAt } from "./local-nfc.ts";
import {
  neutraliseAtOpeners,
  neutralisePlainTags,
  neutraliseScannedTags,
} from "./neutralise-tags.ts";
import { bmpClasses, classAt, OPEN_BIT, PAIR_BIT, STRIP_BIT, unitsAt } from "./reading-classes.ts";
import { cutBytes, truncateBytes } from "./truncate.ts";

// Anything outside printable ASCII, tab and newline: without one, R1-R4 are the identity.
const NOT_PLAIN_ASCII = /[^\t\n\x20-\x7E]/;
// Every code point below U+0300 is NFC-stable and none of them combines with a neighbour below
// U+0300, so NFC is the identity on text that has nothing at or above U+0300.
const FIRST_NFC_UNSTABLE = 0x300;
const MAY_NEED_NFC = /[^\0-\u02FF]/;
const LT = 0x3c;
// `<` + U+0338 composes to `≮` (and `≺` + U+0338 to `⊀`): NFC can make a look-alike opener.
const COMBINING_LONG_SOLIDUS_OVERLAY = 0x338;
// Each stretch R4 normalises locally costs a native call (about what NFC and a scan cost on 64
// code units); past one join per 64 units, one whole-text NFC and a fresh opener scan are cheaper,
// so text built of deletions before combining marks costs no more than it did before.
const UNITS_PER_LOCAL_NFC = 64;

/** R1-R4 of a text, and where R5 must look. */
export interface CleanText {
  readonly text: string;
  /** UTF-16 offsets in `text` of every opener (`<` or a look-alike), ascending; `null` when R4
   * normalised the whole text (R5 then finds them itself). */
  readonly openers: readonly number[] | null;
  /** False only when `text` holds no look-alike of `<` (so `indexOf("<")` finds every opener). */
  readonly lookAlikes: boolean;
  /** UTF-8 length of `text` less its UTF-16 length; `null` when R4 normalised the whole text. */
  readonly extraBytes: number | null;
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
 * R1-R4 of docs/spec/formats.md §1.1 (repair, NFC, strip, NFC) for text that is not plain ASCII. R3
 * is one pass over the code units that also records every opener, so R5 need not scan again.
 *
 * R4 runs only when needed: the text is NFC after R2, and deleting a Cc or Cf code point (none
 * decomposes, appears in a decomposition, or has a non-zero combining class) can only un-block a
 * composition or a reordering when the code point now following the deleted run is at or above
 * U+0300 (every combining mark and every second half of a canonical composition is). Otherwise the
 * stripped text is already NFC and the recorded openers stand; where it is, R4 normalises only
 * the stretch around each such join and moves the openers ({@link renormaliseAt}), which gives
 * NFC of the whole text without a second pass over it; where joins are dense, R4 is one NFC of
 * the whole text instead. R2 is skipped when nothing is at or
 * above U+0300 (NFC is the identity there). sanitize.test.ts checks these premises over every
 * code point and compares against the literal four-step pipeline.
 *
 * @example cleanMixedText("ok\r\n").text === "ok\n"
 */
export function cleanMixedText(s: string): CleanText {
  const repaired = isWellFormed(s) ? s : toWellFormed(s);
  const t = MAY_NEED_NFC.test(repaired) ? repaired.normalize("NFC") : repaired;
  const bmp = bmpClasses();
  const openers: number[] = [];
  let out = "";
  let copied = 0;
  let removed = 0;
  let afterStrip = false;
  // Where a deleted run is followed by a code unit at or above U+0300: the only places R4 can act.
  const joins: number[] = [];
  let lookAlikes = false;
  // Counted here, where each kept code point is looked at anyway, so that a body needs no
  // second pass to learn whether it fits its byte cap.
  let extraBytes = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) {
      if (c === LT) openers.push(i - removed);
      afterStrip = false;
      continue;
    }
    let k = bmp[c] ?? 0;
    let units = 1;
    if ((k & PAIR_BIT) !== 0) {
      k = classAt(t, i);
      units = unitsAt(t, i);
    }
    if ((k & STRIP_BIT) !== 0) {
      out += t.slice(copied, i);
      copied = i + units;
      removed += units;
      afterStrip = true;
    } else {
      if (afterStrip && c >= FIRST_NFC_UNSTABLE) joins.push(i - removed);
      afterStrip = false;
      // Tab and newline take one byte, U+0080-U+07FF two, the rest of the BMP three, a pair four.
      extraBytes += c < 0x80 ? 0 : c < 0x800 ? 1 : 2;
      if ((k & OPEN_BIT) !== 0) {
        openers.push(i - removed);
        lookAlikes = true;
      } else if (c === COMBINING_LONG_SOLIDUS_OVERLAY) {
        lookAlikes = true;
      }
    }
    i += units - 1;
  }
  const stripped = copied === 0 ? t : out + t.slice(copied);
  if (joins.length === 0) return { text: stripped, openers, lookAlikes, extraBytes };
  if (joins.length * UNITS_PER_LOCAL_NFC >= stripped.length) {
    return { text: stripped.normalize("NFC"), openers: null, lookAlikes, extraBytes: null };
  }
  const renormalised = renormaliseAt(stripped, joins, openers);
  return {
    text: renormalised.text,
    openers: renormalised.openers,
    lookAlikes,
    extraBytes: extraBytes + renormalised.extraBytesGained,
  };
}

/**
 * The sanitiser, rules R1-R5 of docs/spec/formats.md §1.1 with R5 as amended in
 * docs/11-sanitizer.md, no length cap: lone surrogates become U+FFFD; NFC; every Cc except `\t` and
 * `\n` and every Cf is deleted; NFC again; the opener of every family tag on the tag reading (any
 * case, look-alike brackets, slashes, dashes and letters, invisible code points and combining marks
 * read past) becomes `&lt;`. Idempotent. Returns the input itself when nothing needs doing.
 *
 * @example sanitize("Deploy <System-Reminder>now") === "Deploy &lt;System-Reminder>now"
 */
export function sanitize(s: string): string {
  return isPlainAscii(s) ? neutralisePlainTags(s) : sanitizeMixedText(s);
}

/**
 * {@link sanitize} for text known not to be plain ASCII, so that scan is not repeated.
 *
 * @example sanitizeMixedText("\uFF1Cchannel\r") === "&lt;channel"
 */
export function sanitizeMixedText(s: string): string {
  const clean = cleanMixedText(s);
  return clean.openers === null
    ? neutraliseScannedTags(clean.text, clean.lookAlikes)
    : neutraliseAtOpeners(clean.text, clean.openers).text;
}

/**
 * {@link sanitizeMixedText} capped at `maxBytes` UTF-8 bytes as {@link truncateBytes} caps it.
 *
 * @example sanitizeMixedTextCapped("\u20AC".repeat(5462), 16384).endsWith("[truncated]")
 */
export function sanitizeMixedTextCapped(s: string, maxBytes: number): string {
  const clean = cleanMixedText(s);
  if (clean.openers === null || clean.extraBytes === null) {
    return truncateBytes(neutraliseScannedTags(clean.text, clean.lookAlikes), maxBytes);
  }
  const { text, bytesAdded } = neutraliseAtOpeners(clean.text, clean.openers);
  // The UTF-8 length is known from R3's count and R5's, so the text is encoded only to cut it.
  const bytes = clean.text.length + clean.extraBytes + bytesAdded;
  return bytes <= maxBytes ? text : cutBytes(text, maxBytes);
}
