import { frameOpenTagSpans } from "./transcript-deliveries.ts";

const FRAME_MARK = "<brigade-message";
const CLOSE_TAG = "\n</brigade-message>";

/**
 * Every whole frame in `text`, in order: from the start of each frame open-tag line through the
 * first `</brigade-message>` line after it. A frame whose close tag is missing (text cut short, as
 * Claude Code's preview of an over-long output cuts it) is not returned. A sender's body cannot
 * open or close a frame (the sanitiser neutralises both tags in sender text), so only a frame
 * Brigade built is found, and only whole.
 *
 * @example wholeFrames('a\n<brigade-message team="core">\nbody\n</brigade-message>\nb') // ['<brigade-message team="core">\nbody\n</brigade-message>']
 */
export function wholeFrames(text: string): string[] {
  const frames: string[] = [];
  for (const { start } of frameOpenTagSpans(text)) {
    const close = text.indexOf(CLOSE_TAG, start);
    if (close < 0) continue;
    frames.push(text.slice(start, close + CLOSE_TAG.length));
  }
  return frames;
}

/**
 * The whole frames ({@link wholeFrames}) one transcript line shows the model had in its
 * conversation through a hook or a tool, as Claude Code 2.1.334 records them
 * (docs/spec/claude-code.md §1.3, §3.4): the `content` of a `hook_success` attachment of a
 * `UserPromptSubmit` hook (what the model read of the hook's stdout: whole, or Claude Code's
 * preview when it was over its limit), the `content` of a `hook_additional_context` attachment
 * (a hook's `additionalContext`, likewise), and the `tool_result` blocks of a main-chain `user`
 * entry (a tool's output as the model read it, e.g. `brigade inbox show`). The raw `stdout` Claude
 * Code also records is never read: it is what the hook printed, not what the model was shown.
 * Sub-agent entries (`isSidechain: true`), other hooks' events and any other shape give `[]`.
 * Lines without `<brigade-message` are never JSON-parsed. Never throws.
 *
 * @example shownFrames(line).map(sha256Hex)
 */
export function shownFrames(line: string): string[] {
  if (!line.includes(FRAME_MARK)) return [];
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return [];
  }
  if (!isRecord(value) || value.isSidechain === true) return [];
  if (value.type === "attachment") return attachmentFrames(value.attachment);
  if (value.type === "user" && isRecord(value.message)) return toolResultFrames(value.message);
  return [];
}

function attachmentFrames(attachment: unknown): string[] {
  if (!isRecord(attachment)) return [];
  if (attachment.type === "hook_success" && attachment.hookEvent === "UserPromptSubmit") {
    return typeof attachment.content === "string" ? wholeFrames(attachment.content) : [];
  }
  if (attachment.type === "hook_additional_context" && Array.isArray(attachment.content)) {
    return attachment.content.flatMap((part) =>
      typeof part === "string" ? wholeFrames(part) : [],
    );
  }
  return [];
}

function toolResultFrames(message: Record<string, unknown>): string[] {
  if (!Array.isArray(message.content)) return [];
  const frames: string[] = [];
  for (const block of message.content) {
    if (!isRecord(block) || block.type !== "tool_result") continue;
    const content = block.content;
    if (typeof content === "string") frames.push(...wholeFrames(content));
    else if (Array.isArray(content)) {
      for (const part of content) {
        if (isRecord(part) && part.type === "text" && typeof part.text === "string") {
          frames.push(...wholeFrames(part.text));
        }
      }
    }
  }
  return frames;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
