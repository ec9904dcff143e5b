import {
  CLOSE_TAG,
  IN_REPLY_TO_ATTRIBUTE,
  OPEN_TAG,
  SEPARATOR,
  SUMMARY_PREFIX,
  WRAPPER_OPEN,
} from "./tokens.ts";

/**
 * Why {@link parse} failed: no open tag at all, or a tag whose surroundings are not the shape
 * `build` writes.
 *
 * @example FRAME_PARSE_REASONS.includes("malformed") === true
 */
export const FRAME_PARSE_REASONS: readonly ["no_frame", "malformed"] = ["no_frame", "malformed"];

/** A {@link parse} failure reason. */
export type FrameParseReason = (typeof FRAME_PARSE_REASONS)[number];

/**
 * The detail token of a {@link parse} failure (docs/spec/formats.md §2.8, plus `no_open_tag` for
 * `no_frame`). Details never contain input text.
 *
 * @example FRAME_PARSE_DETAILS.includes("tag_line") === true
 */
export const FRAME_PARSE_DETAILS = [
  "no_open_tag",
  "tag_unterminated",
  "attribute_name",
  "attribute_value",
  "attribute_unterminated",
  "attribute_repeated",
  "attribute_separator",
  "tag_line",
  "no_close_tag",
  "empty_frame",
  "close_not_alone",
  "no_separator",
  "no_summary_line",
  "no_summary_prefix",
] as const;

/** A {@link parse} failure detail. */
export type FrameParseDetail = (typeof FRAME_PARSE_DETAILS)[number];

/** One frame as {@link parse} reads it. Absent typed attributes are `""`. */
export interface ParsedFrame {
  /** Every `name="value"` pair of the tag line, values as written (not unescaped). */
  readonly attributes: Readonly<Record<string, string>>;
  readonly team: string;
  readonly messageId: string;
  readonly replyToSessionId: string;
  readonly fromPrincipal: string;
  readonly fromName: string;
  readonly fromLabel: string;
  readonly hops: string;
  readonly sentAt: string;
  readonly inReplyTo: string;
  /** Brigade's text between the tag line and the separator. */
  readonly preamble: string;
  /** The summary line after `SUMMARY_PREFIX`. */
  readonly summary: string;
  /** Everything between the summary line and the close tag's line, byte for byte. */
  readonly body: string;
  /** The frame itself, open tag through close tag, byte for byte (the inner frame if wrapped). */
  readonly frame: string;
  /** Whether a `<cross-session-message` preceded the frame. */
  readonly wrapped: boolean;
  /** That wrapper's `from-name`; `""` when absent or unparsable. */
  readonly wrapperFromName: string;
}

/** Result of {@link parse}. */
export type FrameParseResult =
  | { readonly ok: true; readonly frame: ParsedFrame }
  | { readonly ok: false; readonly reason: FrameParseReason; readonly detail: FrameParseDetail };

type AttributeResult =
  | { readonly ok: true; readonly attributes: Map<string, string> }
  | { readonly ok: false; readonly detail: FrameParseDetail };

const NAME = /[A-Za-z][A-Za-z0-9-]*/y;

/** Step 3 of docs/spec/formats.md §2.8: `name="value"` pairs separated by spaces or tabs. */
function parseAttributes(text: string): AttributeResult {
  const attributes = new Map<string, string>();
  let i = 0;
  const n = text.length;
  for (;;) {
    while (i < n && (text[i] === " " || text[i] === "\t")) i++;
    if (i >= n) return { ok: true, attributes };
    NAME.lastIndex = i;
    const name = NAME.exec(text);
    if (name === null) return { ok: false, detail: "attribute_name" };
    i += name[0].length;
    if (text[i] !== "=" || text[i + 1] !== '"') return { ok: false, detail: "attribute_value" };
    i += 2;
    const end = text.indexOf('"', i);
    if (end === -1) return { ok: false, detail: "attribute_unterminated" };
    if (attributes.has(name[0])) return { ok: false, detail: "attribute_repeated" };
    attributes.set(name[0], text.slice(i, end));
    i = end + 1;
    if (i < n && text[i] !== " " && text[i] !== "\t") {
      return { ok: false, detail: "attribute_separator" };
    }
  }
}

