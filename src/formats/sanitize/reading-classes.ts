import { CONFUSABLE_FOLD_TABLE } from "../cross-session/confusable-fold-table.ts";
import { READ_TAG_NAMES } from "./read-tag-names.ts";
import {
  BACKSLASH_LOOK_ALIKES,
  BLANK_LOOK_ALIKES,
  CLOSE_LOOK_ALIKES,
  DASH_LOOK_ALIKES,
  OPEN_LOOK_ALIKES,
  QUOTE_LOOK_ALIKES,
  SKIP_RANGES,
  SLASH_LOOK_ALIKES,
  STRIP_RANGES,
} from "./tag-reading-table.ts";

// One bit per letter that some read name uses, then the classes of the tag reading. Every class
// must fit in 30 bits, so that a class is always a small integer (never a boxed number):
// tag-reading.test.ts checks it. A code point may carry several letter bits (Cyrillic `і` reads
// as `i` or `l`).
const LETTERS = [...new Set(READ_TAG_NAMES.join("").replace(/[-_]/g, ""))].sort().join("");
/** Bits of every letter some read name uses. */
export const LETTER_BITS: number = (1 << LETTERS.length) - 1;
/** Bit of `-` (and of `_` and every dash look-alike) in a reading class. */
export const DASH_BIT: number = 1 << LETTERS.length;
/** Bit of what the reading skips (docs/11-sanitizer.md): never part of the tag, never blocks it. */
export const SKIP_BIT: number = DASH_BIT << 1;
/**
 * Bit of whitespace and of what draws a blank like it: allowed around the `/` of a tag
 * (docs/spec/formats.md §1.2 WS) and in place of a name's `-`.
 */
export const SPACE_BIT: number = DASH_BIT << 2;
/** Bit of `<` and its look-alikes. */
export const OPEN_BIT: number = DASH_BIT << 3;
/** Bit of `/` and its look-alikes. */
export const SLASH_BIT: number = DASH_BIT << 4;
/**
 * Bit of a high surrogate in the BMP table ({@link bmpClasses}): the class is the pair's, so a
 * loop over code units takes {@link classAt}'s slow path only there.
 */
export const PAIR_BIT: number = DASH_BIT << 5;
/** Bit of `\` and its look-alikes: an escape of the `/` that follows it. */
export const BACKSLASH_BIT: number = DASH_BIT << 6;

// GO_SPACE as it survives R3: the whitespace the tag rule has always allowed. Blank look-alikes
// (U+2800 …) are added from the generated table.
const SPACES =
  "\t\n \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000";

/**
 * The reading bits of one letter or `-`: its letter bit or {@link DASH_BIT}; 0 for anything else,
 * including a letter that no family name uses.
 *
 * @example letterBit("c") !== 0 && letterBit("z") === 0
 */
export function letterBit(x: string): number {
  if (x === "-") return DASH_BIT;
  const i = LETTERS.indexOf(x);
  return x.length === 1 && i !== -1 ? 1 << i : 0;
}

interface ReadingClasses {
  readonly bmp: Int32Array;
  readonly astral: ReadonlyMap<number, number>;
}

/** Calls `each` for every code point of a generated `"hex hex-hex …"` list. */
function forEachCodePoint(ranges: string, each: (cp: number) => void): void {
  for (const range of ranges.split(" ")) {
    const [from, to] = range.split("-");
    const first = Number.parseInt(from ?? "", 16);
    const last = to === undefined ? first : Number.parseInt(to, 16);
    for (let cp = first; cp <= last; cp++) each(cp);
  }
}

function buildClasses(): ReadingClasses {
  const bmp = new Int32Array(0x10000);
  const astral = new Map<number, number>();
  const add = (cp: number, bits: number): void => {
    if (cp < 0x10000) bmp[cp] = (bmp[cp] ?? 0) | bits;
    else astral.set(cp, (astral.get(cp) ?? 0) | bits);
  };
  for (const x of LETTERS) {
    add(x.charCodeAt(0), letterBit(x));
    add(x.toUpperCase().charCodeAt(0), letterBit(x));
  }
  // Simple case folding: the two non-ASCII code points that fold to an ASCII letter.
  add(0x17f, letterBit("s"));
  add(0x212a, letterBit("k"));
  add(0x2d, DASH_BIT);
  add(0x5f, DASH_BIT);
  // Confusable letters and dashes; a multi-letter skeleton (`dz`, `ss`) is not a single letter
  // and is left out.
  for (const [value, ranges] of CONFUSABLE_FOLD_TABLE) {
    let bits = 0;
    for (const alternative of value.split("|")) bits |= letterBit(alternative);
    if (bits !== 0) forEachCodePoint(ranges, (cp) => add(cp, bits));
  }
  forEachCodePoint(DASH_LOOK_ALIKES, (cp) => add(cp, DASH_BIT));
  for (const c of SPACES) add(c.charCodeAt(0), SPACE_BIT);
  forEachCodePoint(BLANK_LOOK_ALIKES, (cp) => add(cp, SPACE_BIT));
  add(0x3c, OPEN_BIT);
  add(0x2f, SLASH_BIT);
  add(0x5c, BACKSLASH_BIT);
  forEachCodePoint(OPEN_LOOK_ALIKES, (cp) => add(cp, OPEN_BIT));
  forEachCodePoint(SLASH_LOOK_ALIKES, (cp) => add(cp, SLASH_BIT));
  forEachCodePoint(BACKSLASH_LOOK_ALIKES, (cp) => add(cp, BACKSLASH_BIT));
  forEachCodePoint(SKIP_RANGES, (cp) => add(cp, SKIP_BIT));
  bmp.fill(PAIR_BIT, 0xd800, 0xdc00);
  return { bmp, astral };
}

