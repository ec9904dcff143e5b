import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ENGINE_AUTHORITY_ENVELOPE_TAGS } from "./authority-tags.ts";
import { CLOSE_SET, OPEN_SET, SLASH_SET } from "./character-sets.ts";
import { CONFUSABLE_FOLD_TABLE } from "./confusable-fold-table.ts";
import {
  END_MARKER,
  type FoldedReading,
  foldedReading,
  markerClassFor,
  markerLetters,
  readingOfCodePoint,
} from "./folded-reading.ts";
import { neutralizePeerBody } from "./neutralize-peer-body.ts";
import { peerBodyPatternSource } from "./peer-body-pattern.ts";

// The straightforward implementation the fast one replaced: a /u regex walk for the reading, and
// one global scan of the whole pattern over it.

function referenceReading(input: string): FoldedReading {
  const nonAscii = /[^\0-\x7f]/gu;
  const segments: [number, number][] = [[0, 0]];
  let text = "";
  let copied = 0;
  let readingLength = 0;
  for (let m = nonAscii.exec(input); m !== null; m = nonAscii.exec(input)) {
    const raw = m[0];
    const cp = raw.codePointAt(0) ?? 0;
    let reading = readingOfCodePoint(cp);
    if (reading === undefined) {
      if (cp < 0xe000 || cp >= END_MARKER) continue;
      reading = "\ufffd";
    }
    text += input.slice(copied, m.index) + reading;
    readingLength += m.index - copied + reading.length;
    copied = m.index + raw.length;
    segments.push([readingLength, copied]);
  }
  if (copied === 0) return { text: input, segments };
  return { text: text + input.slice(copied), segments };
}

const WHOLE = new RegExp(
  peerBodyPatternSource({
    tags: ENGINE_AUTHORITY_ENVELOPE_TAGS.filter((tag) => tag !== "channel"),
    channel: true,
    antml: true,
  }),
  "giu",
);

function referenceNeutralize(body: string): string {
  if (!new RegExp(`[${OPEN_SET}]`, "u").test(body)) return body;
  const reading = referenceReading(body);
  const { segments } = reading;
  let out = "";
  let copied = 0;
  let segment = 0;
  WHOLE.lastIndex = 0;
  for (let m = WHOLE.exec(reading.text); m !== null; m = WHOLE.exec(reading.text)) {
    const at = m.index;
    while (segment + 1 < segments.length && (segments[segment + 1]?.[0] ?? 0) <= at) segment++;
    const [readingStart, inputStart] = segments[segment] ?? [0, 0];
    const inputAt = inputStart + (at - readingStart);
    out += `${body.slice(copied, inputAt)}<\\`;
    copied = inputAt + m[0].length;
  }
  return copied === 0 ? body : out + body.slice(copied);
}

// Hostile text: openers and closers of every family in every spelling the fast path treats
// differently (plain ASCII, confusables, invisible characters, ſ and K, markers, long fillers).

const folded: number[] = [];
for (const [, ranges] of CONFUSABLE_FOLD_TABLE) {
  for (const range of ranges.split(" "))
    folded.push(Number.parseInt(range.split("-")[0] ?? "", 16));
}
const TAGS = [...ENGINE_AUTHORITY_ENVELOPE_TAGS, "antml:", "antml\uff1a", "channel"];
const spelling = fc
  .tuple(fc.constantFrom(...TAGS), fc.array(fc.nat(), { maxLength: 3 }))
  .map(([tag, edits]) => {
    const chars = [...tag];
    for (const e of edits) {
      const i = e % chars.length;
      const kind = (e >> 4) % 6;
      const c = chars[i] ?? "";
      chars[i] =
        kind === 0
          ? c.toUpperCase()
          : kind === 1
            ? c === "-"
              ? "_"
              : c === "_"
                ? "-"
                : c
            : kind === 2
              ? `${c}\u200b`
              : kind === 3
                ? c === "s"
                  ? "\u017f"
                  : c === "k"
                    ? "\u212a"
                    : c
                : kind === 4
                  ? String.fromCodePoint(folded[e % folded.length] ?? 0x1d04)
                  : `${c}x`;
    }
    return chars.join("");
  });
