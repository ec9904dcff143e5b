import { ENGINE_AUTHORITY_ENVELOPE_TAGS } from "./authority-tags.ts";
import { OPEN_SET } from "./character-sets.ts";
import { foldedReading, markerLetters } from "./folded-reading.ts";
import { peerBodyPatternSource } from "./peer-body-pattern.ts";

const ANY_OPEN = new RegExp(`[${OPEN_SET}]`, "u");

const PEER_BODY_TAGS = ENGINE_AUTHORITY_ENVELOPE_TAGS.filter((tag) => tag !== "channel");

/** Our peer-body pattern: the 40-tag authority family (minus `channel`), channel and antml rules. */
const PEER_BODY_PATTERN = new RegExp(
  peerBodyPatternSource({ tags: PEER_BODY_TAGS, channel: true, antml: true }),
  "giu",
);

const STICKY_FORM = new WeakMap<RegExp, RegExp>();

/** The same pattern, sticky instead of global: tried at one position, never scanning on. */
function stickyForm(pattern: RegExp): RegExp {
  let sticky = STICKY_FORM.get(pattern);
  if (sticky === undefined) {
    sticky = new RegExp(pattern.source, `${pattern.flags.replace("g", "")}y`);
    STICKY_FORM.set(pattern, sticky);
  }
  return sticky;
}

/**
 * Whether a peer-body pattern matches at one OPEN position of the reading. The match of every
 * peer-body pattern is the OPEN character alone (the rest is a lookahead) and it starts with the
 * `[OPEN]` class, so trying each OPEN position on its own finds exactly the matches of a global
 * scan, which tries every position and advances one character past each match.
 */
type MatchesAt = (text: string, at: number) => boolean;

/**
 * Rewrites to `<\` the OPEN character of `body` under every reading position `matchesAt` accepts.
 * OPEN positions come from `indexOf("<")` and from the reading's walk over non-ASCII characters
 * (the `[OPEN]` class is exactly its literal members, none of which is folded, also under `iu`).
 */
function rewriteMatches(body: string, matchesAt: MatchesAt): string {
  const nonAsciiOpens: number[] = [];
  const { text, segments } = foldedReading(body, nonAsciiOpens);
  let out = "";
  let copied = 0;
  let segment = 0;
  let lt = text.indexOf("<");
  let k = 0;
  for (;;) {
    const other = nonAsciiOpens[k] ?? -1;
    let at: number;
    if (lt !== -1 && (other === -1 || lt < other)) {
      at = lt;
      lt = text.indexOf("<", lt + 1);
    } else if (other !== -1) {
      at = other;
      k++;
    } else {
      break;
    }
    if (!matchesAt(text, at)) continue;
    while (segment + 1 < segments.length && (segments[segment + 1]?.[0] ?? 0) <= at) segment++;
    const [readingStart, inputStart] = segments[segment] ?? [0, 0];
    const inputAt = inputStart + (at - readingStart);
    out += `${body.slice(copied, inputAt)}<\\`;
    copied = inputAt + openLength(text, at);
  }
  return copied === 0 ? body : out + body.slice(copied);
}

/** UTF-16 length of the OPEN character at `at`: 2 for U+1D236, else 1. */
function openLength(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return c >= 0xd800 && c <= 0xdbff ? 2 : 1;
}

/**
 * Runs one compiled peer-body pattern (global) over the folded reading of `body` and rewrites every
 * matched OPEN character of the input to `<\`. The pattern is tried, sticky, only where the reading
 * holds an OPEN character. Returns `body` itself when nothing matched.
 */
export function applyPeerBodyPattern(pattern: RegExp, body: string): string {
  if (!ANY_OPEN.test(body)) return body;
  const sticky = stickyForm(pattern);
  return rewriteMatches(body, (text, at) => {
    sticky.lastIndex = at;
    return sticky.test(text);
  });
}

