import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { firstCodePoints, indexAfterCodePoints } from "./index.ts";

describe("indexAfterCodePoints", () => {
  test.each([
    ["abc", 0, 0],
    ["abc", 2, 2],
    ["abc", 3, -1],
    ["abc", 9, -1],
    ["a😀b", 1, 1],
    ["a😀b", 2, 3],
    ["a😀", 2, -1],
    ["\ud800\ud800x", 2, 2],
    ["\udc00\ud83d\ude00x", 2, 3],
    ["", 0, -1],
  ] as const)("%j after %i code points: %i", (s, count, expected) => {
    expect(indexAfterCodePoints(s, count)).toBe(expected);
  });
});

describe("firstCodePoints", () => {
  test.each([
    ["a😀b", 2, "a😀"],
    ["a😀b", 1, "a"],
    ["😀😀😀", 2, "😀😀"],
    ["abc", 5, "abc"],
    ["abc", 0, ""],
    ["abc", -1, ""],
    ["\ud800\ud800\ud800", 2, "\ud800\ud800"],
  ] as const)("%j, %i", (s, count, expected) => {
    expect(firstCodePoints(s, count)).toBe(expected);
  });

  test("agrees with splitting by code point, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.nat(45), (s, n) => {
        expect(firstCodePoints(s, n)).toBe([...s].slice(0, n).join(""));
      }),
    );
  });

  test("returns the input itself when it fits", () => {
    const s = "😀".repeat(10);
    expect(Object.is(firstCodePoints(s, 10), s)).toBe(true);
  });
});
