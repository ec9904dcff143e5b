/**
 * What the model read in one Messages API request: every text, in order, with where it sat. A
 * test asserts on these texts byte for byte (a `<brigade-message>` frame, a hook's context line,
 * a tool result), whichever form Claude Code chose to carry them in.
 */

/** Where a text sat in the request. */
export type ModelTextPlace =
  /** The top-level `system` prompt. */
  | "system-prompt"
  /** A message with `role: "system"` (how 2.1.3xx carries a hook's plain stdout). */
  | "system"
  /** A text block (or string content) of a user message, `<system-reminder>` blocks included. */
  | "user"
  /** A text block of an assistant message. */
  | "assistant"
  /** The output of a tool call, as the model read it. */
  | "tool-result"
  /** A tool call the model made, as `name input-json`. */
  | "tool-use";

/** One text the model read. */
export interface ModelText {
  readonly place: ModelTextPlace;
  readonly text: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The texts of a content member: a string, or an array of blocks of which the text ones count. */
function contentTexts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) =>
    isRecord(block) && block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
}

function placeOf(role: unknown): ModelTextPlace | undefined {
  if (role === "system" || role === "user" || role === "assistant") return role;
  return undefined;
}

/**
 * Every text of a Messages API request body, in the order the model reads them: the system
 * prompt's blocks, then each message's blocks. Anything that is not a request body gives `[]`;
 * unknown block types are skipped. Never throws.
 */
export function modelTexts(body: unknown): ModelText[] {
  if (!isRecord(body)) return [];
  const out: ModelText[] = contentTexts(body.system).map((text) => ({
    place: "system-prompt",
    text,
  }));
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const place = placeOf(message.role);
    if (place === undefined) continue;
    const blocks = typeof message.content === "string" ? [message.content] : message.content;
    if (!Array.isArray(blocks)) continue;
    for (const block of blocks) {
      if (typeof block === "string") out.push({ place, text: block });
      else if (!isRecord(block)) continue;
      else if (block.type === "text" && typeof block.text === "string")
        out.push({ place, text: block.text });
      else if (block.type === "tool_result")
        for (const text of contentTexts(block.content)) out.push({ place: "tool-result", text });
      else if (block.type === "tool_use")
        out.push({
          place: "tool-use",
          text: `${String(block.name)} ${JSON.stringify(block.input)}`,
        });
    }
  }
  return out;
}

/** All texts of a request joined with blank lines: for `toContain` checks and failure output. */
export function modelTranscript(body: unknown): string {
  return modelTexts(body)
    .map((entry) => `[${entry.place}]\n${entry.text}`)
    .join("\n\n");
}
