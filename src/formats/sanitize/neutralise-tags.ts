import { isFamilyTagAt, nextOpener } from "./family-tag.ts";
import { READ_TAG_NAMES, WHOLE_NAMES_FROM } from "./read-tag-names.ts";
import { OPEN_CLASS, unitsAt } from "./reading-classes.ts";

/** What replaces the opener (`<` or a look-alike) of a family tag. */
export const NEUTRALISED_LT = "&lt;";

// Printable ASCII, tab and newline: text whose tag reading needs no table (nothing to skip, no
// look-alike but `_`, no blank but space and tab), so one sticky regex per `<` decides: the same
// reading as the table walk of family-tag.ts, spelled for ASCII.
const NOT_PLAIN_ASCII = /[^\t\n\x20-\x7E]/;
/** A name as an ASCII pattern: its `-` (or `_`) may be any run of `-`, `_` and whitespace. */
const plainName = (name: string): string => name.split(/[-_]/).join("[-_ \\t\\n]+");
const PLAIN_AFTER_LT = new RegExp(
  "[\\t\\n ]*(?:[/\\\\]*/[\\t\\n ]*)?(?:" +
    READ_TAG_NAMES.slice(0, WHOLE_NAMES_FROM).map(plainName).join("|") +
    "|(?:" +
    READ_TAG_NAMES.slice(WHOLE_NAMES_FROM).map(plainName).join("|") +
    ")(?![-_A-Za-z0-9]))",
  "iy",
);
const LOOK_ALIKE_OPENER = new RegExp(`[${OPEN_CLASS.slice(1)}]`, "u");

/**
 * {@link neutraliseTags} for text known to hold only printable ASCII, tab and newline.
 *
 * @example neutralisePlainTags("<<system_reminder>") === "<&lt;system_reminder>"
 */
export function neutralisePlainTags(s: string): string {
  let lt = s.indexOf("<");
  if (lt === -1) return s;
  let out = "";
  let copied = 0;
  while (lt !== -1) {
    PLAIN_AFTER_LT.lastIndex = lt + 1;
    if (PLAIN_AFTER_LT.test(s)) {
      out += s.slice(copied, lt) + NEUTRALISED_LT;
      copied = lt + 1;
    }
    lt = s.indexOf("<", lt + 1);
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/**
 * {@link neutraliseTags} when the caller knows whether `s` may hold a look-alike of `<`: without
 * one, `indexOf("<")` finds every opener (a native scan); with one, the class table does.
 *
 * @example neutraliseScannedTags("\uFF1Cchannel", true) === "&lt;channel"
 */
export function neutraliseScannedTags(s: string, lookAlikes: boolean): string {
  let at = lookAlikes ? nextOpener(s, 0) : s.indexOf("<");
  let out = "";
  let copied = 0;
  while (at !== -1) {
    if (isFamilyTagAt(s, at)) {
      out += s.slice(copied, at) + NEUTRALISED_LT;
      copied = at + unitsAt(s, at);
    }
    at = lookAlikes ? nextOpener(s, at + 1) : s.indexOf("<", at + 1);
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/**
 * {@link neutraliseTags} when the caller already knows every opener of `s` (UTF-16 offsets,
 * ascending), as R3's pass records them.
 *
 * @example neutraliseAtOpeners("a<channel", [1]) === "a&lt;channel"
 */
export function neutraliseAtOpeners(s: string, openers: readonly number[]): string {
  let out = "";
  let copied = 0;
  for (const at of openers) {
    if (isFamilyTagAt(s, at)) {
      out += s.slice(copied, at) + NEUTRALISED_LT;
      copied = at + unitsAt(s, at);
    }
  }
  return copied === 0 ? s : out + s.slice(copied);
}

/**
 * Rule R5 as amended (docs/11-sanitizer.md): the opener of every family tag that
 * `familyTagAt` finds on the tag reading (look-alike brackets, slashes, dashes and
 * letters folded; invisible code points and combining marks skipped) becomes `&lt;`; nothing
 * else changes, nothing is deleted. On text without look-alikes or skipped code points this is
 * docs/spec/formats.md §1.2 byte for byte. Idempotent. Returns `s` itself when nothing matched.
 *
 * @example neutraliseTags("<<system-reminder>") === "<&lt;system-reminder>"
 * @example neutraliseTags("\uFF1C\u034Fchannel>") === "&lt;\u034Fchannel>"
 */
export function neutraliseTags(s: string): string {
  if (!NOT_PLAIN_ASCII.test(s)) return neutralisePlainTags(s);
  return neutraliseScannedTags(s, LOOK_ALIKE_OPENER.test(s));
}
