/**
 * Every code point Go's `unicode.IsSpace` accepts (docs/spec/formats.md §0), as a string of single
 * code points: U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000. Unlike JavaScript's `\s` it holds U+0085 and not U+FEFF.
 *
 * @example [...GO_SPACE].includes("\u0085") === true
 */
export const GO_SPACE: string =
  "\t\n\v\f\r \u0085\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000";

const RUNS = /[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/g;

/**
 * Reports whether one code point is in {@link GO_SPACE}. Every member is in the BMP, so a UTF-16
 * code unit may be passed as well: a surrogate is never a space.
 *
 * @example isGoSpace(0x85) === true; isGoSpace(0xfeff) === false
 */
export function isGoSpace(codePoint: number): boolean {
  if (codePoint <= 0x20) return codePoint === 0x20 || (codePoint >= 0x09 && codePoint <= 0x0d);
  if (codePoint < 0x85) return false;
  return (
    codePoint === 0x85 ||
    codePoint === 0xa0 ||
    codePoint === 0x1680 ||
    (codePoint >= 0x2000 && codePoint <= 0x200a) ||
    codePoint === 0x2028 ||
    codePoint === 0x2029 ||
    codePoint === 0x202f ||
    codePoint === 0x205f ||
    codePoint === 0x3000
  );
}

/**
 * Go's `strings.TrimSpace`: removes leading and trailing code points in {@link GO_SPACE}; nothing
 * else (U+FEFF and U+200B stay). Returns `s` itself when nothing is trimmed.
 *
 * @example goTrimSpace("\u0085 a b\u3000") === "a b"
 */
export function goTrimSpace(s: string): string {
  // A loop, not /[…]+$/: that regex backtracks quadratically over long interior runs of spaces.
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/**
 * Go's `strings.Join(strings.Fields(s), " ")`: splits on runs of {@link GO_SPACE}, drops empty
 * fields and joins with single spaces.
 *
 * @example goCollapseSpace(" a \u2028\t b ") === "a b"
 */
export function goCollapseSpace(s: string): string {
  return goTrimSpace(s).replace(RUNS, " ");
}
