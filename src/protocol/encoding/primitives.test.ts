import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CAPABILITIES, hasCapability, isCapability } from "../adapter/capabilities.ts";
import { harnessIdempotencyKey } from "../messages/idempotency-key.ts";
import { base64UrlEncode } from "./base64url.ts";
import { isRfc3339Timestamp } from "./rfc3339.ts";
import { codePointLength, hasLoneSurrogate, utf8ByteLength } from "./text-measure.ts";

describe("text measures", () => {
  test("utf8ByteLength agrees with Buffer.byteLength on well-formed strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        expect(utf8ByteLength(s)).toBe(Buffer.byteLength(s, "utf8"));
      }),
    );
    expect(utf8ByteLength("\uD800")).toBe(3);
  });

  test("codePointLength counts code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(codePointLength(s)).toBe([...s].length);
      }),
    );
  });

  test("hasLoneSurrogate sees only unpaired surrogates", () => {
    expect(hasLoneSurrogate("😀")).toBe(false);
    expect(hasLoneSurrogate("\uDE00\uD83D")).toBe(true);
    expect(hasLoneSurrogate("x\uD83D")).toBe(true);
  });
});

describe("isRfc3339Timestamp", () => {
  test.each([
    "2026-10-02T09:15:42Z",
    "2026-10-02t09:15:42z",
    "2026-10-02T09:15:42.123456789Z",
    "2026-10-02T09:15:42+02:00",
    "2026-10-02T09:15:42-23:59",
    "2024-02-29T00:00:00Z",
    "2026-12-31T23:59:60Z",
  ])("accepts %s", (s) => expect(isRfc3339Timestamp(s)).toBe(true));

  test.each([
    "2026-10-02",
    "2026-10-02 09:15:42Z",
    "2026-10-02T09:15:42",
    "2026-10-02T09:15Z",
    "2026-02-29T00:00:00Z",
    "2100-02-29T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-00-01T00:00:00Z",
    "2026-10-02T24:00:00Z",
    "2026-10-02T09:60:00Z",
    "2026-10-02T09:15:42.Z",
    "2026-10-02T09:15:42+0200",
    "2026-10-02T09:15:42+24:00",
    "+2026-10-02T09:15:42Z",
    "2026-10-02T09:15:42Z\n",
  ])("refuses %j", (s) => expect(isRfc3339Timestamp(s)).toBe(false));
});

describe("capabilities", () => {
  test("the registry has the spec's 17 strings", () => {
    expect(CAPABILITIES).toHaveLength(17);
    expect(new Set(CAPABILITIES).size).toBe(17);
    expect(isCapability("message.receive")).toBe(true);
    expect(isCapability("Message.receive")).toBe(false);
    expect(hasCapability(["team.join"], "team.join")).toBe(true);
  });
});

describe("base64url and the harness idempotency key (docs/spec/protocol.md §6.4)", () => {
  test("base64UrlEncode matches Buffer's base64url", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(base64UrlEncode(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
      }),
    );
  });

  test("key = base64url(sha256(sender ␀ recipient ␀ body ␀ minute)), 43 chars, stable per minute", () => {
    const expected = createHash("sha256")
      .update(Buffer.from("s-2b8e\0s-51d0\0héllo\u{1F600}\0" + "29833333", "utf8"))
      .digest("base64url");
    const key = harnessIdempotencyKey("s-2b8e", "s-51d0", "héllo\u{1F600}", 1_789_999_980);
    expect(key).toBe(expected);
    expect(key).toHaveLength(43);
    expect(harnessIdempotencyKey("s-2b8e", "s-51d0", "héllo\u{1F600}", 1_790_000_039)).toBe(key);
    expect(harnessIdempotencyKey("s-2b8e", "s-51d0", "héllo\u{1F600}", 1_790_000_040)).not.toBe(
      key,
    );
  });
});
