import { FRAME_TAG_FAMILIES } from "./frame-tag-families.ts";
import {
  bmpClasses,
  classAt,
  letterBit,
  OPEN_BIT,
  OPEN_CLASS,
  PAIR_BIT,
  SKIP_BIT,
  SLASH_BIT,
  SPACE_BIT,
  unitsAt,
} from "./reading-classes.ts";

/** One of the five {@link FRAME_TAG_FAMILIES}. */
export type FrameTagFamily = (typeof FRAME_TAG_FAMILIES)[number];

/**
 * Where a family tag stands in a string, as UTF-16 offsets: the opener (`<` or a look-alike) at
 * `[start, openerEnd)`, the family name's last letter ending at `end`. Skipped characters after
 * the last letter are not part of the tag.
 */
export interface FamilyTag {
  readonly start: number;
  readonly openerEnd: number;
  readonly end: number;
  readonly family: FrameTagFamily;
  /** Whether a `/` (or a look-alike) stands between the opener and the name. */
  readonly closing: boolean;
}

/** Each family as the reading bits of its characters. */
const FAMILY_BITS: readonly (readonly number[])[] = FRAME_TAG_FAMILIES.map((family) =>
  [...family].map(letterBit),
);
/** The bits of every family's first letter: a name can only start on one of them. */
const FIRST_LETTERS: number = FAMILY_BITS.reduce((all, bits) => all | (bits[0] ?? 0), 0);

/**
 * Offset just past the name spelled by `bits` when it starts at `i` on the reading, else -1.
 * `bmp` is {@link bmpClasses}: code units are read directly, a pair only where one starts.
 */
function nameEnd(s: string, i: number, bits: readonly number[], bmp: Int32Array): number {
  let j = i;
  for (const bit of bits) {
    let c = j < s.length ? (bmp[s.charCodeAt(j)] ?? 0) : 0;
    let units = 1;
    if ((c & PAIR_BIT) !== 0) {
      c = classAt(s, j);
      units = unitsAt(s, j);
    }
    while ((c & SKIP_BIT) !== 0) {
      j += units;
      c = j < s.length ? (bmp[s.charCodeAt(j)] ?? 0) : 0;
      units = 1;
      if ((c & PAIR_BIT) !== 0) {
        c = classAt(s, j);
        units = unitsAt(s, j);
      }
    }
    if ((c & bit) === 0) return -1;
    j += units;
  }
  return j;
}

/**
 * The family tag that begins at offset `at` of `s`, or `null`. The rule (docs/11-sanitizer.md)
 * reads the text the way a person or a model does: an opener (`<` or one of its look-alikes),
 * then whitespace, at most one `/` (or look-alike), whitespace, then a family name (prefix match,
 * no boundary) whose letters may be ASCII in either case, `ſ`, or confusable letters, whose `-` may
 * be `_` or a dash look-alike; and anywhere after the opener, any number of skipped code points
 * (Default_Ignorable_Code_Point, combining marks, Cf, Cc but tab and newline). Whitespace is not
 * allowed inside the name. Pure; any string, lone surrogates included.
 *
 * @example familyTagAt("x\uFF1C/\u034Fchannel", 1)?.family === "channel"
 */
export function familyTagAt(s: string, at: number): FamilyTag | null {
  if (at < 0 || (classAt(s, at) & OPEN_BIT) === 0) return null;
  const bmp = bmpClasses();
  const openerEnd = at + unitsAt(s, at);
  let i = openerEnd;
  let closing = false;
  let c = classAt(s, i);
  while ((c & (SKIP_BIT | SPACE_BIT)) !== 0 || ((c & SLASH_BIT) !== 0 && !closing)) {
    if ((c & SLASH_BIT) !== 0) closing = true;
    i += unitsAt(s, i);
    c = classAt(s, i);
  }
  if ((c & FIRST_LETTERS) === 0) return null;
  for (let k = 0; k < FAMILY_BITS.length; k++) {
    const bits = FAMILY_BITS[k] ?? [];
    if ((c & (bits[0] ?? 0)) === 0) continue;
    const end = nameEnd(s, i, bits, bmp);
    const family = FRAME_TAG_FAMILIES[k];
    if (end !== -1 && family !== undefined) return { start: at, openerEnd, end, family, closing };
  }
  return null;
}

/** Every look-alike of `<` as a string (one or two UTF-16 units). */
const LOOK_ALIKES: readonly string[] = [...OPEN_CLASS.slice(1).matchAll(/\\u\{([0-9a-f]+)\}/g)].map(
  ([, hex]) => String.fromCodePoint(Number.parseInt(hex ?? "", 16)),
);

// Code units, no `u`, one class: the BMP look-alikes and the high surrogates of the astral ones
// (U+1D236). A single class of code units is the fastest native scan there is; a surrogate found
// is checked afterwards.
const LOOK_ALIKE_UNITS = new RegExp(
  `[${[...new Set(LOOK_ALIKES.map((c) => c.charAt(0)))].join("")}]`,
  "g",
);

/**
 * Offset of the first look-alike of `<` (not `<` itself) in `s` at or after `from`, or -1.
 *
 * @example nextLookAlikeOpener("<a\uFF1C", 0) === 2
 */
export function nextLookAlikeOpener(s: string, from: number): number {
  LOOK_ALIKE_UNITS.lastIndex = from;
  for (let m = LOOK_ALIKE_UNITS.exec(s); m !== null; m = LOOK_ALIKE_UNITS.exec(s)) {
    if ((classAt(s, m.index) & OPEN_BIT) !== 0) return m.index;
  }
  return -1;
}

/** Offset of the first opener (`<` or a look-alike) of `s` at or after `from`, or -1. */
function nextOpener(s: string, from: number): number {
  const lt = s.indexOf("<", from);
  const alike = nextLookAlikeOpener(s, from);
  return alike === -1 || (lt !== -1 && lt < alike) ? lt : alike;
}

/**
 * The first family tag of `s` that begins at or after offset `from` (see {@link familyTagAt}),
 * or `null`. Only opener positions are tried.
 *
 * @example findFamilyTag("a < b </\u034Fchannel")?.start === 6
 */
export function findFamilyTag(s: string, from = 0): FamilyTag | null {
  for (let at = nextOpener(s, Math.max(0, from)); at !== -1; at = nextOpener(s, at + 1)) {
    const tag = familyTagAt(s, at);
    if (tag !== null) return tag;
  }
  return null;
}