/**
 * The peer-body pattern split into one sticky pattern per alternative (each tag, the channel rule,
 * the antml rule), grouped by the alternative's first letter. The whole pattern is a boolean OR of
 * its alternatives inside one lookahead, so the OR of the split patterns at a position is the whole
 * pattern's answer there; and a pattern of one alternative is small enough for V8 to run as
 * native code, which the whole one (hundreds of kilobytes of source) is not.
 */
function patternsByFirstLetter(): ReadonlyMap<string, readonly RegExp[]> {
  const byLetter = new Map<string, RegExp[]>();
  const add = (letter: string, source: string): void => {
    const list = byLetter.get(letter) ?? [];
    list.push(new RegExp(source, "iuy"));
    byLetter.set(letter, list);
  };
  for (const tag of PEER_BODY_TAGS) {
    add(tag.charAt(0), peerBodyPatternSource({ tags: [tag], channel: false, antml: false }));
  }
  add("c", peerBodyPatternSource({ tags: [], channel: true, antml: false }));
  add("a", peerBodyPatternSource({ tags: [], channel: false, antml: true }));
  return byLetter;
}

const PATTERNS_BY_FIRST_LETTER: ReadonlyMap<string, readonly RegExp[]> = patternsByFirstLetter();
const WHOLE_PATTERN_STICKY: RegExp = stickyForm(PEER_BODY_PATTERN);

/** The tags by first letter, lower case, `_` spelled `-`: how they read in plain ASCII. */
function plainSpellingsByFirstLetter(): ReadonlyMap<string, readonly string[]> {
  const byLetter = new Map<string, string[]>();
  for (const tag of PEER_BODY_TAGS) {
    const list = byLetter.get(tag.charAt(0)) ?? [];
    list.push(tag.replaceAll("_", "-"));
    byLetter.set(tag.charAt(0), list);
  }
  return byLetter;
}

const PLAIN_SPELLINGS: ReadonlyMap<string, readonly string[]> = plainSpellingsByFirstLetter();
/** Longest tag plus the one character after it. */
const PLAIN_WINDOW = Math.max(...PEER_BODY_TAGS.map((tag) => tag.length), "antml:".length) + 1;

/** How far past an opener the cheap look reaches before it defers to the whole pattern. */
const FILLER_LOOK_LIMIT = 64;

const BACKSLASH = 0x5c;
const LONG_S = 0x17f;
const KELVIN = 0x212a;

/** What the cheap look after an opener found. */
interface FillerLook {
  /** First letters of every alternative that can start there: a superset, possibly with repeats. */
  readonly letters: string;
  /** Index of the ASCII letter that ends the filler when only it can start an alternative, else -1. */
  readonly plainFrom: number;
}

const NOTHING: FillerLook = { letters: "", plainFrom: -1 };

/**
 * The first letters of every alternative that can start after the OPEN character at `at`, or
 * `null` when the look gives up (a filler longer than {@link FILLER_LOOK_LIMIT}). A SUPERSET is
 * enough: each letter's patterns are then run and decide.
 *
 * The pattern's filler skips characters that are neither name, OPEN nor CLOSE characters (`iu`:
 * `ſ` and `K` are name characters), and every alternative starts with the class `[x` + markers of
 * `x]` (`iu`), which only `x`, `X`, `ſ` for `s`, `K` for `k` and those markers match. So an
 * alternative can start only at a marker inside the filler or at the name character ending it.
 * Non-ASCII OPEN and CLOSE characters are walked over as if they were filler, which can only add
 * letters. The `(?!\)` after the opener is checked here too: a `\` there leaves no letter.
 */
