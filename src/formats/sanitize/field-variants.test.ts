import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  MAX_BODY_BYTES,
  noticeName,
  oneLine,
  registeredName,
  sanitize,
  sanitizeAttribute,
  sanitizeBody,
  sanitizeDescription,
  sanitizeId,
  sanitizeLabel,
  sanitizeModel,
  sanitizeName,
  sanitizeSummary,
  TRUNCATION_MARKER,
  truncateBytes,
  truncateRunes,
  UNNAMED_SESSION,
  utf8ByteLength,
} from "./index.ts";
import { hostileText, longHostileText } from "./testdata/hostile-text.ts";

const cp = (s: string): number => [...s].length;
const FORBIDDEN =
  /<[\s\p{Z}]*\/?[\s\p{Z}]*(brigade-message|cross-session-message|teammate-message|channel|system-reminder)/iu;

describe("docs/spec/formats.md §1.7 examples", () => {
  test("sanitizeBody backs the cut off to a code-point start", () => {
    const out = sanitizeBody("€".repeat(5462));
    expect(out).toBe(`${"€".repeat(5457)}[truncated]`);
    expect(utf8ByteLength(out)).toBe(16_382);
  });

  test("sanitizeAttribute deletes quotes, angle brackets and newlines", () => {
    expect(sanitizeAttribute('Ops "blue"\n<team> & co')).toBe("Ops blueteam & co");
  });

  test("sanitizeAttribute keeps the entity R5 wrote", () => {
    expect(sanitizeAttribute("<brigade-message x>")).toBe("&lt;brigade-message x");
  });
});

describe("truncation (docs/spec/formats.md §1.4)", () => {
  test("truncateRunes counts the marker inside the cap", () => {
    expect(truncateRunes("abcdefghijkl", 12)).toBe("abcdefghijkl");
    expect(truncateRunes("abcdefghijklm", 12)).toBe("a[truncated]");
    expect(truncateRunes("😀".repeat(13), 12)).toBe("😀[truncated]");
    expect(truncateRunes("abcdef", 3)).toBe(TRUNCATION_MARKER);
  });

  test("truncateBytes keeps exact-cap text and cuts one byte over", () => {
    const exact = "a".repeat(MAX_BODY_BYTES);
    expect(truncateBytes(exact, MAX_BODY_BYTES)).toBe(exact);
    expect(truncateBytes(`${exact}b`, MAX_BODY_BYTES)).toBe(`${"a".repeat(16_373)}[truncated]`);
    expect(truncateBytes("😀😀😀😀", 15)).toBe("😀[truncated]");
    expect(truncateBytes("😀😀😀😀", 14)).toBe("[truncated]");
    expect(truncateBytes("😀😀😀😀", 16)).toBe("😀😀😀😀");
  });

  test("truncateRunes yields exactly the limit for limits of 11 and more", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 80 }),
        fc.integer({ min: 11, max: 60 }),
        (s, limit) => {
          const out = truncateRunes(s, limit);
          expect(cp(out)).toBe(Math.min(cp(s), limit));
        },
      ),
    );
  });
});

const capped: readonly [string, (s: string) => string, number][] = [
  ["sanitizeSummary", sanitizeSummary, 200],
  ["sanitizeName", sanitizeName, 64],
  ["sanitizeLabel", sanitizeLabel, 128],
  ["sanitizeDescription", sanitizeDescription, 256],
  ["sanitizeModel", sanitizeModel, 128],
];

describe("field variants (docs/spec/formats.md §1.5, §1.6)", () => {
  test.each(capped)("%s: idempotent, within its cap, marker only when cut", (_name, fn, cap) => {
    fc.assert(
      fc.property(fc.oneof(hostileText, longHostileText), (s) => {
        const out = fn(s);
        expect(fn(out)).toBe(out);
        expect(cp(out)).toBeLessThanOrEqual(cap);
        expect(FORBIDDEN.test(out)).toBe(false);
        const full = sanitize(s);
        expect(out).toBe(cp(full) <= cap ? full : out);
        if (cp(full) > cap) expect(out.endsWith(TRUNCATION_MARKER)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test("sanitizeBody: idempotent and within 16,384 bytes", () => {
    const big = fc
      .tuple(longHostileText, fc.integer({ min: 16_000, max: 17_000 }))
      .map(([s, n]) => s + "x".repeat(n) + s);
    fc.assert(
      fc.property(fc.oneof(hostileText, big), (s) => {
        const out = sanitizeBody(s);
        expect(sanitizeBody(out)).toBe(out);
        expect(utf8ByteLength(out)).toBeLessThanOrEqual(MAX_BODY_BYTES);
        expect(FORBIDDEN.test(out)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  test("sanitizeAttribute and sanitizeId: no quote, angle bracket or newline; idempotent but for the docs/spec/formats.md §1.6(4) corner", () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, longHostileText), (s) => {
        const attr = sanitizeAttribute(s);
        const id = sanitizeId(s);
        expect(/["<>\n]/.test(attr)).toBe(false);
        expect(/["<>\n]/.test(id)).toBe(false);
        expect(cp(attr)).toBeLessThanOrEqual(64);
        expect(id.startsWith(attr)).toBe(true);
        // The accepted corner: only NFC may differ on a second pass.
        if (id.normalize("NFC") === id) expect(sanitizeId(id)).toBe(id);
        if (attr.normalize("NFC") === attr) expect(sanitizeAttribute(attr)).toBe(attr);
      }),
      { numRuns: 1000 },
    );
  });

  test("the docs/spec/formats.md §1.6(4) corner exists and is left alone", () => {
    const once = sanitizeId('n"\u0303');
    expect(once).toBe("n\u0303");
    expect(sanitizeId(once)).toBe("\u00F1");
  });

  test("sanitizeId never shortens an id", () => {
    const id = `s-${"a".repeat(500)}`;
    expect(sanitizeId(id)).toBe(id);
  });
});

describe("oneLine, noticeName, registeredName", () => {
  test("oneLine folds line breaks, trims Go space and cuts without a marker", () => {
    expect(oneLine(" a\nb\tc\r\n ", 10)).toBe("a b c");
    expect(oneLine("\u0085\u3000x", 10)).toBe("x");
    expect(oneLine("abcdef", 3)).toBe("abc");
    expect(oneLine("<channel>\n", 20)).toBe("&lt;channel>");
  });

  test("noticeName collapses whitespace and stands in for an empty name", () => {
    expect(noticeName("  billing \n\n svc ")).toBe("billing svc");
    expect(noticeName("\u200B\u0007 \u3000")).toBe(UNNAMED_SESSION);
    expect(noticeName("x".repeat(70))).toBe(`${"x".repeat(53)}[truncated]`);
  });

  test("registeredName is one line of at most 64 code points", () => {
    expect(registeredName("api\tworker\n")).toBe("api worker");
    fc.assert(
      fc.property(fc.oneof(hostileText, longHostileText), (s) => {
        const out = registeredName(s);
        expect(/[\n\r\t]/.test(out)).toBe(false);
        expect(cp(out)).toBeLessThanOrEqual(64);
      }),
      { numRuns: 300 },
    );
  });

  test("sanitize(UNNAMED_SESSION) === UNNAMED_SESSION", () => {
    expect(sanitize(UNNAMED_SESSION)).toBe(UNNAMED_SESSION);
  });
});
