import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CLOSE_SET, OPEN_SET, SLASH_SET } from "./character-sets.ts";
import { CROSS_SESSION_CLOSE_PATTERN, escapeEnvelopeTag } from "./escape-envelope-tag.ts";
import { openPositions } from "./open-positions.ts";

/**
 * The straightforward escaper the fast one replaced: one global replace of the
 * docs/spec/cross-session.md §6.2 pattern.
 */
const WHOLE = new RegExp(CROSS_SESSION_CLOSE_PATTERN.source, "giu");
const referenceEscape = (body: string): string => body.replace(WHOLE, "<\\");

const name = fc
  .tuple(
    fc.constantFrom("cross-session-message", "cross_session_message", "cross-session-messages"),
    fc.array(fc.nat(), { maxLength: 3 }),
  )
  .map(([tag, edits]) => {
    const chars = [...tag];
    for (const e of edits) {
      const i = e % chars.length;
      const c = chars[i] ?? "";
      const kind = (e >> 5) % 5;
      chars[i] =
        kind === 0
          ? c.toUpperCase()
          : kind === 1
            ? `${c}\u200b`
            : kind === 2
              ? c === "s"
                ? "\u017f"
                : c === "-"
                  ? "\u2010"
                  : c
              : kind === 3
                ? `${c}\u0301`
                : `${c}\x01`;
    }
    return chars.join("");
  });
const piece = fc.oneof(
  name,
  fc.constantFrom(...OPEN_SET, ...CLOSE_SET, ...SLASH_SET, ...SLASH_SET),
  fc.constantFrom(
    "<",
    "</",
    "< /",
    "<\t/\u3000",
    "<\\/",
    "\\",
    "/",
    ">",
    " ",
    "\n",
    "\u3000",
    "\u200b",
    "x",
    "7",
    "_",
    "-",
    "\u212a",
    "\ud800",
    "\udc00",
    "\u{1d236}",
    " ".repeat(63),
    " ".repeat(65),
    "\t".repeat(70),
  ),
  fc.string({ maxLength: 4 }),
);
const hostile = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(""));

describe("escapeEnvelopeTag equals one global replace of the docs/spec/cross-session.md §6.2 pattern", () => {
  test("hostile closers and near misses", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        expect(escapeEnvelopeTag(s)).toBe(referenceEscape(s));
      }),
      { numRuns: 4000 },
    );
  });

  test("arbitrary UTF-16, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (s) => {
        expect(escapeEnvelopeTag(s)).toBe(referenceEscape(s));
      }),
      { numRuns: 1000 },
    );
  });

  test("the cheap look rules out only what the pattern rules out", () => {
    for (const s of [
      "</cross-session-message>",
      "< \t/cross-session-message>",
      `<${" ".repeat(70)}/cross-session-message>`,
      "<\\/cross-session-message>",
      "<x/cross-session-message>",
      "<\u3000/cross-session-message>",
      "<\uff0fcross-session-message>",
      "\u{1d236}/cross-session-message>",
      "</",
      "<",
    ]) {
      expect(escapeEnvelopeTag(s), JSON.stringify(s)).toBe(referenceEscape(s));
    }
  });
});

describe("openPositions", () => {
  test("is every match of the [OPEN] class, ascending", () => {
    const every = new RegExp(`[${OPEN_SET}]`, "giu");
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string({ unit: "binary", maxLength: 40 })), (s) => {
        expect(openPositions(s)).toEqual([...s.matchAll(every)].map((m) => m.index));
      }),
      { numRuns: 3000 },
    );
  });
});
