/**
 * True when the UTF-16 code unit `c` is in `GO_SPACE` (spec §0): Go's `unicode.IsSpace`.
 * Every member is in the BMP, so one code unit decides it.
 */
function isGoSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/**
 * Removes leading and trailing `GO_SPACE` code points (spec §0), like Go's `strings.TrimSpace`.
 *
 * Unlike `String.prototype.trim`, U+0085 is trimmed and U+FEFF is kept. Returns `s` itself when
 * nothing is trimmed.
 *
 * @example goTrimSpace("\u0085 ses_1\u3000") === "ses_1"
 */
export function goTrimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
