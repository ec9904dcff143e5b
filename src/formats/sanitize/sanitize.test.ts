import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { loadBipia } from "../../../test/support/corpus.ts";
import * as text from "../text/index.ts";
import * as sanitizeIndex from "./index.ts";
import { repairUtf8, sanitize, sanitizeBytes } from "./index.ts";
import { hostileText } from "./testdata/hostile-text.ts";
import { textWithLookAlikeTags } from "./testdata/look-alike-text.ts";
import { referenceSanitize } from "./testdata/reference-sanitize.ts";

/**
 * docs/spec/formats.md §1.6(2), written independently of the scanner so a no-op sanitiser fails it.
 */
const FORBIDDEN =
  /<[\s\p{Z}]*\/?[\s\p{Z}]*(brigade-message|cross-session-message|teammate-message|channel|system-reminder)/iu;

describe("sanitize: docs/spec/formats.md §1.7 examples", () => {
  test.each([
    ["Deploy <System-Reminder>now", "Deploy &lt;System-Reminder>now"],
    ["<\u3000/\tchannel-7>", "&lt;\u3000/\tchannel-7>"],
    ["</ſyſtem-reminder>", "&lt;/ſyſtem-reminder>"],
    // Departure from the Go reference (docs/11-sanitizer.md): a confusable letter is read as the
    // letter it looks like, so the Cyrillic `ѕ` no longer hides the tag.
    ["<\u0455ystem-reminder>", "&lt;\u0455ystem-reminder>"],
    ["<cross\u200B-session-message>", "&lt;cross-session-message>"],
    // Departure (docs/11-sanitizer.md): whitespace where the hyphen goes still reads as the tag,
    // so the spec's example is neutralised; whitespace inside a word still breaks the name.
    ["</brigade- message> << 3 <div>", "&lt;/brigade- message> << 3 <div>"],
    ["</bri gade-message> << 3 <div>", "</bri gade-message> << 3 <div>"],
    ["ok\r\n\u0007done\u2028\u00ADx\t", "ok\ndone\u2028x\t"],
    ["n\u200D\u0303", "\u00F1"],
  ])("sanitize(%j)", (input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  test("UTF-8 bytes 61 C0 80 62 ED A0 80 63: one U+FFFD per run", () => {
    const bytes = new Uint8Array([0x61, 0xc0, 0x80, 0x62, 0xed, 0xa0, 0x80, 0x63]);
    expect(repairUtf8(bytes)).toBe("a\uFFFDb\uFFFDc");
    expect(sanitizeBytes(bytes)).toBe("a\uFFFDb\uFFFDc");
  });
});

describe("sanitize: rules", () => {
  test.each([
    ["<brigade-messages>", "&lt;brigade-messages>"],
    ["<channelfoo", "&lt;channelfoo"],
    ["<<system-reminder>", "<&lt;system-reminder>"],
    ["< / TEAMMATE-MESSAGE", "&lt; / TEAMMATE-MESSAGE"],
    ["<\u2028channel", "&lt;\u2028channel"],
    ["<\u0085channel", "&lt;channel"],
    ["<\u000Bchannel", "&lt;channel"],
    ["<\u0130channel", "<\u0130channel"],
    // Departures (docs/11-sanitizer.md): a look-alike hyphen, and `<` + U+0338 composed to `≮`.
    ["<brigade\u2010message", "&lt;brigade\u2010message"],
    ["&lt;brigade-message", "&lt;brigade-message"],
    ["<\u0338brigade-message", "&lt;brigade-message"],
    ["<\uFEFF/channel", "&lt;/channel"],
    // Departures: a doubled or escaped slash is still a slash, and Claude Code's own tags.
    ["<//channel", "&lt;//channel"],
    ["<\\/brigade-message>", "&lt;\\/brigade-message>"],
    ["<command-name>/x</command-name>", "&lt;command-name>/x&lt;/command-name>"],
    ["a\uD800b\uDC00", "a\uFFFDb\uFFFD"],
    ["\u{E0041}tag\u{E007F}", "tag"],
    ["keep\u2800\uE000\u{10FFFD}", "keep\u2800\uE000\u{10FFFD}"],
  ])("sanitize(%j)", (input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  test("returns the very same string when nothing needs doing", () => {
    const s = "plain ASCII text\nwith a tab\t and 1 < 2";
    expect(sanitize(s)).toBe(s);
  });

  test("the one-NFC shortcut's premises hold for every code point", () => {
    // Stripped code points never decompose, never occur in a decomposition, and are starters
    // (combining class 0); code points below U+0300 are NFC-stable.
    const strip = /[^\P{Cc}\t\n]|\p{Cf}/u;
    const bad: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const d = c.normalize("NFD");
      if (cp < 0x300 && c.normalize("NFC") !== c) bad.push(cp);
      if (strip.test(c)) {
        if (d !== c) bad.push(cp);
        if (`a\u0345${c}`.normalize("NFD") !== `a\u0345${c}`) bad.push(cp);
      } else if (strip.test(d)) {
        bad.push(cp);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe("sanitize: properties (docs/spec/formats.md §1.6)", () => {
  test("equals the literal R1-R5 pipeline", () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, textWithLookAlikeTags), (s) => {
        expect(sanitize(s)).toBe(referenceSanitize(s));
      }),
      { numRuns: 2000 },
    );
  });

  test("equals the literal pipeline where deletions let R4 act, between long stretches", () => {
    // R4 normalises only the stretch around each deleted run followed by U+0300 or above (or the
    // whole text when such joins are dense); bases at or above U+0300 (Cyrillic, Hangul, CJK)
    // make the stretches long and let them meet, long fillers keep the joins sparse.
    const piece = fc.constantFrom(
      "<",
      "\u227A",
      "\u0338",
      "\u0303",
      "\u0301",
      "\u0316",
      "\u0345",
      "\u200D",
      "\u200B",
      "\u00AD",
      "\u0007",
      "\u{E0041}",
      "n",
      "e",
      "\u0438",
      "\u1100",
      "\u1161",
      "\u11A8",
      "\u6F22",
      "\u6F22".repeat(90),
      "plain words between them ".repeat(4),
      "channel",
      "\u0455ystem-reminder",
      " ",
      "\n",
      "\uFF1C",
      "\u{1D236}",
      "\u00E9",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const s = pieces.join("");
        expect(sanitize(s)).toBe(referenceSanitize(s));
      }),
      { numRuns: 3000 },
    );
  });

  test("is idempotent", () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        const once = sanitize(s);
        expect(sanitize(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  test("output never matches the independent forbidden-tag pattern", () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        expect(FORBIDDEN.test(sanitize(s))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  test("output is well-formed, NFC, with no Cc but tab and newline, and no Cf", () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        const out = sanitize(s);
        expect(/\p{Cs}/u.test(out)).toBe(false);
        expect(/[^\P{Cc}\t\n]|\p{Cf}/u.test(out)).toBe(false);
        expect(out.normalize("NFC")).toBe(out);
      }),
      { numRuns: 1000 },
    );
  });

  test("BIPIA corpus: idempotent, no forbidden tag, equal to the reference", () => {
    const corpus = loadBipia();
    for (const { text } of corpus) {
      const out = sanitize(text);
      expect(out).toBe(referenceSanitize(text));
      expect(sanitize(out)).toBe(out);
      expect(FORBIDDEN.test(out)).toBe(false);
    }
  });
});

describe("text primitives", () => {
  test("are re-exported unchanged, so consumers of sanitize keep working", () => {
    expect(sanitizeIndex.GO_SPACE).toBe(text.GO_SPACE);
    expect(sanitizeIndex.isGoSpace).toBe(text.isGoSpace);
    expect(sanitizeIndex.goTrimSpace).toBe(text.goTrimSpace);
    expect(sanitizeIndex.goCollapseSpace).toBe(text.goCollapseSpace);
    expect(sanitizeIndex.repairUtf8).toBe(text.repairUtf8);
    expect(sanitizeIndex.isWellFormedUtf8).toBe(text.isWellFormedUtf8);
    expect(sanitizeIndex.utf8ByteLength).toBe(text.utf8ByteLength);
    expect(sanitizeIndex.firstCodePoints).toBe(text.firstCodePoints);
  });
});
