import { toWellFormed } from "../text/index.ts";
import { renormaliseAt } from "./local-nfc.ts";
import {
  neutraliseAtOpeners,
  neutralisePlainTags,
  neutraliseScannedTags,
} from "./neutralise-tags.ts";
import {
  pairKindBases,
  UNIT_ASTRAL_CHECK,
  UNIT_HIGH,
  UNIT_LONG_SOLIDUS,
  UNIT_LOW,
  UNIT_OPEN,
  UNIT_STRIP,
  unitKinds,
} from "./reading-classes.ts";
import { truncateBytes } from "./truncate.ts";

// Anything outside printable ASCII, tab and newline: without one, R1-R4 are the identity.
const NOT_PLAIN_ASCII = /[^\t\n\x20-\x7E]/;
// Every code point below U+0300 is NFC-stable and none of them combines with a neighbour below
// U+0300, so NFC is the identity on text that has nothing at or above U+0300.
const FIRST_NFC_UNSTABLE = 0x300;
const MAY_NEED_NFC = /[^\0-\u02FF]/;
const LT = 0x3c;
// Each stretch R4 normalises locally costs a native call (about what NFC and a scan cost on 64
// code units); past one join per 64 units, one whole-text NFC and a fresh opener scan are cheaper,
// so text built of deletions before combining marks costs no more than it did before.
const UNITS_PER_LOCAL_NFC = 64;
// Lone surrogates R1 splices one by one before it repairs the rest of the text natively: a
// splice is cheap, a native repair copies the rest of the text twice.
const SPLICED_LONE_SURROGATES = 32;

