import { CONFUSABLE_FOLD_TABLE } from "./confusable-fold-table.ts";

// Markers are private-use code points: non-ASCII (so never NAME) and without case mappings (so the
// `i` flag cannot merge two of them).
const FIRST_MARKER = 0xe000;
const SKELETON_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-";

interface MarkerAlphabet {
  /** Reading text of each folded code point. */
  readonly readingOf: ReadonlyMap<number, string>;
  /** For each skeleton character (`a`–`z`, `0`–`9`, `-`): every marker that stands for it. */
  readonly markersFor: ReadonlyMap<string, string>;
  /** Every continuation marker, concatenated. */
  readonly continuationMarkers: string;
  /** One past the last marker code point. */
  readonly endMarker: number;
}

function buildAlphabet(): MarkerAlphabet {
  let next = FIRST_MARKER;
  const setMarker = new Map<string, string>();
  const markersFor = new Map<string, string>();
  for (const x of SKELETON_ALPHABET) markersFor.set(x, "");
  const markerForSet = (letters: readonly string[]): string => {
    const key = letters.join("|");
    let marker = setMarker.get(key);
    if (marker === undefined) {
      marker = String.fromCharCode(next++);
      setMarker.set(key, marker);
      for (const x of letters) markersFor.set(x, `${markersFor.get(x) ?? ""}${marker}`);
    }
    return marker;
  };
  const continuation = new Map<string, string>();
  for (const x of SKELETON_ALPHABET) markerForSet([x]);
  let continuationMarkers = "";
  for (const x of SKELETON_ALPHABET) {
    const marker = String.fromCharCode(next++);
    continuation.set(x, marker);
    continuationMarkers += marker;
    markersFor.set(x, `${markersFor.get(x) ?? ""}${marker}`);
  }
  const readingOf = new Map<number, string>();
  for (const [value, ranges] of CONFUSABLE_FOLD_TABLE) {
    const alternatives = value.split("|");
    const only = alternatives[0] ?? "";
    let reading: string;
    if (alternatives.length === 1 && only.length > 1) {
      // A multi-letter skeleton: first letter as a skeleton marker, the rest as continuations.
      reading = markerForSet([only.charAt(0)]);
      for (const x of only.slice(1)) reading += continuation.get(x) ?? "\ufffd";
    } else {
      reading = markerForSet(alternatives);
    }
    for (const range of ranges.split(" ")) {
      const [from, to] = range.split("-");
      const first = Number.parseInt(from ?? "", 16);
      const last = to === undefined ? first : Number.parseInt(to, 16);
      for (let c = first; c <= last; c++) readingOf.set(c, reading);
    }
  }
  return { readingOf, markersFor, continuationMarkers, endMarker: next };
}

const ALPHABET: MarkerAlphabet = buildAlphabet();
const NON_ASCII = /[^\0-\x7f]/gu;

/**
 * Regex class body (no brackets) accepting every marker that stands for skeleton character `x`
 * (a letter, digit or `-`); `""` for any other character.
 */
export function markerClassFor(x: string): string {
  return ALPHABET.markersFor.get(x) ?? "";
}

/** Regex class body (no brackets) of every continuation marker. */
export const CONTINUATION_MARKERS: string = ALPHABET.continuationMarkers;

/**
 * The folded reading of a text (cross-session.md §7.3) and how to map a reading offset back to the
 * input. `segments` holds `[readingStart, inputStart]` pairs; between two starts the two texts are
 * aligned unit for unit, and only raw (unfolded) characters are ever mapped back.
 */
export interface FoldedReading {
  readonly text: string;
  readonly segments: readonly (readonly [number, number])[];
}

/**
 * Folds confusable characters of `input` to markers. ASCII reads as itself; a character colliding
 * with the marker alphabet reads as U+FFFD; all others as themselves. Example: `"\u1D04ited"` reads
 * as a `c` marker followed by `ited`.
 */
export function foldedReading(input: string): FoldedReading {
  const segments: [number, number][] = [[0, 0]];
  let text = "";
  let copied = 0;
  let readingLength = 0;
  NON_ASCII.lastIndex = 0;
  for (let m = NON_ASCII.exec(input); m !== null; m = NON_ASCII.exec(input)) {
    const raw = m[0];
    const cp = raw.codePointAt(0) ?? 0;
    let reading = ALPHABET.readingOf.get(cp);
    if (reading === undefined) {
      if (cp < FIRST_MARKER || cp >= ALPHABET.endMarker) continue;
      reading = "\ufffd";
    }
    text += input.slice(copied, m.index) + reading;
    readingLength += m.index - copied + reading.length;
    copied = m.index + raw.length;
    segments.push([readingLength, copied]);
  }
  if (copied === 0) return { text: input, segments };
  text += input.slice(copied);
  return { text, segments };
}
