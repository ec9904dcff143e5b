import { nextOpener } from "./family-tag.ts";

// A code unit below U+0300 is a starter that is NFC-stable and never the second half of a
// canonical composition, so NFC never acts across the boundary just before it: NFC(x + y) is
// NFC(x) + NFC(y) whenever y starts with one. (No surrogate is below U+0300, so a pair is never
// cut.) sanitize.test.ts and tag-reading.test.ts check these premises over every code point.
const FIRST_NFC_UNSTABLE = 0x300;

/** A text after NFC, with the opener offsets that `openers` gave for the text before it. */
export interface Renormalised {
  readonly text: string;
  /** UTF-16 offsets in `text` of every opener (`<` or a look-alike), ascending. */
  readonly openers: readonly number[];
}

/**
 * NFC of `s`, where `s` is NFC except near each offset in `joins` (ascending; each the first code
 * unit after a run that rule R3 deleted, at or above U+0300): only the stretch around each join,
 * out to the nearest code unit below U+0300 on either side, is normalised and spliced back. The
 * openers `openers` lists for `s` (ascending) are moved by what each stretch gained or lost, and
 * those inside a stretch are found again in the normalised stretch, since NFC can make one
 * (`<` + U+0338 is `≮`). Costs a walk over the stretches and one native NFC of them all, not a
 * pass over the text.
 *
 * @example renormaliseAt("a<n\u0303", [3], [1]) → { text: "a<ñ", openers: [1] }
 */
export function renormaliseAt(
  s: string,
  joins: readonly number[],
  openers: readonly number[],
): Renormalised {
  const starts: number[] = [];
  const ends: number[] = [];
  const befores: string[] = [];
  let end = 0;
  for (let j = 0; j < joins.length; ) {
    const join = joins[j] ?? 0;
    let start = join;
    while (start > end && s.charCodeAt(start) >= FIRST_NFC_UNSTABLE) start--;
    end = join + 1;
    while (end < s.length && s.charCodeAt(end) >= FIRST_NFC_UNSTABLE) end++;
    while (j < joins.length && (joins[j] ?? 0) < end) j++;
    starts.push(start);
    ends.push(end);
    befores.push(s.slice(start, end));
  }
  // One native NFC for every stretch: NUL (which R3 has deleted from the text) is a starter that
  // composes with nothing on either side, so NFC of the stretches joined by NUL is their NFCs
  // joined by NUL (tag-reading.test.ts checks this over every code point).
  let afters = befores.join("\0").normalize("NFC").split("\0");
  // Only a NUL inside `s` could misalign the parts; one stretch at a time is then just as right.
  if (afters.length !== befores.length) afters = befores.map((b) => b.normalize("NFC"));
  const pieces: string[] = [];
  const moved: number[] = [];
  let copied = 0;
  let shift = 0;
  let k = 0;
  for (let m = 0; m < starts.length; m++) {
    const start = starts[m] ?? 0;
    const stop = ends[m] ?? 0;
    const stretch = afters[m] ?? "";
    while (k < openers.length && (openers[k] ?? 0) < start) {
      moved.push((openers[k] ?? 0) + shift);
      k++;
    }
    // Openers inside the stretch are dropped: the stretch is searched again once normalised.
    while (k < openers.length && (openers[k] ?? 0) < stop) k++;
    for (let at = nextOpener(stretch, 0); at !== -1; at = nextOpener(stretch, at + 1)) {
      moved.push(start + shift + at);
    }
    pieces.push(s.slice(copied, start), stretch);
    shift += stretch.length - (stop - start);
    copied = stop;
  }
  for (; k < openers.length; k++) moved.push((openers[k] ?? 0) + shift);
  pieces.push(s.slice(copied));
  return { text: pieces.join(""), openers: moved };
}