/** R1-R4 of a text, and where R5 must look. */
export interface CleanText {
  readonly text: string;
  /** UTF-16 offsets in `text` of every opener (`<` or a look-alike), ascending; `null` when R4
   * normalised the whole text (R5 then finds them itself). */
  readonly openers: readonly number[] | null;
  /** False only when `text` holds no look-alike of `<` (so `indexOf("<")` finds every opener). */
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
 * How many UTF-16 code units the code point at offset `i` (< its length) of `t` takes when rule
 * R3 deletes it, else 0; `kinds` and `pairBases` are {@link unitKinds} and {@link pairKindBases}.
 */
function strippedUnitsAt(t: string, i: number, kinds: Uint8Array, pairBases: Uint32Array): number {
  const c = t.charCodeAt(i);
  const kind = kinds[c] ?? 0;
  if ((kind & UNIT_STRIP) !== 0) return 1;
  if ((kind & UNIT_ASTRAL_CHECK) === 0) return 0;
  const d = t.charCodeAt(i + 1);
  if (!(d >= 0xdc00 && d <= 0xdfff)) return 0;
  return ((kinds[(pairBases[c - 0xd800] ?? 0) + d - 0xdc00] ?? 0) & UNIT_STRIP) !== 0 ? 2 : 0;
}

/**
 * R1-R4 of docs/spec/formats.md §1.1 (repair, NFC, strip, NFC) for text that is not plain ASCII.
 * After R2 (one native NFC, skipped when nothing is at or above U+0300), one pass over the code
 * units reads a one-byte kind per unit ({@link unitKinds}): most units are of kind 0 and cost a
 * load and a test. The rare rest does R1 (a lone surrogate becomes U+FFFD; past a few, the rest of
 * the text is repaired natively), R3 (a deleted run is cut out) and records every opener for R5.
 *
 * R1 after R2 gives the same text as before it: NFC passes a lone surrogate through untouched, as
 * it does U+FFFD (both are starters that compose with nothing). R4 runs only when needed: the
 * text is NFC after R2, and deleting a Cc or Cf code point (none decomposes, appears in a
 * decomposition, or has a non-zero combining class) can only un-block a composition or a
 * reordering when the code point now following the deleted run is at or above U+0300 (every
 * combining mark and every second half of a canonical composition is). Otherwise the stripped text
 * is already NFC and the recorded openers stand; where it is, R4 normalises only the stretch
 * around each such join and moves the openers ({@link renormaliseAt}); where joins are dense, R4
 * is one NFC of the whole text instead. sanitize.test.ts and tag-reading.test.ts check these
 * premises over every code point and compare against the literal four-step pipeline.
 *
 * @example cleanMixedText("ok\r\n").text === "ok\n"
 */
export function cleanMixedText(s: string): CleanText {
  let t = MAY_NEED_NFC.test(s) ? s.normalize("NFC") : s;
  const kinds = unitKinds();
  const pairBases = pairKindBases();
  // Imported bindings are loaded from their module at every use; locals stay in registers.
  const surrogate = UNIT_HIGH | UNIT_LOW;
  const low = UNIT_LOW;
  const strip = UNIT_STRIP;
  const open = UNIT_OPEN;
  const solidus = UNIT_LONG_SOLIDUS;
  const n = t.length;
  const openers: number[] = [];
  // Where a deleted run is followed by a code unit at or above U+0300: the only places R4 can act.
  const joins: number[] = [];
  let lookAlikes = false;
  let out = "";
  let copied = 0;
  let removed = 0;
  let lone = 0;
  let i = 0;
  for (;;) {
    // The common path, a loop of its own so that it compiles to a load and a test per unit.
    let kind = 0;
    for (; i < n; i++) {
      kind = kinds[t.charCodeAt(i)] ?? 0;
      if (kind !== 0) break;
    }
    if (i >= n) break;
    let units = 1;
    if ((kind & surrogate) !== 0) {
      const next = t.charCodeAt(i + 1);
      if ((kind & low) !== 0 || !(next >= 0xdc00 && next <= 0xdfff)) {
        // R1: a lone surrogate becomes U+FFFD, one unit for one, so no offset moves. A few are
        // spliced here; past that, the rest of the text is repaired at once, natively, so text
        // made of them costs one native call instead of a piece each.
        if (++lone <= SPLICED_LONE_SURROGATES) {
          out += `${t.slice(copied, i)}\uFFFD`;
          copied = i + 1;
          i++;
        } else {
          t = t.slice(0, i) + toWellFormed(t.slice(i));
        }
        continue;
      }
      units = 2;
      const base = pairBases[t.charCodeAt(i) - 0xd800] ?? 0;
      kind = base === 0 ? 0 : (kinds[base + next - 0xdc00] ?? 0);
    }
    if ((kind & strip) !== 0) {
      // R3: cut out the whole deleted run, then note a join if R4 may act there.
      let end = i + units;
      for (;;) {
        units = end < n ? strippedUnitsAt(t, end, kinds, pairBases) : 0;
        if (units === 0) break;
        end += units;
      }
      out += t.slice(copied, i);
      removed += end - i;
      copied = end;
      if (end < n && t.charCodeAt(end) >= FIRST_NFC_UNSTABLE) joins.push(end - removed);
      i = end;
      continue;
    }
    if ((kind & open) !== 0) {
      openers.push(i - removed);
      if (t.charCodeAt(i) !== LT) lookAlikes = true;
    } else if ((kind & solidus) !== 0) {
      lookAlikes = true;
    }
    i += units;
  }
  const stripped = copied === 0 ? t : out + t.slice(copied);
  if (joins.length === 0) return { text: stripped, openers, lookAlikes };
  if (joins.length * UNITS_PER_LOCAL_NFC >= stripped.length) {
    return { text: stripped.normalize("NFC"), openers: null, lookAlikes };
  }
  const renormalised = renormaliseAt(stripped, joins, openers);
  return {
    text: renormalised.text,
    openers: renormalised.openers,
    lookAlikes,
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
    : neutraliseAtOpeners(clean.text, clean.openers);
}

/**
 * {@link sanitizeMixedText} capped at `maxBytes` UTF-8 bytes as {@link truncateBytes} caps it.
 *
 * @example sanitizeMixedTextCapped("\u20AC".repeat(5462), 16384).endsWith("[truncated]")
 */
export function sanitizeMixedTextCapped(s: string, maxBytes: number): string {
  return truncateBytes(sanitizeMixedText(s), maxBytes);
}