const piece = fc.oneof(
  spelling,
  fc.constantFrom(...OPEN_SET, ...OPEN_SET, ...CLOSE_SET, ...SLASH_SET),
  fc.constantFrom(
    "<",
    "</",
    "< /",
    "<\\",
    "\\",
    ">",
    " ",
    "\t",
    "\n",
    "\r",
    "\u3000",
    "\u00a0",
    "\u200b",
    "\u0301",
    "\x01",
    "\u2028",
    " source=",
    ' source="x"',
    "\u3000source\uff1d",
    "=",
    ":",
    "_",
    "-",
    "7",
    "x",
    "\u017f",
    "\u212a",
    "\ud800",
    "\udc00",
    "\ue000",
    "\ue002",
    "\ue030",
    "\u{1d236}",
    "\u{1d41c}",
    " ".repeat(63),
    " ".repeat(64),
    " ".repeat(70),
    "\u3000".repeat(66),
    "a".repeat(118),
  ),
  fc.integer({ min: 0xe000, max: END_MARKER + 2 }).map((c) => String.fromCharCode(c)),
  fc.string({ maxLength: 4 }),
);
const hostile = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(""));

describe("neutralizePeerBody equals the global scan of the whole pattern", () => {
  test("hostile tag soup", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        expect(neutralizePeerBody(s)).toBe(referenceNeutralize(s));
      }),
      { numRuns: 4000 },
    );
  });

  test("arbitrary UTF-16, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (s) => {
        expect(neutralizePeerBody(s)).toBe(referenceNeutralize(s));
      }),
      { numRuns: 1000 },
    );
  });

  test("a non-ASCII OPEN or CLOSE character ends the filler: no plain decision past one", () => {
    for (const c of [..."\uff1e\u203a\u3009", ..."\uff1c\u2039"]) {
      const s = `<${c}system-reminder>`;
      expect(neutralizePeerBody(s)).toBe(referenceNeutralize(s));
    }
    expect(neutralizePeerBody("<\uff1esystem-reminder>")).toBe("<\uff1esystem-reminder>");
    expect(neutralizePeerBody("<\u3000/\tsystem-reminder>")).toBe("<\\\u3000/\tsystem-reminder>");
  });
});

describe("the reading walk", () => {
  test("equals the /u regex walk, text and segments", () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string({ unit: "binary", maxLength: 40 })), (s) => {
        expect(foldedReading(s)).toEqual(referenceReading(s));
      }),
      { numRuns: 3000 },
    );
  });

  test("reports the reading offset of every non-ASCII OPEN character, in order", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const opens: number[] = [];
        const { text } = foldedReading(s, opens);
        const expected = [...text.matchAll(new RegExp(`[${OPEN_SET}]`, "gu"))]
          .filter((m) => m[0] !== "<")
          .map((m) => m.index);
        expect(opens).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  test("markerLetters inverts markerClassFor", () => {
    for (const x of "abcdefghijklmnopqrstuvwxyz0123456789-") {
      for (const marker of markerClassFor(x)) {
        expect(markerLetters(marker.charCodeAt(0))).toContain(x);
      }
    }
    expect(markerLetters(0x61)).toBe("");
    expect(markerLetters(END_MARKER)).toBe("");
  });

  test("the OPEN class is exactly its literal members, also case-insensitively, and none folds", () => {
    const cls = new RegExp(`^[${OPEN_SET}]$`, "iu");
    const members = new Set([...OPEN_SET].map((c) => c.codePointAt(0)));
    const wrong: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (cls.test(String.fromCodePoint(cp)) !== members.has(cp)) wrong.push(cp);
    }
    expect(wrong).toEqual([]);
    for (const c of OPEN_SET) expect(readingOfCodePoint(c.codePointAt(0) ?? 0)).toBeUndefined();
  });
});