/** The first `<brigade-message` followed by end of text, space, `>`, `\n` or `\t`; or -1. */
function findOpenTag(text: string): number {
  for (let at = text.indexOf(OPEN_TAG); at !== -1; at = text.indexOf(OPEN_TAG, at + 1)) {
    const next = text[at + OPEN_TAG.length];
    if (next === undefined || next === " " || next === ">" || next === "\n" || next === "\t") {
      return at;
    }
  }
  return -1;
}

function wrapperFromNameOf(before: string): { wrapped: boolean; name: string } {
  const at = before.indexOf(WRAPPER_OPEN);
  if (at === -1) return { wrapped: false, name: "" };
  const start = at + WRAPPER_OPEN.length;
  const end = before.indexOf(">", start);
  if (end === -1) return { wrapped: true, name: "" };
  const parsed = parseAttributes(before.slice(start, end));
  return { wrapped: true, name: parsed.ok ? (parsed.attributes.get("from-name") ?? "") : "" };
}

function malformed(detail: FrameParseDetail): FrameParseResult {
  return { ok: false, reason: "malformed", detail };
}

const SEPARATOR_LINE = `${SEPARATOR}\n`;
const SEPARATOR_SPLIT = `\n${SEPARATOR}\n`;
const CLOSE_LINE = `\n${CLOSE_TAG}`;

/**
 * Reads one frame out of `text` (docs/spec/formats.md §2.8), the reference consumer. Never throws.
 * Finds the FIRST real open tag, reads the tag line's attributes up to its first `>`, takes the
 * LAST `\n</brigade-message>` as the close, splits at the first separator line, and reads the
 * summary line. Text before the tag (a wrapper) and after the close is ignored, except that a
 * wrapper's `from-name` is reported. Failures: `no_frame` / `malformed` with a detail token.
 *
 * @example parse("hello") → { ok: false, reason: "no_frame", detail: "no_open_tag" }
 */
export function parse(text: string): FrameParseResult {
  const open = findOpenTag(text);
  if (open === -1) return { ok: false, reason: "no_frame", detail: "no_open_tag" };
  const attrStart = open + OPEN_TAG.length;
  const tagEnd = text.indexOf(">", attrStart);
  if (tagEnd === -1) return malformed("tag_unterminated");
  const parsed = parseAttributes(text.slice(attrStart, tagEnd));
  if (!parsed.ok) return malformed(parsed.detail);
  if (text[tagEnd + 1] !== "\n") return malformed("tag_line");

  // `rest` starts at the tag line's own newline, so a close tag right after it is "empty".
  const restStart = tagEnd + 1;
  const close = text.lastIndexOf(CLOSE_LINE);
  if (close < restStart) return malformed("no_close_tag");
  if (close === restStart) return malformed("empty_frame");
  const closeEnd = close + CLOSE_LINE.length;
  if (closeEnd < text.length && text[closeEnd] !== "\n") return malformed("close_not_alone");

  const inside = text.slice(restStart + 1, close);
  let preamble: string;
  let below: string;
  if (inside.startsWith(SEPARATOR_LINE)) {
    preamble = "";
    below = inside.slice(SEPARATOR_LINE.length);
  } else {
    const split = inside.indexOf(SEPARATOR_SPLIT);
    if (split === -1) return malformed("no_separator");
    preamble = inside.slice(0, split);
    below = inside.slice(split + SEPARATOR_SPLIT.length);
  }
  const lineEnd = below.indexOf("\n");
  if (lineEnd === -1) return malformed("no_summary_line");
  const summaryLine = below.slice(0, lineEnd);
  if (!summaryLine.startsWith(SUMMARY_PREFIX)) return malformed("no_summary_prefix");

  const attributes: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of parsed.attributes) attributes[name] = value;
  const get = (name: string): string => parsed.attributes.get(name) ?? "";
  const wrapper = wrapperFromNameOf(text.slice(0, open));
  return {
    ok: true,
    frame: {
      attributes,
      team: get("team"),
      messageId: get("message-id"),
      replyToSessionId: get("reply-to-session-id"),
      fromPrincipal: get("from-principal"),
      fromName: get("from-name"),
      fromLabel: get("from-label"),
      hops: get("hops"),
      sentAt: get("sent-at"),
      inReplyTo: get(IN_REPLY_TO_ATTRIBUTE),
      preamble,
      summary: summaryLine.slice(SUMMARY_PREFIX.length),
      body: below.slice(lineEnd + 1),
      frame: text.slice(open, closeEnd),
      wrapped: wrapper.wrapped,
      wrapperFromName: wrapper.name,
    },
  };
}
