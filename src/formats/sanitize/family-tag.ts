import { FRAME_TAG_FAMILIES } from "./frame-tag-families.ts";
import {
  bmpClasses,
  classAt,
  LOWEST_LOOK_ALIKE_OPENER,
  letterBit,
  OPEN_BIT,
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
const LT = 0x3c;
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
 * Where a family name would start after the opener at `at`: past skipped code points and
 * whitespace around at most one slash. `i` is -1 when no family's first letter stands there;
 * `closing` tells whether a slash was passed.
 */
function nameStart(s: string, at: number): { readonly i: number; readonly closing: boolean } {
  let i = at + unitsAt(s, at);
  let closing = false;
  let c = classAt(s, i);
  while ((c & (SKIP_BIT | SPACE_BIT)) !== 0 || ((c & SLASH_BIT) !== 0 && !closing)) {
    if ((c & SLASH_BIT) !== 0) closing = true;
    i += unitsAt(s, i);
    c = classAt(s, i);
  }
  return { i: (c & FIRST_LETTERS) === 0 ? -1 : i, closing };
}

/** Every family's reading bits one after another, and where each family's run starts. */
const NAME_BITS = new Int32Array(FAMILY_BITS.flat());
const NAME_STARTS = new Int32Array(FAMILY_BITS.length + 1);
for (let f = 0; f < FAMILY_BITS.length; f++) {
  NAME_STARTS[f + 1] = (NAME_STARTS[f] ?? 0) + (FAMILY_BITS[f]?.length ?? 0);
}

/**
 * Whether a family tag begins at the opener at offset `at` of `s` (which must hold an opener):
 * {@link familyTagAt}'s answer without building it. One walk over the class table with no calls
 * and no allocation on the common path, since it runs once per opener of every sanitised text.
 */
export function isFamilyTagAt(s: string, at: number): boolean {
  // Imported bindings are loaded from their module at every use; locals stay in registers.
  const skip = SKIP_BIT;
  const skipOrSpace = SKIP_BIT | SPACE_BIT;
  const slash = SLASH_BIT;
  const pair = PAIR_BIT;
  const bmp = bmpClasses();
  const n = s.length;
  // An opener that starts with a high surrogate is U+1D236, a pair (a lone one opens nothing).
  let i = at + ((s.charCodeAt(at) & 0xfc00) === 0xd800 ? 2 : 1);
  let closing = false;
  let c = 0;
  let units = 1;
  for (;;) {
    if (i >= n) return false;
    c = bmp[s.charCodeAt(i)] ?? 0;
    units = 1;
    if ((c & pair) !== 0) {
      c = classAt(s, i);
      units = unitsAt(s, i);
    }
    if ((c & skipOrSpace) === 0 && ((c & slash) === 0 || closing)) break;
    if ((c & slash) !== 0) closing = true;
    i += units;
  }
  if ((c & FIRST_LETTERS) === 0) return false;
  const first = c;
  const second = i + units;
  for (let f = 0; f + 1 < NAME_STARTS.length; f++) {
    let p = NAME_STARTS[f] ?? 0;
    const end = NAME_STARTS[f + 1] ?? 0;
    if ((first & (NAME_BITS[p] ?? 0)) === 0) continue;
    p++;
    let j = second;
    while (p < end && j < n) {
      c = bmp[s.charCodeAt(j)] ?? 0;
      units = 1;
      if ((c & pair) !== 0) {
        c = classAt(s, j);
        units = unitsAt(s, j);
      }
      j += units;
      if ((c & skip) !== 0) continue;
      if ((c & (NAME_BITS[p] ?? 0)) === 0) break;
      p++;
    }
    if (p === end) return true;
  }
  return false;
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
  const { i, closing } = nameStart(s, at);
  if (i === -1) return null;
  const bmp = bmpClasses();
  const c = classAt(s, i);
  for (let k = 0; k < FAMILY_BITS.length; k++) {
    const bits = FAMILY_BITS[k] ?? [];
    if ((c & (bits[0] ?? 0)) === 0) continue;
    const end = nameEnd(s, i, bits, bmp);
    const family = FRAME_TAG_FAMILIES[k];
    if (end !== -1 && family !== undefined) {
      return { start: at, openerEnd: at + unitsAt(s, at), end, family, closing };
    }
  }
  return null;
}

/**
 * Offset of the first opener (`<` or a look-alike) of `s` at or after `from`, or -1. Reads code
 * units against the class table: one pass, no allocation. Text without a look-alike opener is
 * faster served by `indexOf("<")`.
 *
 * @example nextOpener("ab\uFF1C<", 0) === 2
 */
export function nextOpener(s: string, from: number): number {
  const bmp = bmpClasses();
  for (let i = Math.max(0, from); i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === LT) return i;
    if (c < LOWEST_LOOK_ALIKE_OPENER) continue;
    const k = bmp[c] ?? 0;
    if ((k & OPEN_BIT) !== 0 || ((k & PAIR_BIT) !== 0 && (classAt(s, i) & OPEN_BIT) !== 0)) {
      return i;
    }
  }
  return -1;
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
