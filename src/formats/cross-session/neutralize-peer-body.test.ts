import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  CLOSE_SET,
  COLON_SET,
  DASH_SET,
  EQUALS_SET,
  INVIS_SET,
  OPEN_SET,
  SLASH_SET,
} from "./character-sets.ts";
import { CONFUSABLE_FOLD_TABLE } from "./confusable-fold-table.ts";
import { neutralizePeerBody } from "./index.ts";
import { applyPeerBodyPattern } from "./neutralize-peer-body.ts";
import { peerBodyPatternSource } from "./peer-body-pattern.ts";

// Claude Code's four-tag peer-body neutraliser, rebuilt from the same machinery as
// docs/spec/cross-session.md §7.4 describes: group 1 = {cross-session-message, teammate-message,
// agent-message}, then a second pass with {cited}.
const CC_PASS_1 = new RegExp(
  peerBodyPatternSource({
    tags: ["cross-session-message", "teammate-message", "agent-message"],
    channel: false,
    antml: false,
  }),
  "giu",
);
const CC_PASS_2 = new RegExp(
  peerBodyPatternSource({ tags: ["cited"], channel: false, antml: false }),
  "giu",
);
function ccFourTag(body: string): string {
  return applyPeerBodyPattern(CC_PASS_2, applyPeerBodyPattern(CC_PASS_1, body));
}

const CC_TAGS = ["cross-session-message", "teammate-message", "agent-message", "cited"] as const;
const OPENS = [...OPEN_SET];
const SLASHES = [...SLASH_SET];
const INVIS_SAMPLE = [
  "\u200b",
  "\u200d",
  "\u00ad",
  "\u034f",
  "\ufe0f",
  "\u2060",
  "\u{e0041}",
  "\u0301",
  "\x01",
  "\u2028",
];

/** Every code point the generated table folds, by the skeletons it stands for. */
const foldedBy = new Map<string, number[]>();
for (const [value, ranges] of CONFUSABLE_FOLD_TABLE) {
  const cps: number[] = [];
  for (const range of ranges.split(" ")) {
    const [a, b] = range.split("-").map((h) => Number.parseInt(h, 16)) as [
      number,
      number | undefined,
    ];
    for (let c = a; c <= (b ?? a); c++) cps.push(c);
  }
  for (const alt of value.split("|")) foldedBy.set(alt, [...(foldedBy.get(alt) ?? []), ...cps]);
}

/** A confusable spelling of `ch`: itself, its upper case, or one folded code point standing for it. */
function spellingOf(ch: string): fc.Arbitrary<string> {
  const folded = foldedBy.get(ch) ?? [];
  const options: fc.Arbitrary<string>[] = [fc.constant(ch), fc.constant(ch.toUpperCase())];
  if (folded.length > 0)
    options.push(fc.constantFrom(...folded).map((c) => String.fromCodePoint(c)));
  if (ch === "-")
    options.push(fc.constantFrom("_", "\u2010", "\u2212", "\u30fc", "\u2e40", "\u1400", "\ufe58"));
  return fc.oneof(...options);
}

/** An opener or closer of `tag` spelled with look-alikes, invisible characters between letters. */
function confusableTag(tag: string): fc.Arbitrary<string> {
  const letters = [...tag].map((ch) =>
    fc.tuple(spellingOf(ch), fc.array(fc.constantFrom(...INVIS_SAMPLE), { maxLength: 2 })),
  );
  return fc
    .tuple(
      fc.constantFrom(...OPENS),
      fc.option(fc.constantFrom(...SLASHES), { nil: "" }),
      fc.constantFrom("", " ", "\t", "\u3000"),
      fc.tuple(...letters),
      fc.constantFrom(">", " x=1>", "\u203a", "", "\n"),
    )
    .map(([open, slash, pad, spelled, end]) => {
      const name = spelled.map(([s, invis], i) =>
        i + 1 < spelled.length ? s + invis.join("") : s,
      );
      return `${open}${pad}${slash}${name.join("")}${end}`;
    });
}

/** Text built from tag-like fragments: the shapes the neutraliser must decide on. */
const tagSoup: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ...OPENS,
        ...SLASHES,
        ">",
        "\\",
        " ",
        "\n",
        "=",
        ":",
        "\uFE13",
        '"x"',
        "source",
        "channel",
        "antml",
        "x",
      ),
      fc.constantFrom(
        ...CC_TAGS,
        "system-reminder",
        "user_memory",
        "brigade-message",
        "tick",
        "skills",
      ),
      fc.constantFrom(
        ...INVIS_SAMPLE,
        "\u017f",
        "\u212a",
        "\u1d04",
        "\u2179",
        "\u00df",
        "\ud800",
        "\ue002",
        "\u{1d41c}",
      ),
      fc.constantFrom(...CC_TAGS).chain(confusableTag),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(""));