function lookAfterOpener(text: string, at: number): FillerLook | null {
  const start = at + openLength(text, at);
  if (text.charCodeAt(start) === BACKSLASH) return NOTHING;
  const end = Math.min(text.length, start + FILLER_LOOK_LIMIT);
  let letters = "";
  // Plain while the filler holds no non-ASCII character: a non-ASCII OPEN or CLOSE character ends
  // the real filler, so past one only the regex may decide.
  let plain = true;
  for (let j = start; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c < 0x80) {
      const lower = c | 0x20;
      if (lower >= 0x61 && lower <= 0x7a) {
        return { letters: letters + String.fromCharCode(lower), plainFrom: plain ? j : -1 };
      }
      if ((c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d || c === 0x3c || c === 0x3e) {
        return { letters, plainFrom: -1 };
      }
    } else if (c === LONG_S) {
      return { letters: `${letters}s`, plainFrom: -1 };
    } else if (c === KELVIN) {
      return { letters: `${letters}k`, plainFrom: -1 };
    } else {
      letters += markerLetters(c);
      plain = false;
    }
  }
  return end === text.length ? { letters, plainFrom: -1 } : null;
}

/** Tab, newline, carriage return or printable ASCII: none is a marker, INVIS or a folding letter. */
function isPlainUnit(c: number): boolean {
  return (c >= 0x20 && c <= 0x7e) || c === 0x09 || c === 0x0a || c === 0x0d;
}

const NAME_UNIT = /[A-Za-z0-9_-]/;

/**
 * The tag and antml rules decided without a regex when the filler after the opener was plain ASCII
 * and the {@link PLAIN_WINDOW} characters from its end `from` are plain too: there a tag's letters
 * can only be its ASCII letters in either case, a dash only `-` or `_`, with nothing between them,
 * followed by a non-name character or the end. `null` when the window is not plain or it starts
 * with `channel` (the channel rule needs its regex).
 */
function plainDecision(text: string, from: number, letter: string): boolean | null {
  const end = Math.min(text.length, from + PLAIN_WINDOW);
  for (let j = from; j < end; j++) if (!isPlainUnit(text.charCodeAt(j))) return null;
  const window = text.slice(from, end).toLowerCase().replaceAll("_", "-");
  if (letter === "c" && window.startsWith("channel")) return null;
  if (letter === "a" && window.startsWith("antml:")) return true;
  for (const spelling of PLAIN_SPELLINGS.get(letter) ?? []) {
    if (!window.startsWith(spelling)) continue;
    const next = window.charAt(spelling.length);
    if (next === "" || !NAME_UNIT.test(next)) return true;
  }
  return false;
}

/** Whether the whole peer-body pattern matches at the OPEN position `at` of the reading. */
function peerBodyMatchesAt(text: string, at: number): boolean {
  const look = lookAfterOpener(text, at);
  if (look === null) {
    WHOLE_PATTERN_STICKY.lastIndex = at;
    return WHOLE_PATTERN_STICKY.test(text);
  }
  if (look.plainFrom !== -1) {
    const plain = plainDecision(text, look.plainFrom, look.letters);
    if (plain !== null) return plain;
  }
  for (const letter of new Set(look.letters)) {
    for (const pattern of PATTERNS_BY_FIRST_LETTER.get(letter) ?? []) {
      pattern.lastIndex = at;
      if (pattern.test(text)) return true;
    }
  }
  return false;
}
/**
 * The one neutralisation every peer-authored body receives before a carrier wraps it: the angle of
 * every opener or closer of the engine authority family ({@link ENGINE_AUTHORITY_ENVELOPE_TAGS}),
 * of `channel` with a `source=` attribute, and of `antml` + a colon look-alike becomes `<\`, matched
 * case-insensitively on a reading where confusable letters are folded to ASCII. Nothing is deleted.
 * A superset of Claude Code's four-tag neutraliser; idempotent; never throws on a string; a text with
 * no `<` look-alike is returned unchanged.
 * Example: `neutralizePeerBody("<system-reminder>x")` is `"<\\system-reminder>x"`.
 */
export function neutralizePeerBody(body: string): string {
  if (!ANY_OPEN.test(body)) return body;
  return rewriteMatches(body, peerBodyMatchesAt);
}
