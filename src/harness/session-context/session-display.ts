import { oneLine, sanitizeAttribute, sanitizeId } from "../../formats/sanitize/index.ts";

const TABS = /\t/g;

/** What the session CLI prints for an empty remote text field. */
export const EMPTY_FIELD = "-";

/**
 * A remote name (session, team, sender) as the session CLI prints it: `sanitizeAttribute`
 * (docs/spec/formats.md §1.5: R1–R5, no `"` `<` `>` newline, first 64 code points), then each tab
 * becomes one space so a name cannot break a column; `-` when nothing is left.
 *
 * @example displayName("api\t<worker>") === "api worker"
 */
export function displayName(name: string): string {
  const out = sanitizeAttribute(name).replace(TABS, " ").trim();
  return out === "" ? EMPTY_FIELD : out;
}

/**
 * A remote id (session, message, team ref) as the session CLI prints it: `sanitizeId`, **in
 * full** (a shortened id addresses nothing), `-` when nothing is left.
 *
 * @example displayId("s-51d0") === "s-51d0"
 */
export function displayId(id: string): string {
  const out = sanitizeId(id).replace(TABS, " ");
  return out === "" ? EMPTY_FIELD : out;
}

/**
 * Remote free text (a label, a summary) on one line: `oneLine(text, maxCodePoints)` (R1–R5,
 * newlines and tabs folded to spaces, trimmed, capped); `-` when nothing is left.
 *
 * @example displayText("Schema\nbumped", 200) === "Schema bumped"
 */
export function displayText(text: string | null | undefined, maxCodePoints: number): string {
  if (text === undefined || text === null) return EMPTY_FIELD;
  const out = oneLine(text, maxCodePoints);
  return out === "" ? EMPTY_FIELD : out;
}
