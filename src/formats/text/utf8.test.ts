import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isWellFormedUtf8, repairUtf8, utf8ByteLength } from "./index.ts";

const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);

/** Go's strings.ToValidUTF8, written against TextDecoder's fatal mode one sequence at a time. */
function referenceRepair(input: Uint8Array): string {
  // ignoreBOM: a leading EF BB BF is the character U+FEFF here, not a marker to drop.
  const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let out = "";
  let inRun = false;
  for (let i = 0; i < input.length; ) {
    let len = 0;
    for (const n of [1, 2, 3, 4]) {
      if (i + n > input.length) break;
      try {
        const s = fatal.decode(input.subarray(i, i + n));
        if ([...s].length === 1) {
          len = n;
          break;
        }
      } catch {
        // not a whole sequence of this length
      }
    }
    if (len === 0) {
      if (!inRun) out += "\uFFFD";
      inRun = true;
      i++;
    } else {
      out += fatal.decode(input.subarray(i, i + len));
      inRun = false;
      i += len;
    }
  }
  return out;
}

describe("repairUtf8", () => {
  test.each([
    [bytes(0x61, 0xc0, 0x80, 0x62, 0xed, 0xa0, 0x80, 0x63), "a\uFFFDb\uFFFDc"],
    [bytes(0xe2, 0x82), "\uFFFD"],
    [bytes(0xe2, 0x82, 0x41), "\uFFFDA"],
    [bytes(0xf4, 0x90, 0x80, 0x80), "\uFFFD"],
    [bytes(0xf0, 0x9f, 0x98, 0x80), "😀"],
    [bytes(0xff, 0xef, 0xbf, 0xbd, 0xff), "\uFFFD\uFFFD\uFFFD"],
    [bytes(0xe0, 0x80, 0xaf), "\uFFFD"],
    [bytes(0xc2, 0x80), "\u0080"],
    [bytes(), ""],
  ])("%j", (input, expected) => {
    expect(repairUtf8(input)).toBe(expected);
  });

  test("matches a sequence-by-sequence reference on arbitrary bytes", () => {
    const biased = fc.constantFrom(
      0x00,
      0x41,
      0x7f,
      0x80,
      0xbf,
      0xc0,
      0xc2,
      0xdf,
      0xe0,
      0xed,
      0xef,
      0xf0,
      0xf4,
      0xf5,
      0xff,
      0xa0,
      0x9f,
      0x90,
      0x8f,
    );
    const arb = fc
      .array(fc.oneof(fc.integer({ min: 0, max: 255 }), biased), { maxLength: 64 })
      .map((a) => new Uint8Array(a));
    fc.assert(
      fc.property(arb, (input) => {
        const out = repairUtf8(input);
        expect(out).toBe(referenceRepair(input));
        let valid = true;
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(input);
        } catch {
          valid = false;
        }
        expect(isWellFormedUtf8(input)).toBe(valid);
      }),
      { numRuns: 3000 },
    );
  });

  test("round-trips valid text longer than one output chunk", () => {
    const text = "ab€😀\u0000é".repeat(3000);
    expect(repairUtf8(new TextEncoder().encode(text))).toBe(text);
  });
});

describe("utf8ByteLength", () => {
  test("equals Buffer.byteLength on arbitrary strings, lone surrogates included", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.integer({ min: 0xd800, max: 0xdfff }),
        (s, lone) => {
          const t = s + String.fromCharCode(lone) + s;
          expect(utf8ByteLength(t)).toBe(Buffer.byteLength(t, "utf8"));
        },
      ),
    );
    expect(utf8ByteLength("€")).toBe(3);
    expect(utf8ByteLength("😀")).toBe(4);
  });
});

describe("isWellFormedUtf8", () => {
  test.each([
    [bytes(0x61), true],
    [bytes(0xc0, 0x80), false],
    [bytes(0xed, 0xa0, 0x80), false],
    [bytes(0xef, 0xbf, 0xbd), true],
    [bytes(0xf0, 0x9f, 0x98), false],
  ])("%j", (input, expected) => {
    expect(isWellFormedUtf8(input)).toBe(expected);
  });
});
