import { isWellFormed, utf8ByteLength } from "../../formats/text/index.ts";
import type { MessageAttachment } from "../../protocol/index.ts";
import { INBOUND_LIMITS } from "./inbound-limits.ts";
import type { InboundMessage } from "./inbound-message.ts";
import { isSafeId } from "./safe-id.ts";

/**
 * Why step 1 (loose validation, docs/spec/claude-code.md §7.5) rejected a candidate: fixed tokens
 * for the warn log, never the offending value. `*_invalid` = missing, not a string or empty;
 * `*_unsafe` = outside `[A-Za-z0-9_-]{1,64}` (ours: ids are printed into a shell command).
 *
 * @example INBOUND_REJECTION_REASONS.includes("body_too_long") === true
 */
export const INBOUND_REJECTION_REASONS = [
  "not_object",
  "message_id_invalid",
  "message_id_not_utf8",
  "message_id_too_long",
  "message_id_unsafe",
  "sender_invalid",
  "sender_session_id_invalid",
  "sender_session_id_unsafe",
  "sender_principal_invalid",
  "sender_principal_too_long",
  "body_invalid",
  "body_not_utf8",
  "body_too_long",
  "attachments_invalid",
] as const;

/** One step-1 rejection reason. */
export type InboundRejectionReason = (typeof INBOUND_REJECTION_REASONS)[number];

/** Result of {@link looseValidate}. */
export type LooseValidationResult =
  | { readonly ok: true; readonly message: InboundMessage }
  | { readonly ok: false; readonly reason: InboundRejectionReason };

type Loose = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

function rejected(reason: InboundRejectionReason): LooseValidationResult {
  return { ok: false, reason };
}

/**
 * Step 1 of the inbound pipeline: checks only what framing needs — `message_id` non-empty
 * UTF-8 ≤ 200 bytes and in the safe id set; `sender.session_id` non-empty and in the safe id set;
 * `sender.principal_ref` non-empty UTF-8 ≤ 200 bytes (ours: the open tag carries it in full); body non-empty UTF-8 ≤ 16,384 bytes. Nothing else is checked:
 * the other members are coerced to safe types (`session_name` not a string → `""`, `summary` /
 * `human_label` not a string → absent, `reply_to` not a string → `null`, `hop_count` not a number
 * → `0`, `created_at` not a string → `""`), so `build` never sees a wrong type. `attachments`
 * (capability `message.attachments`), when present and not `[]`, must be 1..10 distinct
 * `{sha256, size, name}` with the wire's shapes (else `attachments_invalid`: the receiver could
 * not fetch them, and a message is never delivered without its files). A JavaScript string
 * is "UTF-8" when it holds no lone surrogate. Never throws.
 *
 * @example looseValidate({ message_id: "m-1", sender: { session_id: "s-1", principal_ref: "p-1", session_name: "api" }, body: "hi" }).ok === true
 */
export function looseValidate(candidate: unknown): LooseValidationResult {
  if (!isObject(candidate)) return rejected("not_object");
  const id = candidate.message_id;
  if (!nonEmptyString(id)) return rejected("message_id_invalid");
  if (!isWellFormed(id)) return rejected("message_id_not_utf8");
  if (utf8ByteLength(id) > INBOUND_LIMITS.maxMessageIdBytes) return rejected("message_id_too_long");
  if (!isSafeId(id)) return rejected("message_id_unsafe");
  const sender = candidate.sender;
  if (!isObject(sender)) return rejected("sender_invalid");
  if (!nonEmptyString(sender.session_id)) return rejected("sender_session_id_invalid");
  if (!isSafeId(sender.session_id)) return rejected("sender_session_id_unsafe");
  if (!nonEmptyString(sender.principal_ref)) return rejected("sender_principal_invalid");
  // [ours] The frame's open tag carries it in full: a megabyte "id" would make a megabyte tag.
  if (!isWellFormed(sender.principal_ref)) return rejected("sender_principal_invalid");
  if (utf8ByteLength(sender.principal_ref) > INBOUND_LIMITS.maxPrincipalRefBytes) {
    return rejected("sender_principal_too_long");
  }
  const body = candidate.body;
  if (!nonEmptyString(body)) return rejected("body_invalid");
  if (!isWellFormed(body)) return rejected("body_not_utf8");
  if (utf8ByteLength(body) > INBOUND_LIMITS.maxBodyBytes) return rejected("body_too_long");
  const attachments = looseAttachments(candidate.attachments);
  if (attachments === null) return rejected("attachments_invalid");
  const message: InboundMessage = {
    message_id: id,
    sender: {
      principal_ref: sender.principal_ref,
      session_id: sender.session_id,
      session_name: typeof sender.session_name === "string" ? sender.session_name : "",
      ...(typeof sender.human_label === "string" ? { human_label: sender.human_label } : {}),
      // Only the exact mark counts; anything else is a session's message, framed as one.
      ...(sender.kind === "person" ? { kind: "person" as const } : {}),
    },
    ...(typeof candidate.summary === "string" ? { summary: candidate.summary } : {}),
    body,
    reply_to: typeof candidate.reply_to === "string" ? candidate.reply_to : null,
    hop_count: typeof candidate.hop_count === "number" ? candidate.hop_count : 0,
    created_at: typeof candidate.created_at === "string" ? candidate.created_at : "",
    ...(attachments.length === 0 ? {} : { attachments }),
  };
  return { ok: true, message };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The envelope's `attachments`: `[]` when absent or empty, `null` when malformed. */
function looseAttachments(value: unknown): MessageAttachment[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return null;
  if (value.length > INBOUND_LIMITS.maxAttachments) return null;
  const out: MessageAttachment[] = [];
  const seen = new Set<string>();
  for (const item of value) {
    if (!isObject(item)) return null;
    const { sha256, size, name } = item;
    if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256) || seen.has(sha256)) return null;
    if (!Number.isSafeInteger(size) || (size as number) < 0) return null;
    if ((size as number) > INBOUND_LIMITS.maxAttachmentBytes) return null;
    // The name is display text: the receiver cleans it before it names a file.
    if (typeof name !== "string" || name === "" || !isWellFormed(name)) return null;
    seen.add(sha256);
    out.push({ sha256, size: size as number, name });
  }
  return out;
}
