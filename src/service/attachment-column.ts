import {
  ATTACHMENT_LIMITS,
  isAttachmentName,
  isSha256Hex,
  type MessageAttachment,
} from "../protocol/index.ts";

/**
 * The text a store keeps in a message's `attachments` column: JSON of `[{sha256, size, name}]`
 * in the sender's order, or `null` for a message that names none (absent or empty).
 *
 * @example attachmentsColumn([{ sha256, size: 4, name: "a.log" }]) // '[{"sha256":"…","size":4,"name":"a.log"}]'
 */
export function attachmentsColumn(
  attachments: readonly MessageAttachment[] | undefined,
): string | null {
  if (attachments === undefined || attachments.length === 0) return null;
  return JSON.stringify(attachments.map(({ sha256, size, name }) => ({ sha256, size, name })));
}

function isAttachment(value: unknown): value is MessageAttachment {
  if (typeof value !== "object" || value === null) return false;
  const { sha256, size, name } = value as Record<string, unknown>;
  return (
    isSha256Hex(sha256) &&
    typeof size === "number" &&
    Number.isSafeInteger(size) &&
    size >= 0 &&
    typeof name === "string" &&
    isAttachmentName(name)
  );
}

/**
 * The attachments of a stored `attachments` column ({@link attachmentsColumn}'s text), or
 * `undefined` for `null`, an empty list, or text that is not such a list (never written by us;
 * read as "none" rather than thrown, so one bad row cannot break an inbox). Never throws.
 *
 * @example attachmentsOfColumn(null) === undefined
 */
export function attachmentsOfColumn(text: unknown): MessageAttachment[] | undefined {
  if (typeof text !== "string") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  if (parsed.length > ATTACHMENT_LIMITS.max_attachments_per_message) return undefined;
  if (!parsed.every(isAttachment)) return undefined;
  return parsed.map(({ sha256, size, name }: MessageAttachment) => ({ sha256, size, name }));
}

/**
 * A row as a store reads it, with its `attachments` column turned into the list (or removed when
 * there is none), so a message without attachments has no such member at all.
 *
 * @example withAttachments({ message_id: "m-1", attachments: null }) // { message_id: "m-1" }
 */
export function withAttachments<T extends object>(row: T): T {
  const record = row as Record<string, unknown>;
  if (!Object.hasOwn(record, "attachments")) return row;
  const list = attachmentsOfColumn(record.attachments);
  if (list === undefined) delete record.attachments;
  else record.attachments = list;
  return row;
}
