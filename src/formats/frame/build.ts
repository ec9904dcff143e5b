import { type Attachment, composeManifest, neutraliseManifestLines } from "../attachments/index.ts";
import {
  neutraliseTags,
  sanitizeAttribute,
  sanitizeBody,
  sanitizeId,
  sanitizeSummary,
} from "../sanitize/index.ts";
import { firstCodePoints, utf8ByteLength } from "../text/index.ts";
import { clauseOf, type Instruction } from "./instruction.ts";
import { personPreambleLine, preambleLine } from "./preamble.ts";
import { formatSentAt } from "./sent-at.ts";
import {
  CLOSE_TAG,
  EXCERPT_CHARS,
  IN_REPLY_TO_ATTRIBUTE,
  MAX_IN_REPLY_TO_BYTES,
  OPEN_TAG,
  PERSON_LABEL_SUFFIX,
  SEPARATOR,
  SUMMARY_PREFIX,
  UNVERIFIED_SUFFIX,
} from "./tokens.ts";

/**
 * The subset of the protocol's `MessageEnvelope` (docs/spec/protocol.md §4.6, snake_case wire
 * members) that the frame reads. The protocol type is assignable to it; nothing else of the
 * envelope matters.
 */
export interface FrameEnvelope {
  readonly message_id: string;
  readonly sender: {
    readonly principal_ref: string;
    readonly human_label?: string | null | undefined;
    readonly session_id: string;
    readonly session_name: string;
    /** **[ours]** `"person"` for a person's message (docs/12-frame.md); anything else: a session's. */
    readonly kind?: string | undefined;
  };
  readonly summary?: string | null | undefined;
  readonly body: string;
  readonly reply_to?: string | null | undefined;
  readonly hop_count: number;
  readonly created_at: string;
}

const NEWLINE_ALL = /\n/g;

function attribute(name: string, value: string): string {
  return ` ${name}="${value}"`;
}

/** `hops`: the decimal hop count; anything but a non-negative safe integer prints as `0`. */
function formatHops(hopCount: number): string {
  return Number.isSafeInteger(hopCount) && hopCount >= 0 ? String(hopCount) : "0";
}

/**
 * Renders the `<brigade-message>` frame of one envelope (docs/spec/formats.md §2.2), `\n` line
 * ends, no trailing newline. `teamName` is the human team name (the envelope carries only
 * `team_ref`); `instruction` selects the clause and is NOT validated here (an unknown level renders
 * as open).
 *
 * Every value is sanitised: team, from-name, from-label by `sanitizeAttribute` (64 cp, no
 * marker); the three ids by `sanitizeId`, in full; the summary by `sanitizeSummary` or, when
 * empty, the first 80 code points of the sanitised body; the body by `sanitizeBody`. Then the
 * sanitiser's tag rule (`neutraliseTags`) runs once more over everything between the frame's own
 * open-tag name and its close tag, so no family tag can form across a line break or separator
 * the frame joins values with (a summary ending in `<` above a body starting
 * `/brigade-message>`): that `<` becomes `&lt;`, so the summary line may grow by 3 code points.
 * Text that forms no such tag is left byte for byte. So no sender text, in any field or across
 * fields, can open, close or forge a frame.
 *
 * **[ours]** The summary and the body also pass through `neutraliseManifestLines`, so no line the
 * sender wrote names a file as an attachment manifest line does (docs/15-attachments.md "Forged
 * manifest lines"). `files`, the files the receiver itself downloaded and verified for this
 * message (0..10), become the manifest block after the body (`composeManifest`: exactly
 * docs/spec/formats.md §4.3 for `/workspace/uploads/` paths), and the preamble then ends with
 * `attachmentsSentence`. Without files (or with `[]`) the frame is the spec's layout.
 *
 * **[ours]** A person's message (`sender.kind` `person`, docs/12-frame.md "A person's message")
 * keeps the same attributes in the same order, with `reply-to-session-id` and `from-name` empty,
 * `from-label` ending in `PERSON_LABEL_SUFFIX`, and the person's preamble (no reply command).
 *
 * @throws {AttachmentsError} only for a bad `files` list (more than 10, a relative path, a
 *   duplicate); without files it never throws.
 * @example build(e, "core", { level: "open", custom: "" }).startsWith('<brigade-message team="core"')
 */
export function build(
  envelope: FrameEnvelope,
  teamName: string,
  instruction: Instruction,
  files: readonly Attachment[] = [],
): string {
  const messageId = sanitizeId(envelope.message_id);
  // A person's message comes from no session: nothing to reply to, no session name.
  const person = envelope.sender.kind === "person";
  const sessionId = person ? "" : sanitizeId(envelope.sender.session_id);
  const label = sanitizeAttribute(envelope.sender.human_label ?? "");
  const suffix = person ? PERSON_LABEL_SUFFIX : UNVERIFIED_SUFFIX;
  let attributes =
    attribute("team", sanitizeAttribute(teamName)) +
    attribute("message-id", messageId) +
    attribute("reply-to-session-id", sessionId) +
    attribute("from-principal", sanitizeId(envelope.sender.principal_ref)) +
    attribute("from-name", person ? "" : sanitizeAttribute(envelope.sender.session_name)) +
    attribute("from-label", label === "" ? suffix.slice(1) : label + suffix) +
    attribute("hops", formatHops(envelope.hop_count)) +
    attribute("sent-at", formatSentAt(envelope.created_at));
  if (typeof envelope.reply_to === "string") {
    const inReplyTo = sanitizeId(envelope.reply_to);
    if (inReplyTo !== "" && utf8ByteLength(inReplyTo) <= MAX_IN_REPLY_TO_BYTES) {
      attributes += attribute(IN_REPLY_TO_ATTRIBUTE, inReplyTo);
    }
  }
  const body = neutraliseManifestLines(sanitizeBody(envelope.body));
  let summary = neutraliseManifestLines(sanitizeSummary(envelope.summary ?? ""));
  if (summary === "") summary = firstCodePoints(body, EXCERPT_CHARS);
  // The manifest's final LF is the one before the close tag: the block appears exactly as
  // `compose` wrote it, and its last line is the frame's last line before the close tag.
  const below = files.length === 0 ? body : composeManifest(body, files).slice(0, -1);
  const clause = clauseOf(instruction);
  const preamble = person
    ? personPreambleLine(clause, files.length)
    : preambleLine(clause, sessionId, messageId, files.length);
  const inside = `${attributes}>\n${preamble}\n${SEPARATOR}\n${SUMMARY_PREFIX}${summary.replace(NEWLINE_ALL, " ")}\n${below}`;
  // Each value was neutralised on its own, so the only family tag left to find is one that a
  // line break or separator of the frame completes. The sanitiser's own rule over the assembled
  // text finds it, whatever spellings that rule recognises. The open tag's name stays outside
  // the scan; the close tag begins with `<`, which nothing a body ends with can reach across.
  return `${OPEN_TAG}${neutraliseTags(inside)}\n${CLOSE_TAG}`;
}
