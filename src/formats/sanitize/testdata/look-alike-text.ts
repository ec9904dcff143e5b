import fc from "fast-check";
import { CONFUSABLE_FOLD_TABLE } from "../../cross-session/confusable-fold-table.ts";
import { CLAUDE_CODE_TAGS } from "../claude-code-tags.ts";
import {
  BACKSLASH_LOOK_ALIKES,
  BLANK_LOOK_ALIKES,
  DASH_LOOK_ALIKES,
  OPEN_LOOK_ALIKES,
  SLASH_LOOK_ALIKES,
} from "../tag-reading-table.ts";
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
/** Every slash look-alike. */
export const SLASHES: readonly string[] = ["/", ...codePointsOf(SLASH_LOOK_ALIKES)];
/** Every backslash look-alike. */
export const BACKSLASHES: readonly string[] = ["\\", ...codePointsOf(BACKSLASH_LOOK_ALIKES)];
/** Every blank that is not whitespace (U+2800 …). */
export const BLANKS: readonly string[] = codePointsOf(BLANK_LOOK_ALIKES);
/** Whitespace and blanks: what may stand around a slash or in place of a `-`. */
export const SPACES: readonly string[] = [
  " ",
  "\t",
  "\n",
  "\u2028",
  "\u3000",
  "\u00A0",
  "\u2007",
  ...BLANKS,
];
/** Every code point that reads as a name's `-`: the generated list and the confusable fold's. */
export const DASHES: readonly string[] = [
  ...new Set(["-", "_", ...codePointsOf(DASH_LOOK_ALIKES), ...(SPELLINGS.get("-") ?? [])]),
];
/** Every name the reading recognises, as written: the families, then Claude Code's tags. */
export const TAG_NAMES: readonly string[] = [...FAMILIES, ...CLAUDE_CODE_TAGS];

const invisibles = fc.array(fc.constantFrom(...INVISIBLES), { maxLength: 3 }).map((a) => a.join(""));

/** One letter spelled as ASCII (either case) or a look-alike. */
function spelling(x: string): fc.Arbitrary<string> {
  const others = SPELLINGS.get(x) ?? [];
  const own = fc.constantFrom(x, x.toUpperCase());
  return others.length === 0 ? own : fc.oneof(own, fc.constantFrom(...others));
}

/**
 * What stands for a name's `-`: one dash look-alike, or a run of dashes and inline whitespace
 * or blanks, with invisible code points inside.
 */
const separator: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...DASHES),
  fc.constantFrom(...SPACES),
  fc
    .array(fc.tuple(fc.constantFrom(...DASHES, ...SPACES), invisibles), {
      minLength: 1,
      maxLength: 4,
    })
    .map((parts) => parts.map(([c, tail]) => c + tail).join("")),
);

/** The slashes of a closing tag: one, doubled or escaped, with invisibles inside; ends in a slash. */
const slashRun: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...SLASHES, ...BACKSLASHES), invisibles), { maxLength: 2 }),
    fc.constantFrom(...SLASHES),
    invisibles,
  )
  .map(([before, last, tail]) => before.map(([c, t]) => c + t).join("") + last + tail);

/** What may follow a whole name: nothing, the tag's end, whitespace, a blank, an attribute. */
const afterWholeName = fc.constantFrom("", ">", " ", "\t", "\u2800", '\u034F x="1">', "/>", "\n");

/**
 * A tag of any read name (a family, or one of Claude Code's tags followed by something that ends
 * the name) built from a random mix of look-alike brackets, slashes (doubled or escaped), letters
 * and separators in place of each `-`, with whitespace or blanks around the slashes and invisible
 * code points and combining marks anywhere after the opener.
 */
export const lookAlikeTag: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...OPENERS),
    invisibles,
    fc.option(
      fc.tuple(
        fc.constantFrom("", ...SPACES),
        slashRun,
        fc.constantFrom("", ...SPACES),
      ),
    ),
    fc.constantFrom(...TAG_NAMES),
    afterWholeName,
  )
  .chain(([open, gap, slash, name, after]) =>
    fc
      .tuple(
        ...[...name].map((x) =>
          fc.tuple(x === "-" || x === "_" ? separator : spelling(x), invisibles),
        ),
      )
      .map((letters) => {
        const head = open + gap + (slash === null ? "" : slash.join(""));
        const tail = FAMILIES.some((family) => family === name) ? "" : after;
        return head + letters.map(([c, rest]) => c + rest).join("") + tail;
      }),
  );

/**
 * A tag spelling one step away from a tag: whitespace or a blank inside a word, a `-` left out, a
 * backslash that escapes no slash, two runs of slashes, a whole name followed by a letter, a digit
 * or a dash. Some still read as another name (the oracle decides).
 */
export const nearMissTag: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...OPENERS),
    fc.constantFrom(...TAG_NAMES),
    fc.nat(40),
    fc.constantFrom(
      "space-in-word",
      "dash-left-out",
      "lone-backslash",
      "backslash-last",
      "two-slash-runs",
      "longer-word",
    ),
    fc.constantFrom(" ", "\u2800", "\n", "\u2028", "\u3000", "\t"),
    fc.constantFrom("s", "7", "-", "\u2014", "\u0455", "\u4E00", "_x"),
  )
  .map(([open, name, at, kind, space, more]) => {
    const cut = 1 + (at % Math.max(1, name.length - 1));
    switch (kind) {
      case "space-in-word":
        return open + name.slice(0, cut) + space + name.slice(cut);
      case "dash-left-out":
        return open + name.replace(/[-_]/, "");
      case "lone-backslash":
        return `${open}\\${name}`;
      case "backslash-last":
        return `${open}/\\${name}`;
      case "two-slash-runs":
        return `${open}/ /${name}`;
      default:
        return open + name + more;
    }
  });

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

/** Look-alike tags and near misses inside random ordinary and hostile text. */
export const textWithLookAlikeTags: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      lookAlikeTag,
      nearMissTag,
      ordinaryText,
      hostileText,
      fc.constantFrom(...INVISIBLES),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(""));
