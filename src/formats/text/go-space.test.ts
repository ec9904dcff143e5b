import { describe, expect, test } from "vitest";
import { GO_SPACE, goCollapseSpace, goTrimSpace, isGoSpace } from "./index.ts";

/**
 * Every code point of Go's unicode.IsSpace (docs/spec/formats.md §0), listed independently of the
 * code.
 */
const SPACE_CODE_POINTS = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];

describe("GO_SPACE and isGoSpace", () => {
  test("GO_SPACE holds exactly those code points, in order", () => {
    expect([...GO_SPACE].map((c) => c.codePointAt(0))).toEqual(SPACE_CODE_POINTS);
  });

  test("isGoSpace is exactly Go's unicode.IsSpace", () => {
    const expected = new Set(SPACE_CODE_POINTS);
    const wrong: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) if (isGoSpace(cp) !== expected.has(cp)) wrong.push(cp);
    expect(wrong).toEqual([]);
  });
});

describe("goTrimSpace", () => {
  test("trims every GO_SPACE code point at both ends", () => {
    for (const cp of SPACE_CODE_POINTS) {
      const s = String.fromCodePoint(cp);
      expect(goTrimSpace(`${s}${s}x${s}y${s}`), cp.toString(16)).toBe(`x${s}y`);
    }
  });

  test("keeps every other BMP code point (U+FEFF, U+180E, U+200B included)", () => {
    const space = new Set(SPACE_CODE_POINTS);
    for (let cp = 0; cp <= 0xffff; cp++) {
      if (space.has(cp)) continue;
      const s = String.fromCharCode(cp);
      if (goTrimSpace(s) !== s) throw new Error(`trimmed U+${cp.toString(16)}`);
    }
    expect(goTrimSpace("\ufeffx\u200b")).toBe("\ufeffx\u200b");
  });

  test("trims U+0085 but not U+FEFF or U+200B", () => {
    expect(goTrimSpace("\u0085\u3000 a b\t\n")).toBe("a b");
    expect(goTrimSpace("\uFEFFa\u200B")).toBe("\uFEFFa\u200B");
    expect(goTrimSpace(" \u00A0 ")).toBe("");
  });

  test("all-space and empty give empty", () => {
    expect(goTrimSpace(" \u0085\u3000\n")).toBe("");
    expect(goTrimSpace("")).toBe("");
  });

  test("a lone surrogate at either end is kept", () => {
    expect(goTrimSpace("\ud800 x \udc00")).toBe("\ud800 x \udc00");
  });
});

describe("goCollapseSpace", () => {
  test("joins the GO_SPACE-separated fields with single spaces", () => {
    expect(goCollapseSpace(" a \u2028\t b ")).toBe("a b");
    expect(goCollapseSpace("a\u0085\u3000b\n\nc")).toBe("a b c");
  });

  test("U+FEFF and U+200B are not separators", () => {
    expect(goCollapseSpace("a\ufeffb \u200b c")).toBe("a\ufeffb \u200b c");
  });

  test("all-space and empty give empty", () => {
    expect(goCollapseSpace("\t\u00a0 \u205f")).toBe("");
    expect(goCollapseSpace("")).toBe("");
  });
});
