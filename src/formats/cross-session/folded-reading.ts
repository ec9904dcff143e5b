import { CONFUSABLE_FOLD_TABLE } from "./confusable-fold-table.ts";
import { isNonAsciiOpen } from "./open-positions.ts";

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

/** {@link MarkerAlphabet.readingOf} for the BMP as a dense array: an index, not a hash lookup. */
function bmpReadings(readingOf: ReadonlyMap<number, string>): (string | undefined)[] {
  const table = new Array<string | undefined>(0x10000).fill(undefined);
  for (const [cp, reading] of readingOf) if (cp < 0x10000) table[cp] = reading;
  return table;
}

const BMP_READING: readonly (string | undefined)[] = bmpReadings(ALPHABET.readingOf);

// Code units, no `u`: a surrogate pair is two non-ASCII units, so it never straddles a run.
const NON_ASCII_RUNS = /[^\0-\x7f]+/g;

/**
 * Regex class body (no brackets) accepting every marker that stands for skeleton character `x`
 * (a letter, digit or `-`); `""` for any other character.
 */
export function markerClassFor(x: string): string {
  return ALPHABET.markersFor.get(x) ?? "";
}

function lettersByMarker(): readonly string[] {
  const letters = new Array<string>(ALPHABET.endMarker - FIRST_MARKER).fill("");
  for (const [x, markers] of ALPHABET.markersFor) {
    for (const marker of markers) letters[marker.charCodeAt(0) - FIRST_MARKER] += x;
  }
  return letters;
}

const LETTERS_BY_MARKER: readonly string[] = lettersByMarker();

/**
 * The skeleton characters (`a`-`z`, `0`-`9`, `-`) that a reading code unit stands for as a marker
 * (every `x` whose {@link markerClassFor} holds it), or `""` when the unit is not a marker.
 * Example: `markerLetters(0x61)` is `""`.
 */
export function markerLetters(unit: number): string {
  return unit >= FIRST_MARKER && unit < ALPHABET.endMarker
    ? (LETTERS_BY_MARKER[unit - FIRST_MARKER] ?? "")
    : "";
}

/**
 * The reading of one non-ASCII code point as the fold table gives it (markers), or `undefined` when
 * the table does not fold it. Example: `readingOfCodePoint(0x61)` is `undefined`.
 */
export function readingOfCodePoint(cp: number): string | undefined {
  return ALPHABET.readingOf.get(cp);
}

/**
 * The first code point past the marker alphabet; raw input in `[U+E000, this)` reads as U+FFFD.
 * Example: `foldedReading("\ue002").text` is `"\ufffd"` because `0xe002 < END_MARKER`.
 */
export const END_MARKER: number = ALPHABET.endMarker;

/** Regex class body (no brackets) of every continuation marker. */
export const CONTINUATION_MARKERS: string = ALPHABET.continuationMarkers;

/**
 * The folded reading of a text (docs/spec/cross-session.md §7.3) and how to map a reading offset
 * back to the input. `segments` holds `[readingStart, inputStart]` pairs; between two starts the
 * two texts are aligned unit for unit, and only raw (unfolded) characters are ever mapped back.
 */
export interface FoldedReading {
  readonly text: string;
  readonly segments: readonly (readonly [number, number])[];
}

/**
 * Folds confusable characters of `input` to markers. ASCII reads as itself; a character colliding
 * with the marker alphabet reads as U+FFFD; all others as themselves. When `nonAsciiOpens` is given,
 * the reading offset of every non-ASCII OPEN character is appended to it, in order (the walk visits
 * them anyway; a `<` is left to `indexOf`). Example: `"\u1D04ited"` reads as a `c` marker followed
 * by `ited`.
 */
export function foldedReading(input: string, nonAsciiOpens?: number[]): FoldedReading {
  const segments: [number, number][] = [[0, 0]];
  let text = "";
  let copied = 0;
  let readingLength = 0;
  // The regex finds runs of non-ASCII characters natively; the units of a run are then read one by
  // one. A match per character (or a JavaScript test of every unit) costs more than the reading.
  NON_ASCII_RUNS.lastIndex = 0;
  for (let m = NON_ASCII_RUNS.exec(input); m !== null; m = NON_ASCII_RUNS.exec(input)) {
    const runEnd = m.index + m[0].length;
    for (let i = m.index; i < runEnd; i++) {
      const c = input.charCodeAt(i);
      let cp = c;
      let units = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < runEnd) {
        const d = input.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
          units = 2;
        }
      }
      let reading = cp < 0x10000 ? BMP_READING[cp] : ALPHABET.readingOf.get(cp);
      if (reading === undefined) {
        if (cp >= FIRST_MARKER && cp < ALPHABET.endMarker) {
          reading = "\ufffd";
        } else {
          if (nonAsciiOpens !== undefined && isNonAsciiOpen(cp)) {
            nonAsciiOpens.push(readingLength + (i - copied));
          }
          i += units - 1;
          continue;
        }
      }
      text += input.slice(copied, i) + reading;
      readingLength += i - copied + reading.length;
      copied = i + units;
      segments.push([readingLength, copied]);
      i += units - 1;
    }
  }
  if (copied === 0) return { text: input, segments };
  text += input.slice(copied);
  return { text, segments };
}
