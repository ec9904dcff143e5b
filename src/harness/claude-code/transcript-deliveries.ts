/**
 * What one transcript line says about inbox posts (docs/spec/claude-code.md §3.4), as Claude Code
 * 2.1.334 writes it:
 *
 * - `conversation`: the post is in the model's conversation — a main-chain `user` entry whose
 *   `origin.kind` is `peer` (a post taken while idle), an `attachment` of type `queued_command`
 *   with `origin.kind` `peer` (a post taken between tool calls of a busy turn), or an
 *   `attachment` of type `hook_additional_context` (a hook's `additionalContext`);
 * - `enqueued`: a `queue-operation` `enqueue` entry: Claude Code admitted the post into its queue;
 * - `dequeued`: a `queue-operation` `dequeue` or `remove` entry (the queue got one shorter);
 * - `held`: a `system` `informational` entry about a held peer message (Claude Code's dialog);
 *   `text` is that entry's content (it names the frame's `message-id` with its quotes removed);
 * - `permission_mode`: a `permission-mode` entry, the session's mode from then on.
 *
 * `tags` are the frame open-tag lines (`<brigade-message team="…` to the end of that line) found
 * in the entry's text. A sender's body cannot hold such a line: the sanitiser neutralises every
 * `<brigade-message` in sender text, so only a frame Brigade built starts a line this way.
 */
export type TranscriptDeliveryLine =
  | { readonly kind: "conversation" | "enqueued"; readonly tags: readonly string[] }
  | { readonly kind: "dequeued" }
  | { readonly kind: "held"; readonly text: string }
  | { readonly kind: "permission_mode"; readonly mode: string };

const FRAME_MARK = "<brigade-message";
const OPEN_TAG = /(?:^|\n)(<brigade-message team="[^\n]*>)(?=\n|$)/g;
const HELD_PREFIX = "Held peer message";

/**
 * The frame open-tag lines in `text`, in order: every line that starts `<brigade-message team="`
 * and ends with `>`.
 *
 * @example frameOpenTags('x\n<brigade-message team="core" message-id="m-1">\nbody') // ['<brigade-message team="core" message-id="m-1">']
 */
export function frameOpenTags(text: string): string[] {
  return frameOpenTagSpans(text).map((span) => span.tag);
}

/**
 * Where each frame open-tag line of `text` starts (UTF-16 offset of its `<`), with the tag, in
 * order: the lines {@link frameOpenTags} returns.
 *
 * @example frameOpenTagSpans('x\n<brigade-message team="core">\nbody')[0]?.start === 2
 */
export function frameOpenTagSpans(
  text: string,
): { readonly tag: string; readonly start: number }[] {
  const spans: { tag: string; start: number }[] = [];
  for (const match of text.matchAll(OPEN_TAG)) {
    const tag = match[1];
    if (tag === undefined) continue;
    spans.push({ tag, start: match.index + match[0].length - tag.length });
  }
  return spans;
}

/**
 * Reads one transcript line for what it says about inbox posts ({@link TranscriptDeliveryLine}).
 * Lines that mention neither a frame nor a queue operation nor a permission mode are never
 * JSON-parsed; sub-agent entries (`isSidechain: true`), tool results and anything else give
 * `undefined`. An undocumented, version-dependent format: an unknown shape is simply not
 * recognised. Never throws.
 *
 * @example parseTranscriptDeliveryLine('{"type":"queue-operation","operation":"dequeue"}') // { kind: "dequeued" }
 */
export function parseTranscriptDeliveryLine(line: string): TranscriptDeliveryLine | undefined {
  const framed = line.includes(FRAME_MARK);
  if (!framed && !line.includes('"queue-operation"') && !line.includes('"permission-mode"')) {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.isSidechain === true) return undefined;
  switch (value.type) {
    case "queue-operation":
      if (value.operation === "dequeue" || value.operation === "remove")
        return { kind: "dequeued" };
      if (value.operation !== "enqueue") return undefined;
      return { kind: "enqueued", tags: tagsOf(value.content) };
    case "permission-mode":
      return typeof value.permissionMode === "string"
        ? { kind: "permission_mode", mode: value.permissionMode }
        : undefined;
    case "user":
      return framed ? userEntry(value) : undefined;
    case "attachment":
      return framed ? attachmentEntry(value.attachment) : undefined;
    case "system":
      return framed &&
        value.subtype === "informational" &&
        typeof value.content === "string" &&
        value.content.startsWith(HELD_PREFIX)
        ? { kind: "held", text: value.content }
        : undefined;
    default:
      return undefined;
  }
}

function userEntry(entry: Record<string, unknown>): TranscriptDeliveryLine | undefined {
  if (!isRecord(entry.origin) || entry.origin.kind !== "peer") return undefined;
  if (!isRecord(entry.message)) return undefined;
  const content = entry.message.content;
  if (typeof content === "string") return conversation(frameOpenTags(content));
  if (!Array.isArray(content)) return undefined;
  const tags: string[] = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "text") tags.push(...tagsOf(block.text));
  }
  return conversation(tags);
}

function attachmentEntry(attachment: unknown): TranscriptDeliveryLine | undefined {
  if (!isRecord(attachment)) return undefined;
  if (attachment.type === "queued_command") {
    if (!isRecord(attachment.origin) || attachment.origin.kind !== "peer") return undefined;
    return conversation(tagsOf(attachment.prompt));
  }
  if (attachment.type === "hook_additional_context" && Array.isArray(attachment.content)) {
    return conversation(attachment.content.flatMap((part) => tagsOf(part)));
  }
  return undefined;
}

function conversation(tags: string[]): TranscriptDeliveryLine | undefined {
  return tags.length === 0 ? undefined : { kind: "conversation", tags };
}

function tagsOf(text: unknown): string[] {
  return typeof text === "string" ? frameOpenTags(text) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
