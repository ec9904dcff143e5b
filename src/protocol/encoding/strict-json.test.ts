import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isNonIntegerLexeme, parseStrictJson } from "./strict-json.ts";

describe("parseStrictJson", () => {
  test("parses every JSON kind", () => {
    expect(parseStrictJson(' {"a":[1,-2.5e3,true,false,null,"x"],"b":{}} ')).toEqual({
      ok: true,
      value: { a: [1, -2500, true, false, null, "x"], b: {} },
    });
    expect(parseStrictJson("[]")).toEqual({ ok: true, value: [] });
    expect(parseStrictJson('"\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t"')).toEqual({
      ok: true,
      value: 'é\n"\\/\b\f\r\t',
    });
  });

  test.each([
    ['{"a":1,"a":2}'],
    ['{"x":{"b":1,"c":2,"b":3}}'],
    ['[{"k":1},{"k":1,"k":1}]'],
    ['{"__proto__":1,"__proto__":2}'],
  ])("refuses duplicate member names at any depth: %s", (text) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, reason: "duplicate_member" });
  });

  test("the same name in sibling objects is not a duplicate", () => {
    expect(parseStrictJson('[{"k":1},{"k":2}]').ok).toBe(true);
  });

  test.each([
    ['"\\ud800"'],
    ['"\\udc00"'],
    ['"\\ud800\\u0041"'],
    ['"\\ud800x"'],
    ['"a\uD800"'],
    ['"\uDC00"'],
  ])("refuses lone surrogates, escaped or raw: %s", (text) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, reason: "not_utf8" });
  });

  test("accepts surrogate pairs, escaped and raw", () => {
    expect(parseStrictJson('"\\ud83d\\ude00 😀"')).toEqual({ ok: true, value: "😀 😀" });
  });

  test.each([
    [""],
    [" "],
    ["\uFEFF{}"],
    ["{} {}"],
    ["[1,]"],
    ['{"a":1,}'],
    ["01"],
    ["1."],
    [".5"],
    ["+1"],
    ["1e"],
    ["NaN"],
    ["tru"],
    ['"a\nb"'],
    ['"\\x"'],
    ['"\\u12"'],
    ["{'a':1}"],
    ["[1 2]"],
    ['{"a" 1}'],
    ["\u00a0{}"],
  ])("refuses malformed text %j", (text) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, reason: "malformed_json" });
  });

  test("__proto__ becomes an own member, as with JSON.parse", () => {
    const r = parseStrictJson('{"__proto__":{"polluted":true}}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(Object.hasOwn(r.value as object, "__proto__")).toBe(true);
    expect(r.value).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'));
  });

  test("remembers integral numbers written with a fraction or exponent", () => {
    const r = parseStrictJson('{"a":1.0,"b":1,"c":2e1,"d":[3,4.0],"e":1.5}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value as Record<string, unknown>;
    expect(isNonIntegerLexeme(v, "a")).toBe(true);
    expect(isNonIntegerLexeme(v, "b")).toBe(false);
    expect(isNonIntegerLexeme(v, "c")).toBe(true);
    expect(isNonIntegerLexeme(v.d as object, 0)).toBe(false);
    expect(isNonIntegerLexeme(v.d as object, 1)).toBe(true);
    expect(isNonIntegerLexeme(v, "e")).toBe(false); // not an integer anyway
  });

  test("deep nesting neither throws nor overflows the stack", () => {
    const depth = 200_000;
    expect(parseStrictJson("[".repeat(depth) + "]".repeat(depth)).ok).toBe(true);
    expect(parseStrictJson("[".repeat(depth)).ok).toBe(false);
    expect(parseStrictJson('{"a":'.repeat(depth)).ok).toBe(false);
  });

  test("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const r = parseStrictJson(text);
        expect(typeof r.ok).toBe("boolean");
      }),
      { numRuns: 3000 },
    );
  });

  test("never throws on JSON-ish token soup", () => {
    const token = fc.constantFrom(
      "{",
      "}",
      "[",
      "]",
      ",",
      ":",
      '"a"',
      "1",
      "-",
      ".",
      "e",
      "true",
      " ",
      '"\\u',
      "d800",
      '\\"',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        const text = tokens.join("");
        const r = parseStrictJson(text);
        let native: unknown;
        let nativeOk = true;
        try {
          native = JSON.parse(text);
        } catch {
          nativeOk = false;
        }
        // Whatever we accept, JSON.parse accepts identically.
        if (r.ok) {
          expect(nativeOk).toBe(true);
          expect(r.value).toEqual(native);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test("agrees with JSON.parse on valid duplicate-free documents", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const r = parseStrictJson(text);
        expect(r).toEqual({ ok: true, value: JSON.parse(text) });
      }),
      { numRuns: 2000 },
    );
  });
});
