import { CONFUSABLE_FOLD_TABLE } from "../../cross-session/confusable-fold-table.ts";
import { CLAUDE_CODE_TAGS } from "../claude-code-tags.ts";
import {
  BACKSLASH_LOOK_ALIKES,
  BLANK_LOOK_ALIKES,
  DASH_LOOK_ALIKES,
  OPEN_LOOK_ALIKES,
  SLASH_LOOK_ALIKES,
} from "../tag-reading-table.ts";

// The tag reading of docs/11-sanitizer.md written the slow, obvious way and apart from the
// production code: what is skipped comes from the runtime's own Unicode property escapes (not the
// generated table), the text is first reduced to the code points that remain, and only then is a
// name searched for, code point by code point, trying every name as written (no deduplication).

/** The five families, spelled here again on purpose: matched as prefixes. */
const FAMILIES = [
  "brigade-message",
  "cross-session-message",
  "teammate-message",
  "channel",
  "system-reminder",
];

const SKIPPED = /^(?:\p{Default_Ignorable_Code_Point}|\p{M}|\p{Cf}|[^\P{Cc}\t\n])$/u;
const WORD = /^[\p{L}\p{N}]$/u;

function codePointsOf(ranges: string): Set<string> {
  const out = new Set<string>();
  for (const range of ranges.split(" ")) {
    const [a, b] = range.split("-").map((h) => Number.parseInt(h, 16));
    for (let c = a ?? 0; c <= (b ?? a ?? 0); c++) out.add(String.fromCodePoint(c));
  }
  return out;
}

const SPACES = codePointsOf(BLANK_LOOK_ALIKES);
for (const c of "\t\n \u00A0\u1680\u2028\u2029\u202F\u205F\u3000") SPACES.add(c);
for (let c = 0x2000; c <= 0x200a; c++) SPACES.add(String.fromCharCode(c));
const OPENS = codePointsOf(OPEN_LOOK_ALIKES).add("<");
const SLASHES = codePointsOf(SLASH_LOOK_ALIKES).add("/");
const BACKSLASHES = codePointsOf(BACKSLASH_LOOK_ALIKES).add("\\");
const DASHES = codePointsOf(DASH_LOOK_ALIKES).add("-").add("_");

/** For each folded code point, the single letters (or `-`) the confusable table says it reads as. */
const READS_AS = new Map<string, Set<string>>();
for (const [value, ranges] of CONFUSABLE_FOLD_TABLE) {
  const singles = value.split("|").filter((x) => x.length === 1);
  for (const c of codePointsOf(ranges)) {
    const set = READS_AS.get(c) ?? new Set<string>();
    for (const x of singles) set.add(x);
    READS_AS.set(c, set);
    if (value === "-") DASHES.add(c);
  }
}

/** Whether the visible code point `c` reads as the letter `x`. */
function readsAs(c: string, x: string): boolean {
  if (c.length === 1 && c < "\x80" && c.toLowerCase() === x) return true;
  if (c === "\u017F" && x === "s") return true;
  if (c === "\u212A" && x === "k") return true;
  return READS_AS.get(c)?.has(x) ?? false;
}

/** A code point with its UTF-16 offset in the original text. */
interface Placed {
  readonly c: string;
  readonly at: number;
}

/**
 * Where `name` ends when it starts at `j` of `visible` (an index past its last code point), else
 * -1: each letter one code point that reads as it, each `-` (or `_`) a non-empty run of dashes,
 * whitespace and blanks.
 */
function nameEnd(visible: readonly Placed[], j: number, name: string): number {
  let k = j;
  for (const x of name) {
    if (x === "-" || x === "_") {
      const start = k;
      for (;;) {
        const c = visible[k]?.c ?? "";
        if (!DASHES.has(c) && !SPACES.has(c)) break;
        k++;
      }
      if (k === start) return -1;
    } else {
      if (!readsAs(visible[k]?.c ?? "", x)) return -1;
      k++;
    }
  }
  return k;
}

/** Whether the visible code point `c` would continue a whole name (an opener never does). */
function continuesName(c: string | undefined): boolean {
  if (c === undefined || OPENS.has(c)) return false;
  return WORD.test(c) || DASHES.has(c) || READS_AS.has(c);
}

/**
 * UTF-16 offsets of the opener of every tag the reading finds in `s`: drop every skipped code
 * point, then, at each opener, allow spaces, one run of slashes and backslashes ending in a slash,
 * spaces, and a family name (as a prefix) or a Claude Code tag (whole).
 */
export function oracleTagOpeners(s: string): number[] {
  const visible: Placed[] = [];
  let at = 0;
  for (const c of s) {
    if (!SKIPPED.test(c)) visible.push({ c, at });
    at += c.length;
  }
  const found: number[] = [];
  for (let i = 0; i < visible.length; i++) {
    const opener = visible[i];
    if (opener === undefined || !OPENS.has(opener.c)) continue;
    let j = i + 1;
    while (SPACES.has(visible[j]?.c ?? "")) j++;
    const run = j;
    while (SLASHES.has(visible[j]?.c ?? "") || BACKSLASHES.has(visible[j]?.c ?? "")) j++;
    if (j > run) {
      if (!SLASHES.has(visible[j - 1]?.c ?? "")) continue;
      while (SPACES.has(visible[j]?.c ?? "")) j++;
    }
    const family = FAMILIES.some((name) => nameEnd(visible, j, name) !== -1);
    const whole = CLAUDE_CODE_TAGS.some((name) => {
      const end = nameEnd(visible, j, name);
      return end !== -1 && !continuesName(visible[end]?.c);
    });
    if (family || whole) found.push(opener.at);
  }
  return found;
}

/** `s` with the opener at each of `openers` (UTF-16 offsets, ascending) replaced by `&lt;`. */
export function replaceOpeners(s: string, openers: readonly number[]): string {
  let out = "";
  let copied = 0;
  for (const at of openers) {
    const units = (s.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
    out += `${s.slice(copied, at)}&lt;`;
    copied = at + units;
  }
  return out + s.slice(copied);
}
