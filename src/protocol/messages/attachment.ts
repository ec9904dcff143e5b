import { utf8ByteLength } from "../encoding/text-measure.ts";
import {
  expectObject,
  failField,
  fieldPath,
  member,
  requiredInteger,
  requiredString,
  type WireObject,
} from "../validation/field-rules.ts";

/**
 * The ceilings of the `message.attachments` capability **[ours]** (docs/20-protocol.md,
 * "Attachments"), advertised in `DescribeResult.attachments`: files per message (the manifest's
 * own maximum, docs/spec/formats.md §4.2), bytes per file and bytes per message. A server may be
 * configured lower (`brigade serve --limit`) and then refuses with its own value in
 * `details.limit`; it never accepts more.
 *
 * @example
 * ATTACHMENT_LIMITS.max_attachment_bytes === 26_214_400; // 25 MiB
 */
export const ATTACHMENT_LIMITS: {
  readonly max_attachments_per_message: 10;
  readonly max_attachment_bytes: 26_214_400;
  readonly max_message_attachment_bytes: 104_857_600;
} = Object.freeze({
  max_attachments_per_message: 10,
  max_attachment_bytes: 26_214_400,
  max_message_attachment_bytes: 104_857_600,
} as const);

/** `DescribeResult.attachments` **[ours]**: the {@link ATTACHMENT_LIMITS} an adapter enforces. */
export interface AttachmentLimits {
  max_attachments_per_message: number;
  max_attachment_bytes: number;
  max_message_attachment_bytes: number;
}

/** Longest attachment `name`, in UTF-8 bytes (a file name on every common file system). */
export const MAX_ATTACHMENT_NAME_BYTES = 255;

/**
 * One file a message names **[ours]**: the blob's SHA-256 (64 lowercase hex digits) and size in
 * bytes, uploaded before the send, and the name the sender gave it (display text, untrusted: a
 * receiver cleans it before it names a file).
 *
 * @example
 * const a: MessageAttachment = { sha256: "e3b0c442…b855", size: 0, name: "empty.log" };
 */
export interface MessageAttachment {
  sha256: string;
  size: number;
  name: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Whether `value` is a blob digest as the wire writes it: exactly 64 lowercase hex digits.
 *
 * @example
 * isSha256Hex("E3B0…") === false; // upper case is refused
 */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === "string" && SHA256_HEX.test(value);
}

/** A string member that must be a {@link isSha256Hex} digest (`invalid_value` otherwise). */
export function requiredSha256(o: WireObject, name: string, prefix: string): string {
  const value = requiredString(o, name, prefix);
  if (!isSha256Hex(value)) failField(fieldPath(prefix, name), "invalid_value");
  return value;
}

/**
 * Whether `name` is an acceptable attachment name: 1..255 UTF-8 bytes, no control character
 * (C0, DEL, C1) and no `/`. Anything else a name holds is cleaned by its receiver.
 *
 * @example
 * isAttachmentName("build.log") === true; isAttachmentName("a/b") === false;
 */
export function isAttachmentName(name: string): boolean {
  if (name.length === 0 || utf8ByteLength(name) > MAX_ATTACHMENT_NAME_BYTES) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2f) return false;
  }
  return true;
}

function readAttachment(element: unknown, path: string): MessageAttachment {
  const o = expectObject(element, path);
  const sha256 = requiredSha256(o, "sha256", path);
  const size = requiredInteger(o, "size", path, 0, ATTACHMENT_LIMITS.max_attachment_bytes);
  const name = requiredString(o, "name", path);
  if (!isAttachmentName(name)) failField(fieldPath(path, "name"), "invalid_value");
  return { sha256, size, name };
}

/**
 * Reads the optional `attachments` member of a `SendRequest` or `MessageEnvelope` **[ours]**:
 * absent or `[]` → `undefined`; else an array of at most 10 `{sha256, size, name}` objects
 * (more: `out_of_range` with `min` 0 and `max` 10), each digest named once (a repeat:
 * `invalid_value` on `attachments.<i>.sha256`), sizes 0..25 MiB each and 100 MiB together
 * (`too_long` on `attachments`, in bytes). Throws the validators' failure (use inside
 * `runValidation`); unknown members of an element are dropped.
 */
export function readAttachments(o: WireObject, prefix: string): MessageAttachment[] | undefined {
  const value = member(o, "attachments");
  if (value === undefined) return undefined;
  const path = fieldPath(prefix, "attachments");
  if (!Array.isArray(value)) failField(path, "invalid_value");
  if (value.length === 0) return undefined;
  if (value.length > ATTACHMENT_LIMITS.max_attachments_per_message) {
    failField(path, "out_of_range", {
      min: "0",
      max: String(ATTACHMENT_LIMITS.max_attachments_per_message),
    });
  }
  const out: MessageAttachment[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (let i = 0; i < value.length; i++) {
    const item = readAttachment(value[i], fieldPath(path, i));
    if (seen.has(item.sha256)) failField(fieldPath(fieldPath(path, i), "sha256"), "invalid_value");
    seen.add(item.sha256);
    total += item.size;
    out.push(item);
  }
  if (total > ATTACHMENT_LIMITS.max_message_attachment_bytes) {
    failField(path, "too_long", {
      limit: String(ATTACHMENT_LIMITS.max_message_attachment_bytes),
      actual: String(total),
      unit: "bytes",
    });
  }
  return out;
}
