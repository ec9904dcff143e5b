import { OPEN_SET } from "./character-sets.ts";

/** The non-ASCII OPEN characters; the `[OPEN]` class (`iu`) holds exactly the literal members. */
const NON_ASCII_OPEN: ReadonlySet<number> = new Set(
  [...OPEN_SET].map((c) => c.codePointAt(0) ?? 0).filter((cp) => cp >= 0x80),
);
const LOWEST_NON_ASCII_OPEN = Math.min(...NON_ASCII_OPEN);
/**
 * Runs of code units at or above the lowest non-ASCII OPEN character (U+02C2). Code units, no `u`:
 * both halves of a surrogate pair are in range, so a pair never straddles a run; and a one-byte
 * (Latin-1) string cannot match at all, which V8 answers without a scan.
 */
const HIGH_RUNS = new RegExp(
  `[^\\0-\\u${(LOWEST_NON_ASCII_OPEN - 1).toString(16).padStart(4, "0")}]+`,
  "g",
);

/**
 * Reports whether a non-ASCII code point is an OPEN character (one of the 29 look-alikes of `<`).
 * Example: `isNonAsciiOpen(0xff1c)` is `true`; `isNonAsciiOpen(0x3c)` is `false`.
 */
export function isNonAsciiOpen(cp: number): boolean {
  return cp >= LOWEST_NON_ASCII_OPEN && NON_ASCII_OPEN.has(cp);
}

/**
 * The index of every OPEN character of `text`, ascending: each `<` (found with `indexOf`) and each
 * non-ASCII look-alike (found inside the runs of high code units a native regex yields; U+1D236 as
 * the index of its surrogate pair). These are the only positions where a pattern starting with the
 * `[OPEN]` class can match. Example: `openPositions("a<b\uff1c")` is `[1, 3]`.
 */
export function openPositions(text: string): number[] {
  const others: number[] = [];
  HIGH_RUNS.lastIndex = 0;
  for (let m = HIGH_RUNS.exec(text); m !== null; m = HIGH_RUNS.exec(text)) {
    const runEnd = m.index + m[0].length;
    for (let i = m.index; i < runEnd; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < runEnd) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          if (isNonAsciiOpen(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000)) others.push(i);
          i++;
          continue;
        }
      }
      if (isNonAsciiOpen(c)) others.push(i);
    }
  }
  const all: number[] = [];
  let k = 0;
  for (let lt = text.indexOf("<"); lt !== -1; lt = text.indexOf("<", lt + 1)) {
    while (k < others.length && (others[k] ?? 0) < lt) all.push(others[k++] ?? 0);
    all.push(lt);
  }
  while (k < others.length) all.push(others[k++] ?? 0);
  return all;
}
