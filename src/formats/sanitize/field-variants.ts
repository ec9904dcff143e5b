import { firstCodePoints } from "../text/index.ts";
import {
  MAX_ATTRIBUTE_CODEPOINTS,
  MAX_BODY_BYTES,
  MAX_DESCRIPTION_CODEPOINTS,
  MAX_LABEL_CODEPOINTS,
  MAX_MODEL_CODEPOINTS,
  MAX_NAME_CODEPOINTS,
  MAX_SUMMARY_CODEPOINTS,
} from "./limits.ts";
import { neutralisePlainTags } from "./neutralise-tags.ts";
import { CLOSE_CLASS, OPEN_CLASS, QUOTE_CLASS } from "./reading-classes.ts";
import { isPlainAscii, sanitize, sanitizeMixedTextCapped } from "./sanitize.ts";
import { truncateBytes, truncateRunes } from "./truncate.ts";

// `"`, `<`, `>`, `\n`, and every character that reads as `"`, `<` or `>`: a look-alike quote
// could fake the end of the value and the start of another attribute, a look-alike bracket a tag.
const BREAKERS = `[${QUOTE_CLASS}${OPEN_CLASS}${CLOSE_CLASS}\n]`;
const ATTRIBUTE_BREAKERS = new RegExp(BREAKERS, "u");
const ATTRIBUTE_BREAKERS_ALL = new RegExp(BREAKERS, "gu");

/**
 * A message body: {@link sanitize}, then capped at {@link MAX_BODY_BYTES} (16,384) UTF-8 bytes,
 * marker included, cut at a code-point start.
 *
 * @example sanitizeBody("ok\r\n") === "ok\n"
 */
export function sanitizeBody(s: string): string {
  if (isPlainAscii(s)) {
    // R5 keeps ASCII ASCII, so the byte length is the UTF-16 length: no second scan.
    const t = neutralisePlainTags(s);
    return t.length <= MAX_BODY_BYTES ? t : truncateBytes(t, MAX_BODY_BYTES);
  }
  return sanitizeMixedTextCapped(s, MAX_BODY_BYTES);
}

/**
 * A sender summary: {@link sanitize}, then capped at 200 code points, marker included.
 *
 * @example sanitizeSummary("x".repeat(201)).length === 200
 */
export function sanitizeSummary(s: string): string {
  return truncateRunes(sanitize(s), MAX_SUMMARY_CODEPOINTS);
}

/**
 * A session or team name: {@link sanitize}, then capped at 64 code points, marker included.
 *
 * @example sanitizeName("billing\u200B-svc") === "billing-svc"
 */
export function sanitizeName(s: string): string {
  return truncateRunes(sanitize(s), MAX_NAME_CODEPOINTS);
}

/**
 * A human label: {@link sanitize}, then capped at 128 code points, marker included.
 *
 * @example sanitizeLabel("dana@example.org") === "dana@example.org"
 */
export function sanitizeLabel(s: string): string {
  return truncateRunes(sanitize(s), MAX_LABEL_CODEPOINTS);
}

/**
 * A session description: {@link sanitize}, then capped at 256 code points, marker included.
 *
 * @example sanitizeDescription("fixing <channel> bugs") === "fixing &lt;channel> bugs"
 */
export function sanitizeDescription(s: string): string {
  return truncateRunes(sanitize(s), MAX_DESCRIPTION_CODEPOINTS);
}

/**
 * A model name: {@link sanitize}, then capped at 128 code points, marker included.
 *
 * @example sanitizeModel("claude-opus\u202E") === "claude-opus"
 */
export function sanitizeModel(s: string): string {
  return truncateRunes(sanitize(s), MAX_MODEL_CODEPOINTS);
}

/**
 * The id rule (docs/spec/formats.md §1.5, amended in docs/11-sanitizer.md): {@link sanitize}, then
 * every `"`, `<`, `>` and `\n` deleted, and every look-alike of `"`, `<` and `>` (`＂`, `“`, `”`,
 * `„`, `″`, `〃`, `＜`, `‹`, `«`, `⟨`, …; the generated tables of docs/11-sanitizer.md). NO cap: ids
 * are printed whole so a model can copy them. Idempotent except the docs/spec/formats.md §1.6(4)
 * corner (a deleted character between a base and a combining mark).
 *
 * @example sanitizeId('s-2b8e"\n') === "s-2b8e"
 */
export function sanitizeId(s: string): string {
  const t = sanitize(s);
  return ATTRIBUTE_BREAKERS.test(t) ? t.replace(ATTRIBUTE_BREAKERS_ALL, "") : t;
}

/**
 * A tag attribute value: {@link sanitizeId}'s rule, then the first 64 code points, with NO
 * marker. The result can neither contain a tag nor end an attribute or a tag line, nor show a
 * look-alike quote or bracket that would seem to.
 *
 * @example sanitizeAttribute('Ops "blue"\n<team> & co') === "Ops blueteam & co"
 */
export function sanitizeAttribute(s: string): string {
  return firstCodePoints(sanitizeId(s), MAX_ATTRIBUTE_CODEPOINTS);
}
