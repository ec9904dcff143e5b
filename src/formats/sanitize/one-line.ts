import { goCollapseSpace, goTrimSpace, indexAfterCodePoints } from "../text/index.ts";
import { cutBeforeTag } from "./cut-before-tag.ts";
import { sanitizeName } from "./field-variants.ts";
import { MAX_NAME_CODEPOINTS } from "./limits.ts";
import { sanitize } from "./sanitize.ts";

const LINE_BREAKERS_ALL = /[\n\r\t]/g;

/**
 * What {@link noticeName} prints for a name with nothing left after sanitising and collapsing
 * whitespace, so a notice never shows an empty name.
 */
export const UNNAMED_SESSION = "(unnamed session)";

/**
 * One line of hook or CLI output from remote text (docs/spec/formats.md §1.5): {@link sanitize};
 * each `\n`, `\r` and `\t` becomes one space; surrounding Go whitespace is trimmed; the first `n`
 * code points are kept, with no marker (fewer when that cut would complete one of Claude Code's
 * tags: it is then made before the tag's opener).
 *
 * @example oneLine(" a\nb\t", 10) === "a b"
 */
export function oneLine(s: string, n: number): string {
  const line = goTrimSpace(sanitize(s).replace(LINE_BREAKERS_ALL, " "));
  const end = indexAfterCodePoints(line, n);
  return end === -1 ? line : line.slice(0, cutBeforeTag(line, end, ""));
}

/**
 * A sender name inside a notice: {@link sanitizeName} (64 code points, marker), then every run of
 * Go whitespace collapsed to one space and the ends trimmed; an empty result becomes
 * {@link UNNAMED_SESSION}.
 *
 * @example noticeName("  billing \n\n svc ") === "billing svc"
 */
export function noticeName(s: string): string {
  const name = goCollapseSpace(sanitizeName(s));
  return name === "" ? UNNAMED_SESSION : name;
}

/**
 * The name a harness registers for a session: `oneLine(sanitizeName(s), 64)`.
 *
 * @example registeredName("api\tworker\n") === "api worker"
 */
export function registeredName(s: string): string {
  return oneLine(sanitizeName(s), MAX_NAME_CODEPOINTS);
}
