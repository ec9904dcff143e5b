/**
 * The five frame tag families of formats.md §1.2, a closed list: widening it is a design change.
 * Compared under Unicode simple case folding, so `ſ` (U+017F) matches `s`.
 *
 * @example FRAME_TAG_FAMILIES.includes("system-reminder") === true
 */
export const FRAME_TAG_FAMILIES: readonly [
  "brigade-message",
  "cross-session-message",
  "teammate-message",
  "channel",
  "system-reminder",
] = ["brigade-message", "cross-session-message", "teammate-message", "channel", "system-reminder"];

/** What replaces a `<` that starts a family tag. */
export const NEUTRALISED_LT = "&lt;";

// The whitespace of GO_SPACE that survives R3 (U+000B-D and U+0085 are Cc and already gone).
const WS = "[\\t\\n \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]*";
// Sticky, `iu`: JavaScript's `iu` canonicalisation IS Unicode simple case folding, which is
// exactly the comparison §1.2 asks for (U+017F and U+212A fold, U+0130 and U+0131 do not).
const AFTER_LT = new RegExp(`${WS}(?:/${WS})?(?:${FRAME_TAG_FAMILIES.join("|")})`, "iuy");

/**
 * Rule R5 (formats.md §1.2): every `<` followed by optional whitespace, at most one `/`, optional
 * whitespace and one of {@link FRAME_TAG_FAMILIES} (prefix match, no boundary) becomes `&lt;`;
 * nothing else changes. Expects text that already passed R1–R4. Scans only at `<` positions.
 *
 * @example neutraliseTags("<<system-reminder>") === "<&lt;system-reminder>"
 */
export function neutraliseTags(s: string): string {
  let lt = s.indexOf("<");
  if (lt === -1) return s;
  let out = "";
  let copied = 0;
  while (lt !== -1) {
    AFTER_LT.lastIndex = lt + 1;
    if (AFTER_LT.test(s)) {
      out += s.slice(copied, lt) + NEUTRALISED_LT;
      copied = lt + 1;
    }
    lt = s.indexOf("<", lt + 1);
  }
  return copied === 0 ? s : out + s.slice(copied);
}
