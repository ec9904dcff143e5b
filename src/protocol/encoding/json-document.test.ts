import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MAX_STDIN_DOCUMENT_BYTES } from "../limits.ts";
import { decodeUtf8Strict, parseJsonDocument } from "./json-document.ts";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("parseJsonDocument", () => {
  test("reads a document with one trailing newline", () => {
    expect(parseJsonDocument(utf8('{"message_ids":["m-1"]}\n'))).toEqual({
      ok: true,
      value: { message_ids: ["m-1"] },
    });
  });

  test("empty and whitespace-only stdin name the field stdin", () => {
    for (const text of ["", "\n", " \r\n\t"]) {
      const r = parseJsonDocument(utf8(text));
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe("invalid_input");
        expect(r.error.details).toEqual({ field: "stdin", reason: "required" });
      }
    }
  });

  test("exactly 1 MiB passes; one byte more is too_long with the unit", () => {
    const body = "x".repeat(MAX_STDIN_DOCUMENT_BYTES - 2);
    expect(parseJsonDocument(utf8(`"${body}"`)).ok).toBe(true);
    const r = parseJsonDocument(utf8(`"${body}x"`));
    expect(r).toEqual({
      ok: false,
      error: {
        code: "invalid_input",
        message: "an input member exceeds its length limit",
        retryable: false,
        details: {
          field: "stdin",
          reason: "too_long",
          limit: "1048576",
          actual: "1048577",
          unit: "bytes",
        },
      },
    });
  });

  test.each([
    ["lone continuation byte", [0x22, 0x80, 0x22]],
    ["overlong slash", [0x22, 0xc0, 0xaf, 0x22]],
    ["encoded surrogate", [0x22, 0xed, 0xa0, 0x80, 0x22]],
    ["truncated sequence", [0x22, 0xe2, 0x82, 0x22]],
    ["above U+10FFFF", [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22]],
    ["0xff", [0xff]],
  ])("invalid UTF-8 (%s) is not_utf8 on stdin", (_name, bytes) => {
    const r = parseJsonDocument(new Uint8Array(bytes));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.details).toEqual({ field: "stdin", reason: "not_utf8" });
  });

  test("a lone-surrogate escape is not_utf8", () => {
    const r = parseJsonDocument(utf8('{"body":"\\ud800"}'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.details).toEqual({ field: "stdin", reason: "not_utf8" });
  });

  test("unparsable JSON is malformed_json without a field", () => {
    for (const text of ["{", "{} x", "\uFEFF{}", "nul"]) {
      const r = parseJsonDocument(utf8(text));
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe("invalid_input");
        expect(r.error.details).toEqual({ reason: "malformed_json" });
        expect(r.error.message).toBe("the input is not a JSON document");
      }
    }
  });

  test("duplicate members are refused without naming them", () => {
    const r = parseJsonDocument(utf8('{"body":"a","nested":{"secret-ish":1,"secret-ish":2}}'));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.details).toEqual({ reason: "duplicate_member" });
      expect(JSON.stringify(r.error)).not.toContain("secret-ish");
    }
  });

  test("never throws on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const r = parseJsonDocument(bytes);
        if (!r.ok) expect(r.error.code).toBe("invalid_input");
      }),
      { numRuns: 5000 },
    );
  });

  test("decodeUtf8Strict keeps a BOM instead of dropping it", () => {
    expect(decodeUtf8Strict(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))).toBe("\uFEFF1");
  });
});
