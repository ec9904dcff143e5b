import { describe, expect, test } from "vitest";
import { goTrimSpace } from "./go-trim-space.ts";

/** Every code point of GO_SPACE (spec §0). */
const GO_SPACE = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];

describe("goTrimSpace", () => {
  test("trims every GO_SPACE code point at both ends", () => {
    for (const cp of GO_SPACE) {
      const s = String.fromCodePoint(cp);
      expect(goTrimSpace(`${s}${s}x${s}y${s}`), cp.toString(16)).toBe(`x${s}y`);
    }
  });

  test("keeps every other BMP code point (U+FEFF, U+180E, U+200B included)", () => {
    const space = new Set(GO_SPACE);
    for (let cp = 0; cp <= 0xffff; cp++) {
      if (space.has(cp)) continue;
      const s = String.fromCharCode(cp);
      if (goTrimSpace(s) !== s) throw new Error(`trimmed U+${cp.toString(16)}`);
    }
    expect(goTrimSpace("\ufeffx\u200b")).toBe("\ufeffx\u200b");
  });

  test("all-space and empty give empty", () => {
    expect(goTrimSpace(" \u0085\u3000\n")).toBe("");
    expect(goTrimSpace("")).toBe("");
  });
});
