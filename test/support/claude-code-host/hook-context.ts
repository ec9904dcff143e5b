/**
 * How a SessionStart or UserPromptSubmit hook's plain stdout reaches the model
 * (docs/spec/claude-code.md §0, §0.7), measured on the real Claude Code 2.1.334.
 */

/** The two carriers the real client uses. */
export type HookContextForm =
  /** A `role: "system"` message after the first user message: what 2.1.3xx sends. */
  | "system-message"
  /** Inside a `<system-reminder>` block of a user message: the form kept for APIs that refuse system messages. */
  | "system-reminder";

/**
 * The text the model reads for one hook's trimmed stdout `text`: `<label> hook success: <text>`,
 * where the label is `SessionStart:<source>` or `UserPromptSubmit`; in the `system-reminder` form
 * that line sits inside `<system-reminder>\n…\n</system-reminder>`. The stdout itself is not
 * escaped (a `<` stays a `<`). The first prompt's system message also carries Claude Code's own
 * environment paragraphs after this text; they are not modelled.
 *
 * @example hookContextText("SessionStart", "startup", "Brigade: hi", "system-message") === "SessionStart:startup hook success: Brigade: hi"
 */
export function hookContextText(
  event: string,
  source: string | undefined,
  text: string,
  form: HookContextForm,
): string {
  const label = event === "SessionStart" ? `${event}:${source ?? "startup"}` : event;
  const line = `${label} hook success: ${text}`;
  return form === "system-message" ? line : `<system-reminder>\n${line}\n</system-reminder>`;
}
