import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MAX_BODY_BYTES, sanitize, sanitizeBody, TRUNCATION_MARKER } from "./index.ts";
import { hostileText, longHostileText } from "./testdata/hostile-text.ts";

/**
 * The body rule as docs/spec/formats.md §1.4 states it, with a byte cut found by encoding code
 * point by code point.
 */
function referenceBody(s: string): string {
  const t = sanitize(s);
  if (Buffer.byteLength(t, "utf8") <= MAX_BODY_BYTES) return t;
  const budget = MAX_BODY_BYTES - TRUNCATION_MARKER.length;
  let kept = "";
  let bytes = 0;
  for (const c of t) {
    const n = Buffer.byteLength(c, "utf8");
    if (bytes + n > budget) break;
    kept += c;
    bytes += n;
  }
  return kept + TRUNCATION_MARKER;
}

const printableAscii = fc.string({
  unit: fc.constantFrom(..."ab <</ \tchannel system-reminder\nBRIGADE-MESSAGE x"),
  maxLength: 40,
});

/** Texts near the 16,384-byte cap: a hostile or ASCII head, padding, and a hostile or ASCII tail. */
const nearCap = fc
  .tuple(
    fc.oneof(hostileText, printableAscii),
    fc.integer({ min: 16_300, max: 16_420 }),
    fc.oneof(hostileText, printableAscii),
  )
  .map(([head, n, tail]) => head + "x".repeat(Math.max(0, n - head.length)) + tail);

describe("sanitizeBody fast paths equal the plain rule", () => {
  test("hostile, long hostile, ASCII and near-cap text", () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, longHostileText, printableAscii, nearCap), (s) => {
        expect(sanitizeBody(s)).toBe(referenceBody(s));
      }),
      { numRuns: 1500 },
    );
  });

  test("plain ASCII exactly at, one under and one over the cap, with a tag that grows by 3", () => {
    for (const n of [MAX_BODY_BYTES - 1, MAX_BODY_BYTES, MAX_BODY_BYTES + 1]) {
      const plain = "a".repeat(n);
      expect(sanitizeBody(plain)).toBe(referenceBody(plain));
      const grown = `<channel>${"a".repeat(n - 9)}`;
      expect(sanitizeBody(grown)).toBe(referenceBody(grown));
    }
    expect(sanitizeBody(`<channel>${"a".repeat(MAX_BODY_BYTES - 9)}`)).toBe(
      `&lt;channel>${"a".repeat(MAX_BODY_BYTES - 11 - 12)}${TRUNCATION_MARKER}`,
    );
  });

  test("look-alike openers of 2, 3 and 4 bytes and composing joins, at and around the cap", () => {
    // Each opener becomes `&lt;` (4 bytes). Across a deleted ZWJ, `a` U+0323 composes to U+1EA1
    // (1 + 2 bytes become 3), `<` U+0338 to `≮`, and U+1100 U+1161 to U+AC00 (6 bytes become 3).
    for (const opener of ["\u00AB", "\uFF1C", "\u{1D236}", "<"]) {
      for (const join of ["", "a\u200D\u0323 ", "<\u200D\u0338 ", "\u1100\u200D\u1161 "]) {
        const head = `${opener}channel> ${join}\u00E9\u20AC\u{1F600}`;
        const headBytes = Buffer.byteLength(sanitize(head), "utf8");
        for (let n = MAX_BODY_BYTES - headBytes - 3; n <= MAX_BODY_BYTES - headBytes + 3; n++) {
          const s = head + "a".repeat(n);
          expect(sanitizeBody(s)).toBe(referenceBody(s));
        }
      }
    }
  });
});
