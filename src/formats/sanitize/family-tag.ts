import { FRAME_TAG_FAMILIES } from "./frame-tag-families.ts";
import {
  letterBit,
  OPEN_BIT,
  OPEN_CLASS,
  readingClass,
  SKIP_BIT,
  SLASH_BIT,
  SPACE_BIT,
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

const OPENERS = new RegExp(`[${OPEN_CLASS}]`, "gu");

/** UTF-16 length of the code point at `i` of `s` (1 or 2). */
function unitsAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ? 2
    : 1;
}

/** Offset of the first code point at or after `i` that the reading does not skip. */
function skipFrom(s: string, i: number): number {
  let j = i;
  while (j < s.length && (readingClass(s.codePointAt(j) ?? 0) & SKIP_BIT) !== 0) j += unitsAt(s, j);
  return j;
}

/** Offset just past `family`'s last letter when the name starts at `i` on the reading, else -1. */
function nameEnd(s: string, i: number, bits: readonly number[]): number {
  let j = i;
  for (const bit of bits) {
    j = skipFrom(s, j);
    if (j >= s.length || (readingClass(s.codePointAt(j) ?? 0) & bit) === 0) return -1;
    j += unitsAt(s, j);
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
  if (at < 0 || at >= s.length || (readingClass(s.codePointAt(at) ?? 0) & OPEN_BIT) === 0) {
    return null;
  }
  const openerEnd = at + unitsAt(s, at);
  let i = openerEnd;
  let closing = false;
  while (i < s.length) {
    const c = readingClass(s.codePointAt(i) ?? 0);
    if ((c & (SKIP_BIT | SPACE_BIT)) !== 0 || ((c & SLASH_BIT) !== 0 && !closing)) {
      if ((c & SLASH_BIT) !== 0) closing = true;
      i += unitsAt(s, i);
      continue;
    }
    break;
  }
  for (const [k, bits] of FAMILY_BITS.entries()) {
    const end = nameEnd(s, i, bits);
    const family = FRAME_TAG_FAMILIES[k];
    if (end !== -1 && family !== undefined) return { start: at, openerEnd, end, family, closing };
  }
  return null;
}

/**
 * The first family tag of `s` that begins at or after offset `from` (see {@link familyTagAt}),
 * or `null`. Only opener positions are tried, found by one native regex scan.
 *
 * @example findFamilyTag("a < b </\u034Fchannel")?.start === 6
 */
export function findFamilyTag(s: string, from = 0): FamilyTag | null {
  OPENERS.lastIndex = Math.max(0, from);
  for (let m = OPENERS.exec(s); m !== null; m = OPENERS.exec(s)) {
    const tag = familyTagAt(s, m.index);
    if (tag !== null) return tag;
  }
  return null;
}
