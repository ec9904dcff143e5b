import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { loadBipia } from "../../../test/support/corpus.ts";
import {
  MAX_BODY_BYTES,
  neutraliseTags,
  sanitize,
  sanitizeBody,
  TRUNCATION_MARKER,
  truncateBytes,
} from "./index.ts";
import { OPEN_LOOK_ALIKES, SLASH_LOOK_ALIKES } from "./tag-reading-table.ts";
import { hostileText } from "./testdata/hostile-text.ts";
import { INVISIBLES, lookAlikeTag, ordinaryText } from "./testdata/look-alike-text.ts";
import { referenceBody, referenceSanitize } from "./testdata/reference-sanitize.ts";
import { oracleTagOpeners, replaceOpeners } from "./testdata/tag-oracle.ts";

// The fast paths (R3's one pass over a byte-per-unit kind table, R1 folded into it, R4 only at
// joins, R5 at recorded openers by a walk without allocation, the body cut from one encoding)
// against the literal pipeline and an oracle that shares none of their code or data structures,
// on random mixes of everything those paths treat apart.

function listed(ranges: string): string[] {
  const out: string[] = [];
  for (const range of ranges.split(" ")) {
    const [a, b] = range.split("-").map((h) => Number.parseInt(h, 16));
    for (let c = a ?? 0; c <= (b ?? a ?? 0); c++) out.push(String.fromCodePoint(c));
  }
  return out;
}

/** What R3 deletes, in the BMP and beyond (one and two code units), C0, DEL and C1 included. */
const DELETED = [
  "\u0000",
  "\u0007",
  "\r",
  "\u001B",
  "\u007F",
  "\u0085",
  "\u009C",
  "\u00AD",
  "\u0600",
  "\u061C",
  "\u180E",
  "\u200B",
  "\u200D",
  "\u202E",
  "\u2066",
  "\uFEFF",
  "\uFFF9",
  "\u{110BD}",
  "\u{13430}",
  "\u{1BCA0}",
  "\u{1D173}",
  "\u{E0001}",
  "\u{E0041}",
  "\u{E007F}",
];

/** Marks and what a deleted run can let NFC compose with (the joins R4 looks at). */
const COMBINING = [
  "\u0300",
  "\u0301",
  "\u0303",
  "\u0316",
  "\u0323",
  "\u0338",
  "\u0345",
  "\u0903",
  "\u20D0",
  "\u20E3",
  "\u1161",
  "\u11A8",
  "\u3099",
  "\u{1D165}",
  "\u{E0100}",
];

/** Bases that compose with the above, or sit at or above U+0300 so that R4's stretches grow. */
const BASES = ["n", "a", "e", "<", "\u227A", "\u1100", "\u0438", "\u304B", "\u00E9", "\u{1F600}"];

/** Every opener and slash (the astral U+1D236 and U+1D23A too), and lone surrogates of both kinds. */
const BRACKETS = ["<", ...listed(OPEN_LOOK_ALIKES), "/", ...listed(SLASH_LOOK_ALIKES)];
const LONE = ["\uD800", "\uDBFF", "\uDC00", "\uDFFF"];

const corpus = loadBipia().map((entry) => entry.text);

/** A random slice of a BIPIA attack string (so lines meet the other pieces at random points). */
const bipiaSlice = fc
  .tuple(fc.constantFrom(...corpus), fc.nat(), fc.nat({ max: 200 }))
  .map(([text, from, length]) => {
    const start = text.length === 0 ? 0 : from % text.length;
    return text.slice(start, start + length);
  });

const piece = fc.oneof(
  { arbitrary: lookAlikeTag, weight: 4 },
  { arbitrary: fc.constantFrom(...INVISIBLES), weight: 3 },
  { arbitrary: fc.constantFrom(...DELETED), weight: 3 },
  { arbitrary: fc.constantFrom(...COMBINING), weight: 3 },
  { arbitrary: fc.constantFrom(...BASES), weight: 2 },
  { arbitrary: fc.constantFrom(...BRACKETS), weight: 2 },
  { arbitrary: fc.constantFrom(...LONE), weight: 1 },
  { arbitrary: bipiaSlice, weight: 2 },
  { arbitrary: ordinaryText, weight: 1 },
  { arbitrary: hostileText, weight: 1 },
);

/** Random mixes of look-alike tags, invisibles, deletions, marks, brackets and BIPIA lines. */
const mixedText = fc.array(piece, { minLength: 1, maxLength: 40 }).map((parts) => parts.join(""));

/**
 * The same, placed near the 16,384-byte cap: filler of 1-, 2- or 3-byte code points in front, so
 * the cut falls inside or around the hostile part.
 */
