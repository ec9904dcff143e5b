import { CROSS_SESSION_MESSAGE_TAG } from "./message-tag.ts";
import { openPositions } from "./open-positions.ts";
import { singleTagPatternSource } from "./tag-pattern.ts";

/**
 * The close-only `cross-session-message` pattern (docs/spec/cross-session.md §6.2), compiled once.
 */
export const CROSS_SESSION_CLOSE_PATTERN: RegExp = new RegExp(
  singleTagPatternSource(CROSS_SESSION_MESSAGE_TAG, true),
  "giu",
);

/**
 * Close-only escaper for `cross-session-message`, byte-identical to Claude Code's: the angle of every
 * closing-tag look-alike (any `<` look-alike, any `/` look-alike, case-insensitive, `_` or any dash
 * for `-`, invisible characters between letters) becomes the two characters `<\`. Openers and other
 * tags are untouched. Idempotent; never throws on a string.
 * Example: `escapeEnvelopeTag("a </cross-session-message> b")` is `"a <\\/cross-session-message> b"`.
 */
export function escapeEnvelopeTag(body: string): string {
  let out = "";
  let copied = 0;
  for (const at of openPositions(body)) {
    if (!closeMatchesAt(body, at)) continue;
    out += `${body.slice(copied, at)}<\\`;
    copied = at + (body.charCodeAt(at) >= 0xd800 && body.charCodeAt(at) <= 0xdbff ? 2 : 1);
  }
  return copied === 0 ? body : out + body.slice(copied);
}

/**
 * {@link CROSS_SESSION_CLOSE_PATTERN}, sticky: the same source tried at one position. Its match is
 * the OPEN character alone and it starts with the `[OPEN]` class, so trying it at every OPEN
 * position finds exactly the matches a global `replace` finds.
 */
const CLOSE_PATTERN_AT: RegExp = new RegExp(CROSS_SESSION_CLOSE_PATTERN.source, "iuy");

/** How far past an opener the cheap look reaches before it defers to the pattern. */
const HEAD_LOOK_LIMIT = 64;

/**
 * Whether the close pattern matches at the OPEN character at `at`. A cheap look first: after the
 * opener the pattern wants no `\`, then a run of characters that are neither name, OPEN, CLOSE
 * nor SLASH characters, then a SLASH character. Over ASCII that run ends at the first letter,
 * digit, `_`, `-`, `<`, `>` or `/`, and anything but `/` there (or the end of the text) rules a
 * match out. A non-ASCII character (`ſ` and `K` are name characters under `iu`, look-alikes of
 * `/` are SLASH) or a long run leaves the decision to the pattern, as does a `/`.
 */
function closeMatchesAt(text: string, at: number): boolean {
  const first = text.charCodeAt(at);
  const start = at + (first >= 0xd800 && first <= 0xdbff ? 2 : 1);
  if (text.charCodeAt(start) === 0x5c) return false;
  const end = Math.min(text.length, start + HEAD_LOOK_LIMIT);
  let j = start;
  for (; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c >= 0x80 || c === 0x2f) break;
    const lower = c | 0x20;
    if ((lower >= 0x61 && lower <= 0x7a) || (c >= 0x30 && c <= 0x39)) return false;
    if (c === 0x5f || c === 0x2d || c === 0x3c || c === 0x3e) return false;
  }
  if (j === text.length) return false;
  CLOSE_PATTERN_AT.lastIndex = at;
  return CLOSE_PATTERN_AT.test(text);
}
