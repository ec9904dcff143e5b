import type { FRAME_TAG_FAMILIES } from "./frame-tag-families.ts";
import { READ_TAG_NAMES, readingOf, WHOLE_NAMES_FROM } from "./read-tag-names.ts";
import {
  BACKSLASH_BIT,
  bmpClasses,
  classAt,
  continuesName,
  DASH_BIT,
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
 * Where a tag stands in a string, as UTF-16 offsets: the opener (`<` or a look-alike) at
 * `[start, openerEnd)`, the name's last letter ending at `end`. Skipped characters after the last
 * letter are not part of the tag.
 */
export interface FamilyTag {
  readonly start: number;
  readonly openerEnd: number;
  readonly end: number;
  /**
   * The name read: one of the five {@link FRAME_TAG_FAMILIES}, or one of Claude Code's own tags
   * as the client spells it (`CLAUDE_CODE_TAGS`).
   */
  readonly family: string;
  /** `family` for one of the five frame families, `claude-code` for one of Claude Code's tags. */
  readonly kind: "family" | "claude-code";
  /** Whether a `/` (or a look-alike, doubled or escaped) stands between the opener and the name. */
  readonly closing: boolean;
}

/** Every read name's reading bits one after another, and where each name's run starts. */
const NAME_BITS = new Int32Array(
  READ_TAG_NAMES.flatMap((name) => [...readingOf(name)].map(letterBit)),
);
const NAME_STARTS = new Int32Array(READ_TAG_NAMES.length + 1);
READ_TAG_NAMES.forEach((name, k) => {
  NAME_STARTS[k + 1] = (NAME_STARTS[k] ?? 0) + name.length;
});
/** The bits of every name's first letter: a name can only start on one of them. */
const FIRST_LETTERS: number = READ_TAG_NAMES.reduce(
  (all, _, k) => all | (NAME_BITS[NAME_STARTS[k] ?? 0] ?? 0),
  0,
);
/**
 * For each letter bit (by its index), the names that start with that letter: the families first
 * (the spellings hostile text uses most), then Claude Code's tags sorted by their reading, so that
 * neighbours share their longest prefixes. A walk tries only those, and reads what two neighbours
 * share once ({@link SHARED_BY_FIRST}).
 */
const NAMES_BY_FIRST: readonly Int32Array[] = Array.from(
  { length: 31 },
  (_, bit) =>
    new Int32Array(
      READ_TAG_NAMES.flatMap((__, k) =>
        ((NAME_BITS[NAME_STARTS[k] ?? 0] ?? 0) & (1 << bit)) !== 0 ? [k] : [],
      ).sort((a, b) => {
        if (a < WHOLE_NAMES_FROM !== b < WHOLE_NAMES_FROM) return a - b;
        const x = readingOf(READ_TAG_NAMES[a] ?? "");
        const y = readingOf(READ_TAG_NAMES[b] ?? "");
        return x < y ? -1 : x > y ? 1 : a - b;
      }),
    ),
);
/** For each list of {@link NAMES_BY_FIRST}, how many characters each name shares with the one before. */
const SHARED_BY_FIRST: readonly Int32Array[] = NAMES_BY_FIRST.map((names) =>
  names.map((k, q) => {
    const x = readingOf(READ_TAG_NAMES[k] ?? "");
    const y = readingOf(READ_TAG_NAMES[names[q - 1] ?? -1] ?? "");
    let shared = 0;
    while (shared < x.length && x[shared] === y[shared]) shared++;
    return shared;
  }),
);
const NO_NAMES = new Int32Array(0);
/**
 * Scratch for the walk: where in the text each character of the name being tried starts (by its
 * position in the name), so that the next name resumes after what the two share.
 */
const NAME_OFFSETS = new Int32Array(
  READ_TAG_NAMES.reduce((longest, name) => Math.max(longest, name.length), 0) + 1,
);
// Where the last successful readTagAt ended and whether its tag closes. Module scratch instead of
// a result object, so that the walk, which runs once per opener of every sanitised text,
// allocates nothing; read only right after the call that set it.
let readEnd = 0;
let readClosing = false;

/** Whether what follows offset `j` of `s`, past skipped code points, continues a name. */
function continuesNameAt(s: string, j: number): boolean {
  let i = j;
  while (i < s.length && (classAt(s, i) & SKIP_BIT) !== 0) i += unitsAt(s, i);
  return i < s.length && continuesName(s.codePointAt(i) ?? 0);
}

/**
 * Index in {@link READ_TAG_NAMES} of the tag read from offset `from` of `s`, just past an opener,
 * or -1; on a hit, sets {@link readEnd} and {@link readClosing}. The reading
 * (docs/11-sanitizer.md): whitespace (and blanks), then at most one run of slashes and
 * backslashes that ends in a slash (`/`, `//`, `\/`, look-alikes) and more whitespace, then a name
 * whose letters may be look-alikes and whose `-` may be any run of dashes, whitespace and blanks;
 * skipped code points anywhere. One walk over the class table, no allocation: it runs once per
 * opener of every sanitised text. It never passes another opener, so a scan over all openers
 * stays linear; only the names whose first letter was read are tried.
 */
function readTagAt(s: string, from: number): number {
  // Imported bindings are loaded from their module at every use; locals stay in registers.
  const skip = SKIP_BIT;
  const space = SPACE_BIT;
  const slashes = SLASH_BIT | BACKSLASH_BIT;
  const slash = SLASH_BIT;
  const pair = PAIR_BIT;
  const bmp = bmpClasses();
  const n = s.length;
  let i = from;
  // 0: before the slashes; 1: among them (`last` is the class of the latest); 2: after them.
  let state = 0;
  let last = 0;
  let c = 0;
  let units = 1;
  for (;;) {
    if (i >= n) return -1;
    c = bmp[s.charCodeAt(i)] ?? 0;
    units = 1;
    if ((c & pair) !== 0) {
      c = classAt(s, i);
      units = unitsAt(s, i);
    }
    if ((c & skip) === 0) {
      if ((c & slashes) !== 0) {
        if (state === 2) return -1;
        state = 1;
        last = c;
      } else if ((c & space) !== 0) {
        if (state === 1) {
          if ((last & slash) === 0) return -1;
          state = 2;
        }
      } else {
        break;
      }
    }
    i += units;
  }
  if (state === 1 && (last & slash) === 0) return -1;
  if ((c & FIRST_LETTERS) === 0) return -1;
  const dash = DASH_BIT;
  const offsets = NAME_OFFSETS;
  offsets[1] = i + units;
  // One letter bit at a time (a confusable may read as several letters), lowest first; for each,
  // only the names that start with that letter, in their reading's order.
  for (let letters = c & FIRST_LETTERS; letters !== 0; letters &= letters - 1) {
    const bit = 31 - Math.clz32(letters & -letters);
    const names = NAMES_BY_FIRST[bit] ?? NO_NAMES;
    const shared = SHARED_BY_FIRST[bit] ?? NO_NAMES;
    // Where the name tried before stopped: its characters before that position were read.
    let stopped = 1;
    for (let q = 0; q < names.length; q++) {
      const k = names[q] ?? 0;
      const base = NAME_STARTS[k] ?? 0;
      const length = (NAME_STARTS[k + 1] ?? 0) - base;
      // Sharing more than the last name read means expecting what it failed on: no need to look.
      const same = q === 0 ? 1 : (shared[q] ?? 0);
      if (same > stopped) continue;
      let p = same;
      let j = offsets[p] ?? 0;
      while (p < length && j < n) {
        c = bmp[s.charCodeAt(j)] ?? 0;
        units = 1;
        if ((c & pair) !== 0) {
          c = classAt(s, j);
          units = unitsAt(s, j);
        }
        if ((c & skip) !== 0) {
          j += units;
          continue;
        }
        const want = NAME_BITS[base + p] ?? 0;
        if (want === dash) {
          // The `-`: a run of dashes and whitespace, skipped code points inside.
          const runStart = j;
          while (j < n && (c & (skip | dash | space)) !== 0) {
            j += units;
            c = j < n ? (bmp[s.charCodeAt(j)] ?? 0) : 0;
            units = 1;
            if ((c & pair) !== 0) {
              c = classAt(s, j);
              units = unitsAt(s, j);
            }
          }
          if (j === runStart) break;
          offsets[++p] = j;
          // The run ends on the next letter (whose class `c` already holds) or on a mismatch.
          if ((c & (NAME_BITS[base + p] ?? 0)) === 0) break;
        } else if ((c & want) === 0) {
          break;
        }
        j += units;
        offsets[++p] = j;
      }
      stopped = p;
      if (p !== length) continue;
      if (k >= WHOLE_NAMES_FROM && continuesNameAt(s, j)) continue;
      readEnd = j;
      readClosing = state !== 0;
      return k;
    }
  }
  return -1;
}

/** The tag {@link readTagAt} found (`k`, its index) as a {@link FamilyTag}, or `null`. */
function tagOf(k: number, start: number, openerEnd: number): FamilyTag | null {
  const family = READ_TAG_NAMES[k];
  if (family === undefined) return null;
  const kind = k < WHOLE_NAMES_FROM ? "family" : "claude-code";
  return { start, openerEnd, end: readEnd, family, kind, closing: readClosing };
}

/**
 * Whether a tag begins at the opener at offset `at` of `s` (which must hold an opener):
 * {@link familyTagAt}'s answer without building it.
 */
export function isFamilyTagAt(s: string, at: number): boolean {
  // An opener that starts with a high surrogate is U+1D236, a pair (a lone one opens nothing).
  return readTagAt(s, at + ((s.charCodeAt(at) & 0xfc00) === 0xd800 ? 2 : 1)) !== -1;
}

/**
 * The tag that begins at offset `at` of `s`, or `null`: a tag of one of the five frame families
 * (prefix match, no boundary) or of Claude Code's own tags (the whole name: no letter, digit or
 * dash after it). The rule (docs/11-sanitizer.md) reads the text the way a person or a model
 * does: an opener (`<` or one of its look-alikes), then whitespace or blanks (U+2800 …), at most
 * one run of slashes that may be doubled or escaped (`/`, `//`, `\/`, look-alikes), whitespace,
 * then the name, whose letters may be ASCII in either case, `ſ`, or confusable letters, and whose
 * `-` may be `_`, any dash look-alike (`—`, `一`, `─` …), whitespace or a blank, or a run of
 * them; and anywhere after the opener, any number of skipped code points
 * (Default_Ignorable_Code_Point, combining marks, Cf, Cc but tab and newline). Whitespace is not
 * allowed inside a word of the name. Pure; any string, lone surrogates included.
 *
 * @example familyTagAt("x\uFF1C/\u034Fchannel", 1)?.family === "channel"
 * @example familyTagAt("<\\/system reminder>", 0)?.closing === true
 */
export function familyTagAt(s: string, at: number): FamilyTag | null {
  if (at < 0 || (classAt(s, at) & OPEN_BIT) === 0) return null;
  const openerEnd = at + unitsAt(s, at);
  return tagOf(readTagAt(s, openerEnd), at, openerEnd);
}

/**
 * The tag that follows an opener of any spelling at `[start, openerEnd)` of `s`, read as
 * {@link familyTagAt} reads what follows `<`, or `null`. For openers the reading does not know,
 * such as the `&lt;` the sanitiser writes, so that a report can name the tag it neutralised.
 *
 * @example tagAfterOpener("&lt;/channel>", 0, 4)?.closing === true
 */
export function tagAfterOpener(s: string, start: number, openerEnd: number): FamilyTag | null {
  if (start < 0 || openerEnd < start) return null;
  return tagOf(readTagAt(s, openerEnd), start, openerEnd);
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
    if (c === 0x3c) return i;
    if (c < LOWEST_LOOK_ALIKE_OPENER) continue;
    const k = bmp[c] ?? 0;
    if ((k & OPEN_BIT) !== 0 || ((k & PAIR_BIT) !== 0 && (classAt(s, i) & OPEN_BIT) !== 0)) {
      return i;
    }
  }
  return -1;
}

/**
 * The first tag of `s` that begins at or after offset `from` (see {@link familyTagAt}), or
 * `null`. Only opener positions are tried.
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
