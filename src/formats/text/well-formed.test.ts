import { afterEach, describe, expect, test } from "vitest";
import { isWellFormed, toWellFormed } from "./well-formed.ts";

/** Input, its well-formed form. */
const cases: ReadonlyArray<readonly [string, string]> = [
  ["", ""],
  ["plain", "plain"],
  ["a\ud800b", "a\ufffdb"],
  ["a\udc00b", "a\ufffdb"],
  ["\udc00\ud800", "\ufffd\ufffd"],
  ["\ud800\ud800\udc00", "\ufffd\ud800\udc00"],
  ["\ud83d\ude00", "\ud83d\ude00"],
  ["end\ud83d", "end\ufffd"],
];

describe("toWellFormed and isWellFormed", () => {
  test.each(cases)("native: %j", (input, expected) => {
    expect(toWellFormed(input)).toBe(expected);
    expect(isWellFormed(input)).toBe(input === expected);
  });

  test("returns the input itself when it is well formed", () => {
    const s = `${"x".repeat(100)}\ud83d\ude00`;
    expect(Object.is(toWellFormed(s), s)).toBe(true);
  });

  describe("fallback when the engine lacks the ES2024 methods", () => {
    const proto = String.prototype as unknown as Record<string, unknown>;
    const nativeTo = proto.toWellFormed;
    const nativeIs = proto.isWellFormed;
    afterEach(() => {
      proto.toWellFormed = nativeTo;
      proto.isWellFormed = nativeIs;
    });

    test.each(cases)("fallback: %j", (input, expected) => {
      delete proto.toWellFormed;
      delete proto.isWellFormed;
      expect(toWellFormed(input)).toBe(expected);
      expect(isWellFormed(input)).toBe(input === expected);
    });
  });
});