let folded: ReadonlySet<number> | undefined;
// A letter or a digit of any script.
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

/**
 * Whether code point `cp` would continue a tag name: a letter or digit of any script, `-`, `_`, a
 * dash look-alike, or a code point the confusable fold reads as letters, digits or a dash; never
 * an opener (`ᐸ` is a letter too), which the sanitiser may rewrite to `&lt;`. After a whole name
 * (Claude Code's tags) such a code point makes a longer word: `<tickets>` is not `<tick>`. The
 * fold's set is built on the first call.
 *
 * @example continuesName(0x73) && continuesName(0x2014) && !continuesName(0x3e)
 */
export function continuesName(cp: number): boolean {
  if (cp < 0x80) {
    // ASCII, the common case after a name (`>`, a space): letters, digits, `-` and `_`.
    const lower = cp | 0x20;
    return (
      (lower >= 0x61 && lower <= 0x7a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x2d || cp === 0x5f
    );
  }
  const c = readingClass(cp);
  if ((c & OPEN_BIT) !== 0) return false;
  if ((c & DASH_BIT) !== 0 || WORD_CHARACTER.test(String.fromCodePoint(cp))) return true;
  if (folded === undefined) {
    const set = new Set<number>();
    for (const [, ranges] of CONFUSABLE_FOLD_TABLE) forEachCodePoint(ranges, (c) => set.add(c));
    folded = set;
  }
  return folded.has(cp);
}

let classes: ReadingClasses | undefined;

function tables(): ReadingClasses {
  classes ??= buildClasses();
  return classes;
}

/**
 * The reading class of one code point: letter bits, {@link DASH_BIT}, {@link SKIP_BIT},
 * {@link SPACE_BIT}, {@link OPEN_BIT}, {@link SLASH_BIT}, {@link BACKSLASH_BIT}, or 0. The table
 * (256 KiB) is built on the first call, so a process that only ever sanitises ASCII never builds
 * it.
 *
 * @example (readingClass(0xff1c) & OPEN_BIT) !== 0
 */
export function readingClass(cp: number): number {
  const { bmp, astral } = tables();
  return cp < 0x10000 ? (bmp[cp] ?? 0) : (astral.get(cp) ?? 0);
}

/**
 * The BMP part of the class table, indexed by code unit: for loops that read code units and call
 * {@link classAt} only where an entry has {@link PAIR_BIT} (a high surrogate; low ones are 0).
 */
export function bmpClasses(): Int32Array {
  return tables().bmp;
}

/**
 * The reading class of the code point that starts at UTF-16 offset `i` of `s`: 0 past the end
 * and for a lone surrogate. Example: `classAt("a\uFF1C", 1)` has {@link OPEN_BIT}.
 */
export function classAt(s: string, i: number): number {
  if (i >= s.length) return 0;
  const c = s.charCodeAt(i);
  if ((c & 0xfc00) !== 0xd800) return tables().bmp[c] ?? 0;
  const d = s.charCodeAt(i + 1);
  if ((d & 0xfc00) !== 0xdc00) return 0;
  return tables().astral.get(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) ?? 0;
}

/** UTF-16 length of the code point at offset `i` of `s`: 2 for a surrogate pair, else 1. */
export function unitsAt(s: string, i: number): number {
  return (s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}

/** {@link unitKinds} bit: a BMP code point that rule R3 deletes. */
export const UNIT_STRIP = 1;
/** {@link unitKinds} bit: a BMP opener (`<` or a look-alike). */
export const UNIT_OPEN = 2;
/** {@link unitKinds} bit: a high surrogate. */
export const UNIT_HIGH = 4;
/** {@link unitKinds} bit: a low surrogate (unpaired when a pass meets it on its own). */
export const UNIT_LOW = 8;
/** {@link unitKinds} bit: a high surrogate that starts some astral code point R3 deletes or that opens. */
export const UNIT_ASTRAL_CHECK = 16;
/** {@link unitKinds} bit: U+0338, which NFC composes with `<` (and `≺`) into a look-alike opener. */
export const UNIT_LONG_SOLIDUS = 32;

interface UnitKinds {
  readonly units: Uint8Array;
  readonly pairBases: Uint32Array;
}

let kinds: UnitKinds | undefined;

// Built from the generated lists, not from the class table, so that text without an opener never
// needs the class table at all.
function buildKinds(): UnitKinds {
  const astral: [number, number][] = [];
  const units0 = new Uint8Array(0x10000);
  const add = (cp: number, kind: number): void => {
    if (cp < 0x10000) units0[cp] = (units0[cp] ?? 0) | kind;
    else astral.push([cp, kind]);
  };
  forEachCodePoint(STRIP_RANGES, (cp) => add(cp, UNIT_STRIP));
  forEachCodePoint(OPEN_LOOK_ALIKES, (cp) => add(cp, UNIT_OPEN));
  add(0x3c, UNIT_OPEN);
  // High surrogates that start a deleted or opening code point, each given a block of 1,024 kinds
  // (one per low surrogate) after the BMP's.
  const highs = [...new Set(astral.map(([cp]) => 0xd800 + ((cp - 0x10000) >> 10)))].sort(
    (x, y) => x - y,
  );
  const units = new Uint8Array(0x10000 + highs.length * 0x400);
  units.set(units0);
  units.fill(UNIT_HIGH, 0xd800, 0xdc00);
  units.fill(UNIT_LOW, 0xdc00, 0xe000);
  const pairBases = new Uint32Array(0x400);
  highs.forEach((high, k) => {
    units[high] = UNIT_HIGH | UNIT_ASTRAL_CHECK;
    pairBases[high - 0xd800] = 0x10000 + k * 0x400;
  });
  for (const [cp, kind] of astral) {
    const at = (pairBases[(cp - 0x10000) >> 10] ?? 0) + ((cp - 0x10000) & 0x3ff);
    units[at] = (units[at] ?? 0) | kind;
  }
  units[0x338] = UNIT_LONG_SOLIDUS;
  return { units, pairBases };
}

/**
 * What one pass over the code units of a text needs to know of each (one byte per BMP code
 * unit, 64 KiB plus 1 KiB per high surrogate in {@link pairKindBases}, built on the first call):
 * {@link UNIT_STRIP}, {@link UNIT_OPEN}, {@link UNIT_HIGH}, {@link UNIT_LOW},
 * {@link UNIT_ASTRAL_CHECK}, {@link UNIT_LONG_SOLIDUS}, or 0 for a code unit that is none of these:
 * printable ASCII but `<`, tab, newline and most other text. So the pass costs one load and one
 * test per ordinary unit, and a byte per unit keeps the table a quarter of the size of the
 * reading classes, in the fastest caches.
 */
export function unitKinds(): Uint8Array {
  kinds ??= buildKinds();
  return kinds.units;
}

/**
 * For a high surrogate `h` with {@link UNIT_ASTRAL_CHECK}, `pairKindBases()[h - 0xD800]` is where
 * the kinds ({@link UNIT_STRIP}, {@link UNIT_OPEN}) of the code points it starts begin in
 * {@link unitKinds}, indexed by the low surrogate less 0xDC00; 0 for any other high surrogate.
 */
export function pairKindBases(): Uint32Array {
  kinds ??= buildKinds();
  return kinds.pairBases;
}

/** Regex class body (no brackets, flag `u`) of a generated `"hex hex-hex …"` list. */
function classBody(ranges: string): string {
  return ranges
    .split(" ")
    .map((range) =>
      range
        .split("-")
        .map((cp) => `\\u{${cp}}`)
        .join("-"),
    )
    .join("");
}

/** Regex class body (flag `u`) of every character that reads as `<`. */
export const OPEN_CLASS: string = `<${classBody(OPEN_LOOK_ALIKES)}`;

/** Regex class body (flag `u`) of every character that reads as `>`. */
export const CLOSE_CLASS: string = `>${classBody(CLOSE_LOOK_ALIKES)}`;

/** Regex class body (flag `u`) of every character that reads as `"`. */
export const QUOTE_CLASS: string = `"${classBody(QUOTE_LOOK_ALIKES)}`;

/** The lowest look-alike of `<` (U+00AB `«`): below it, only `<` itself opens a tag. */
export const LOWEST_LOOK_ALIKE_OPENER: number = Number.parseInt(
  OPEN_LOOK_ALIKES.split(/[ -]/)[0] ?? "0",
  16,
);