const nearCap = fc
  .tuple(fc.constantFrom("x", "\u00E9", "\u20AC", "x\u200B"), fc.integer({ min: -400, max: 300 }))
  .chain(([filler, slack]) =>
    mixedText.map((tail) => {
      const fillerBytes = new TextEncoder().encode(filler).length;
      const count = Math.max(0, Math.floor((MAX_BODY_BYTES + slack) / fillerBytes));
      return filler.repeat(count) + tail;
    }),
  );

describe("fast paths against the literal reference", () => {
  test("sanitize equals the literal R1-R5 pipeline on random mixes", () => {
    fc.assert(
      fc.property(mixedText, (s) => {
        expect(sanitize(s)).toBe(referenceSanitize(s));
      }),
      { numRuns: 3000 },
    );
  });

  test("sanitizeBody equals the body rule on the reference, at and around the cap", () => {
    fc.assert(
      fc.property(fc.oneof(mixedText, nearCap), (s) => {
        expect(sanitizeBody(s)).toBe(referenceBody(s));
      }),
      { numRuns: 400 },
    );
  });

  test("long texts whose deletions before marks are sparse or dense (local or whole R4)", () => {
    const long = fc
      .tuple(
        fc.array(piece, { minLength: 1, maxLength: 20 }),
        fc.constantFrom("filler text ", "\u0438\u0436", "\u00E9", "\u200D\u0301"),
        fc.integer({ min: 0, max: 120 }),
      )
      .map(([parts, filler, n]) => parts.map((p) => p + filler.repeat(n)).join(""));
    fc.assert(
      fc.property(long, (s) => {
        expect(sanitize(s)).toBe(referenceSanitize(s));
      }),
      { numRuns: 300 },
    );
  });

  test("neutraliseTags on raw text (nothing deleted or normalised first) equals the oracle", () => {
    fc.assert(
      fc.property(mixedText, (s) => {
        expect(neutraliseTags(s)).toBe(replaceOpeners(s, oracleTagOpeners(s)));
      }),
      { numRuns: 2000 },
    );
  });

  test("every BIPIA line, whole and with look-alike tags spliced in at random points", () => {
    for (const text of corpus) expect(sanitize(text)).toBe(referenceSanitize(text));
    fc.assert(
      fc.property(fc.constantFrom(...corpus), fc.nat(), mixedText, (text, at, insert) => {
        const cut = text.length === 0 ? 0 : at % text.length;
        const s = text.slice(0, cut) + insert + text.slice(cut);
        expect(sanitize(s)).toBe(referenceSanitize(s));
      }),
      { numRuns: 500 },
    );
  });
});

describe("edges of the one pass", () => {
  test.each([
    "",
    "\uD800",
    "\uDC00\uD800",
    "a\uDBFF",
    "\uDB40",
    "\uDB40\u200B",
    "\uDB40\uDC41\uDB40",
    "\u200B",
    "\u{E0001}\u{E0041}\u200B\u00AD",
    "a\u200B\uD800\u0301",
    "n\u200D\u0303\u200D",
    "<\u200D\u0338channel",
    "\u{1D236}\u{E0100}channel",
    "\u{1D236}\u{E0041}channel\uD800",
    "\uFF1C\uDC00channel",
    "<\u034F",
    `${"\u00E9".repeat(3)}${"<".repeat(40)}channel`,
    "\uD800<\u200Bchannel\uDC00n\u200D\u0303".repeat(50),
  ])("sanitize(%j) equals the literal pipeline", (s) => {
    expect(sanitize(s)).toBe(referenceSanitize(s));
    expect(sanitizeBody(s)).toBe(referenceBody(s));
  });

  test("text with many lone surrogates among everything else (R1 then repairs the rest at once)", () => {
    const manyLone = fc
      .array(fc.oneof(fc.constantFrom(...LONE), piece), { minLength: 30, maxLength: 120 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(manyLone, (s) => {
        expect(sanitize(s)).toBe(referenceSanitize(s));
      }),
      { numRuns: 300 },
    );
  });

  test("truncateBytes cuts any string, lone surrogates included, where the literal rule does", () => {
    const unit = fc.constantFrom("a", "\u00E9", "\u20AC", "\u{1F600}", "\uD800", "\uDC00", "<");
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 60 }),
        fc.integer({ min: 0, max: 120 }),
        (units, limit) => {
          const s = units.join("");
          const encoder = new TextEncoder();
          let expected = s;
          if (encoder.encode(s).length > limit) {
            const budget = Math.max(limit - TRUNCATION_MARKER.length, 0);
            let kept = "";
            for (const c of s) {
              if (encoder.encode(kept + c).length > budget) break;
              kept += c;
            }
            expected = kept + TRUNCATION_MARKER;
          }
          expect(truncateBytes(s, limit)).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
