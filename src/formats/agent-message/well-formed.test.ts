import { afterEach, describe, expect, test } from "vitest";
import { toWellFormed } from "./well-formed.ts";

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

describe("toWellFormed", () => {
  test.each(cases)("native: %j", (input, expected) => {
    expect(toWellFormed(input)).toBe(expected);
  });

  describe("fallback when the engine lacks String.prototype.toWellFormed", () => {
    const proto = String.prototype as unknown as Record<string, unknown>;
    const native = proto.toWellFormed;
    afterEach(() => {
      proto.toWellFormed = native;
    });

    test.each(cases)("fallback: %j", (input, expected) => {
      delete proto.toWellFormed;
      expect(toWellFormed(input)).toBe(expected);
    });
  });
});