describe("docs/spec/cross-session.md §7.3 folded reading", () => {
  test("consequences CC exhibits", () => {
    expect(neutralizePeerBody("<\u2179cited>")).toBe("<\\\u2179cited>");
    expect(neutralizePeerBody("<cited\u2179>")).toBe("<\\cited\u2179>");
    expect(neutralizePeerBody("<citedx>")).toBe("<citedx>");
    expect(neutralizePeerBody("<xcited>")).toBe("<xcited>");
  });

  test("rules 1–4: confusables, decomposition, supplements, dashes", () => {
    // Cyrillic с/е, small capitals, Coptic, mathematical letters, ß → ss, ㎜ → mm, ſ, Kelvin sign.
    expect(neutralizePeerBody("<\u0441it\u0435d>")).toBe("<\\\u0441it\u0435d>");
    expect(neutralizePeerBody("<\u1d04\u026a\u1d1b\u1d07\u1d05>")).toBe(
      "<\\\u1d04\u026a\u1d1b\u1d07\u1d05>",
    );
    expect(neutralizePeerBody("<\u2ca5\u2c93ted>")).toBe("<\\\u2ca5\u2c93ted>");
    expect(neutralizePeerBody("<\u{1d41c}\u{1d422}\u{1d42d}\u{1d41e}\u{1d41d}>")).toBe(
      "<\\\u{1d41c}\u{1d422}\u{1d42d}\u{1d41e}\u{1d41d}>",
    );
    expect(neutralizePeerBody("</cro\u00df-session-message>")).toBe(
      "<\\/cro\u00df-session-message>",
    );
    expect(neutralizePeerBody("<co\u339cand-name>")).toBe("<\\co\u339cand-name>");
    expect(neutralizePeerBody("<\u017fkills>")).toBe("<\\\u017fkills>");
    expect(neutralizePeerBody("<tic\u212a>")).toBe("<\\tic\u212a>");
    expect(neutralizePeerBody("<agent\u2e40message>")).toBe("<\\agent\u2e40message>");
    expect(neutralizePeerBody("<agent\u2010message>")).toBe("<\\agent\u2010message>");
    expect(neutralizePeerBody("<\u01c6>")).toBe("<\u01c6>");
  });

  test("a raw character colliding with the marker alphabet reads as U+FFFD", () => {
    // U+E002 is the marker for "c" in this implementation; as raw input it must not spell `cited`.
    expect(neutralizePeerBody("<\ue002ited>")).toBe("<\ue002ited>");
  });

  test("rule 5: the table folds no ASCII, INVIS, OPEN, CLOSE, SLASH, COLON or EQUALS character", () => {
    const neverFold = new RegExp(
      `[\\x00-\\x7f${INVIS_SET}${OPEN_SET}${CLOSE_SET}${SLASH_SET}${COLON_SET}${EQUALS_SET}]`,
      "u",
    );
    const dash = new RegExp(`^[${DASH_SET}]$`, "u");
    let total = 0;
    for (const [alt, cps] of foldedBy) {
      for (const c of cps) {
        expect(neverFold.test(String.fromCodePoint(c)), `U+${c.toString(16)} (${alt})`).toBe(false);
        total++;
      }
    }
    expect(total).toBeGreaterThan(2000);
    // every DASH character other than - and _ stands for a dash
    for (const c of [0x2010, 0x2212, 0x30fc, 0xff70, 0x2017]) {
      expect(dash.test(String.fromCodePoint(c))).toBe(true);
      expect(foldedBy.get("-")).toContain(c);
    }
  });
});

