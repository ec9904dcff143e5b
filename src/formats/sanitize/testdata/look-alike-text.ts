import fc from "fast-check";
import { CONFUSABLE_FOLD_TABLE } from "../../cross-session/confusable-fold-table.ts";
import { OPEN_LOOK_ALIKES, SLASH_LOOK_ALIKES } from "../tag-reading-table.ts";
import { hostileText } from "./hostile-text.ts";

const FAMILIES = [
  "brigade-message",
  "cross-session-message",
  "teammate-message",
  "channel",
  "system-reminder",
] as const;

function codePointsOf(ranges: string): string[] {
  const out: string[] = [];
  for (const range of ranges.split(" ")) {
    const [a, b] = range.split("-").map((h) => Number.parseInt(h, 16));
    for (let c = a ?? 0; c <= (b ?? a ?? 0); c++) out.push(String.fromCodePoint(c));
  }
  return out;
}

const SKIPPED = /^(?:\p{Default_Ignorable_Code_Point}|\p{M}|\p{Cf})$/u;

/** Code points the confusable table folds to each single letter or `-` (none that is skipped). */
const SPELLINGS = new Map<string, string[]>();
for (const [value, ranges] of CONFUSABLE_FOLD_TABLE) {
  for (const x of value.split("|").filter((v) => v.length === 1)) {
    const list = SPELLINGS.get(x) ?? [];
    list.push(...codePointsOf(ranges).filter((c) => !SKIPPED.test(c)));
    SPELLINGS.set(x, list);
  }
}

/** Invisible and reader-skipped code points: not Cf (R3 deletes those), so they reach R5. */
export const INVISIBLES: readonly string[] = [
  "\u034F",
  "\uFE0F",
  "\uFE00",
  "\u115F",
  "\u1160",
  "\u3164",
  "\uFFA0",
  "\u180B",
  "\u17B4",
  "\u{E0100}",
  "\u{E01EF}",
  "\u2065",
  "\u0301",
  "\u0332",
  "\u0338",
  "\u20DD",
  "\u0903",
  "\u200B",
  "\u200D",
  "\u00AD",
];

const OPENERS = ["<", ...codePointsOf(OPEN_LOOK_ALIKES)];
const SLASHES = ["/", ...codePointsOf(SLASH_LOOK_ALIKES)];
const SPACES = [" ", "\t", "\u3000", "\u00A0"];

const invisibles = fc.array(fc.constantFrom(...INVISIBLES), { maxLength: 3 }).map((a) => a.join(""));

/** One name character spelled as ASCII (either case), `_` for `-`, or a look-alike. */
function spelling(x: string): fc.Arbitrary<string> {
  const own = x === "-" ? ["-", "_"] : [x, x.toUpperCase()];
  const others = SPELLINGS.get(x) ?? [];
  return others.length === 0
    ? fc.constantFrom(...own)
    : fc.oneof(fc.constantFrom(...own), fc.constantFrom(...others));
}

/**
 * A family tag built from a random mix of look-alike brackets, slashes, hyphens and letters, with
 * invisible code points and combining marks anywhere after the opener.
 */
export const lookAlikeTag: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...OPENERS),
    invisibles,
    fc.option(fc.tuple(fc.constantFrom(...SPACES), fc.constantFrom(...SLASHES), invisibles)),
    fc.constantFrom(...FAMILIES),
  )
  .chain(([open, gap, slash, family]) =>
    fc
      .tuple(...[...family].map((x) => fc.tuple(spelling(x), invisibles)))
      .map((letters) => {
        const head = open + gap + (slash === null ? "" : slash.join(""));
        return head + letters.map(([c, tail]) => c + tail).join("");
      }),
  );

/** Ordinary text: words, comparisons, emoji with VS16, skin tones, keycaps and ZWJ sequences. */
export const ORDINARY_PIECES: readonly string[] = [
  "hello ",
  "a < b ",
  "x<y ",
  "\u2764\uFE0F ",
  "\u263A\uFE0F",
  "1\uFE0F\u20E3",
  "\u{1F44D}\u{1F3FD} ",
  "\u{1F1E9}\u{1F1EA}",
  "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}",
  "\u{1F3F3}\uFE0F\u200D\u{1F308}",
  "caf\u00E9 ",
  "\u00AB quote \u00BB ",
  "\u201Cquoted\u201D ",
  "1/2 ",
  "\u65E5\u672C\u8A9E ",
  "\u0928\u092E\u0938\u094D\u0924\u0947 ",
  "\n",
];

/** Random ordinary text (no family tag on any reading). */
export const ordinaryText: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...ORDINARY_PIECES), { maxLength: 30 })
  .map((parts) => parts.join(""));

/** Look-alike tags inside random ordinary and hostile text. */
export const textWithLookAlikeTags: fc.Arbitrary<string> = fc
  .array(fc.oneof(lookAlikeTag, ordinaryText, hostileText, fc.constantFrom(...INVISIBLES)), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join(""));
