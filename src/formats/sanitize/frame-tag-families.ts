/**
 * The five frame tag families of docs/spec/formats.md §1.2, a closed list: widening it is a design
 * change. Compared under Unicode simple case folding, so `ſ` (U+017F) matches `s`, and on the tag
 * reading of docs/11-sanitizer.md (look-alikes folded, invisible code points and marks skipped).
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
