/**
 * The UTF-16 index just after the first `count` code points of `s`, or -1 when `s` has no more
 * than `count` code points. A surrogate pair is one code point; a lone surrogate is one too.
 * Never allocates.
 *
 * @example indexAfterCodePoints("a😀b", 2) === 3; indexAfterCodePoints("a😀", 2) === -1
 */
export function indexAfterCodePoints(s: string, count: number): number {
  const n = s.length;
  let i = 0;
  for (let seen = 0; seen < count; seen++) {
    if (i >= n) return -1;
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < n && isLowSurrogate(s.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i >= n ? -1 : i;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The first `count` code points of `s` (all of `s` when it is shorter, `""` when `count <= 0`),
 * never splitting a surrogate pair. No marker. Returns `s` itself when it fits.
 *
 * @example firstCodePoints("a😀b", 2) === "a😀"
 */
export function firstCodePoints(s: string, count: number): string {
  if (s.length <= count) return s;
  const end = indexAfterCodePoints(s, Math.max(count, 0));
  return end === -1 ? s : s.slice(0, end);
}
