import { CROSS_SESSION_MESSAGE_TAG } from "./message-tag.ts";
import { singleTagPatternSource } from "./tag-pattern.ts";

/** The close-only `cross-session-message` pattern (cross-session.md §6.2), compiled once. */
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
  return body.replace(CROSS_SESSION_CLOSE_PATTERN, "<\\");
}
