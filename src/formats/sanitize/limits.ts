/**
 * The marker a capped sanitiser appends when it cuts text (docs/spec/formats.md §1.4). 11 code
 * points and 11 UTF-8 bytes, counted INSIDE the cap, so a value sanitised at its cap still passes
 * the wire cap.
 *
 * @example truncateRunes("a".repeat(300), 200) === "a".repeat(189) + TRUNCATION_MARKER
 */
export const TRUNCATION_MARKER = "[truncated]";

/** Cap of `sanitizeBody`, in UTF-8 bytes (docs/spec/protocol.md §7 `max_body_bytes`). */
export const MAX_BODY_BYTES = 16_384;

/** Cap of `sanitizeSummary`, in code points (docs/spec/protocol.md §7 `max_summary_chars`). */
export const MAX_SUMMARY_CODEPOINTS = 200;

/** Cap of `sanitizeName`, in code points (session and team names, docs/spec/protocol.md §7). */
export const MAX_NAME_CODEPOINTS = 64;

/** Cap of `sanitizeLabel`, in code points (`max_human_label_chars`). */
export const MAX_LABEL_CODEPOINTS = 128;

/** Cap of `sanitizeDescription`, in code points (`max_description_chars`). */
export const MAX_DESCRIPTION_CODEPOINTS = 256;

/** Cap of `sanitizeModel`, in code points (`max_model_chars`). */
export const MAX_MODEL_CODEPOINTS = 128;

/** Cap of `sanitizeAttribute`, in code points; no marker is appended (it would spend 11 of 64). */
export const MAX_ATTRIBUTE_CODEPOINTS = 64;