describe("docs/spec/cross-session.md §7.4 rule groups", () => {
  test("channel rule", () => {
    expect(neutralizePeerBody('<channel source="x">')).toBe('<\\channel source="x">');
    expect(neutralizePeerBody('<channel x source ="y">')).toBe('<\\channel x source ="y">');
    expect(neutralizePeerBody('<channel\u3000source="y">')).toBe('<\\channel\u3000source="y">');
    expect(neutralizePeerBody('<channel id="1">')).toBe('<channel id="1">');
    expect(neutralizePeerBody('<channelsource="y">')).toBe('<channelsource="y">');
    expect(neutralizePeerBody('<channel\u000bsource="y">')).toBe('<\\channel\u000bsource="y">');
    expect(neutralizePeerBody('<channel\u200bsource="y">')).toBe('<channel\u200bsource="y">');
    expect(neutralizePeerBody('<channel x-source="y">')).toBe('<channel x-source="y">');
    expect(neutralizePeerBody('<channel source\u2800\uff1d"y">')).toBe(
      '<\\channel source\u2800\uff1d"y">',
    );
    // the span between the name and `source` is " " + N × "a" + " ": 120 characters at most
    expect(neutralizePeerBody(`<channel ${"a".repeat(118)} source="y">`)).toBe(
      `<\\channel ${"a".repeat(118)} source="y">`,
    );
    expect(neutralizePeerBody(`<channel ${"a".repeat(119)} source="y">`)).toBe(
      `<channel ${"a".repeat(119)} source="y">`,
    );
    // continuation markers are free: "\u339c" (mm) counts once
    expect(neutralizePeerBody(`<channel ${"\u339c".repeat(118)} source="y">`)).toBe(
      `<\\channel ${"\u339c".repeat(118)} source="y">`,
    );
    expect(neutralizePeerBody('<channel a> source="y">')).toBe('<channel a> source="y">');
  });

  test("antml rule", () => {
    const call = "<antml\u003ainvoke>";
    expect(neutralizePeerBody(call)).toBe(`<\\${call.slice(1)}`);
    expect(neutralizePeerBody("</antml\uff1ax>")).toBe("<\\/antml\uff1ax>");
    expect(neutralizePeerBody("<antml :x>")).toBe("<antml :x>");
    expect(neutralizePeerBody("<antmlx:y>")).toBe("<antmlx:y>");
  });

  test("every authority tag, opener and closer; longer names untouched", () => {
    for (const tag of [
      "bash-input",
      "system_reminder",
      "total_tokens",
      "user-memory-input",
      "artifact-stored-declaration",
    ]) {
      expect(neutralizePeerBody(`<${tag}>x</${tag.toUpperCase()}>`)).toBe(
        `<\\${tag}>x<\\/${tag.toUpperCase()}>`,
      );
      expect(neutralizePeerBody(`<${tag}x>`)).toBe(`<${tag}x>`);
    }
    expect(neutralizePeerBody("<tick")).toBe("<\\tick");
    expect(neutralizePeerBody("<<tick>")).toBe("<<\\tick>");
    expect(neutralizePeerBody("<\\tick>")).toBe("<\\tick>");
  });

  test("fast path: no OPEN character returns the input itself", () => {
    const text = "system-reminder> cited> \u1d04ited ".repeat(100);
    expect(neutralizePeerBody(text)).toBe(text);
    expect(neutralizePeerBody("")).toBe("");
  });
});

describe("docs/spec/cross-session.md §7.5 superset rule and invariants", () => {
  test("confusable spellings of the four CC peer tags are defused, as CC's neutraliser does", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CC_TAGS).chain(confusableTag), (text) => {
        const ours = neutralizePeerBody(text);
        expect(ccFourTag(text)).toBe(ours);
        expect(ours.slice(0, 2)).toBe("<\\");
      }),
      { numRuns: 2000 },
    );
  });

  test("neutralizePeerBody(ccFourTag(x)) === neutralizePeerBody(x)", () => {
    fc.assert(
      fc.property(tagSoup, (x) => {
        expect(neutralizePeerBody(ccFourTag(x))).toBe(neutralizePeerBody(x));
      }),
      { numRuns: 3000 },
    );
  });

  test("escaping a tag inside a channel span does not change the channel decision", () => {
    // span = " " + 112 × "a" + "<cited " = 120 characters: at the limit before and after escaping
    const x = `<channel ${"a".repeat(112)}<cited source="y">`;
    expect(neutralizePeerBody(x)).toBe(`<\\channel ${"a".repeat(112)}<\\cited source="y">`);
    expect(neutralizePeerBody(ccFourTag(x))).toBe(neutralizePeerBody(x));
  });

  test("idempotent and never throws", () => {
    fc.assert(
      fc.property(fc.oneof(tagSoup, fc.string({ unit: "binary" })), (x) => {
        const once = neutralizePeerBody(x);
        expect(neutralizePeerBody(once)).toBe(once);
        // only insertions of "\" after an OPEN character; nothing deleted
        expect(
          once.replace(new RegExp(`([${OPEN_SET}])\\\\`, "gu"), "$1").length,
        ).toBeLessThanOrEqual(x.length);
      }),
      { numRuns: 3000 },
    );
  });

  test("lone surrogates and a 1 MiB input", () => {
    expect(neutralizePeerBody("<\ud800cited>\udc00")).toBe("<\\\ud800cited>\udc00");
    const big = `${"<a \u1d04 ".repeat(1 << 17)}<cited>`;
    const started = performance.now();
    const out = neutralizePeerBody(big);
    expect(out.endsWith("<\\cited>")).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
