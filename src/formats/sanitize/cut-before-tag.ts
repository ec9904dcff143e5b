import { isFamilyTagAt } from "./family-tag.ts";
import {
  BACKSLASH_BIT,
  classAt,
  DASH_BIT,
  LETTER_BITS,
  OPEN_BIT,
  SKIP_BIT,
  SLASH_BIT,
  SPACE_BIT,
} from "./reading-classes.ts";

// What may stand between an opener and the end of a name: anything else ends the backward search.
const INSIDE_A_TAG = LETTER_BITS | DASH_BIT | SPACE_BIT | SKIP_BIT | SLASH_BIT | BACKSLASH_BIT;

/** UTF-16 offset where the code point that ends at offset `i` (exclusive) of `s` starts. */
function codePointBefore(s: string, i: number): number {
  const low = s.charCodeAt(i - 1);
  return (low & 0xfc00) === 0xdc00 && i >= 2 && (s.charCodeAt(i - 2) & 0xfc00) === 0xd800
    ? i - 2
    : i - 1;
}

/**
 * Where to cut `s` so that its first `end` UTF-16 units, followed by `after` (a truncation marker,
 * or `""` at the end of a text), hold no tag that `s` does not: `end` itself, or the offset of the
 * opener of a tag the cut would complete. A cut cannot complete a family tag (a prefix is read
 * whatever follows it) but can complete one of Claude Code's tags, which is read only as a whole
 * name: `<command-names>` cut after `name` would read as `<command-name>`. Such a tag ends at the
 * cut, and its opener is the last one before it (the reading never passes an opener), so only
 * the stretch back to that opener is read, and only when it could belong to a tag.
 *
 * @example cutBeforeTag("ab <command-names>", 16, "[truncated]") === 3
 */
export function cutBeforeTag(s: string, end: number, after: string): number {
  let cut = Math.min(end, s.length);
  for (;;) {
    let i = cut;
    while (i > 0 && (classAt(s, codePointBefore(s, i)) & SKIP_BIT) !== 0) i = codePointBefore(s, i);
    // A name ends on a letter.
    if (i === 0 || (classAt(s, codePointBefore(s, i)) & LETTER_BITS) === 0) return cut;
    let opener = -1;
    while (i > 0) {
      const start = codePointBefore(s, i);
      const c = classAt(s, start);
      if ((c & OPEN_BIT) !== 0) {
        opener = start;
        break;
      }
      if ((c & INSIDE_A_TAG) === 0) return cut;
      i = start;
    }
    if (opener === -1 || !isFamilyTagAt(s.slice(opener, cut) + after, 0)) return cut;
    cut = opener;
  }
}
