import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  failField,
  hasMember,
  optionalString,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type MessageAttachment, readAttachments } from "./attachment.ts";

/**
 * Members a `SendRequest` may never carry, with any value, `null` included
 * (docs/spec/protocol.md §4.7): the adapter stamps them itself. Checked in this order, before every
 * other rule and before any network call.
 *
 * @example
 * SEND_REQUEST_FORBIDDEN_MEMBERS.includes("sender") === true;
 */
export const SEND_REQUEST_FORBIDDEN_MEMBERS = [
  "sender",
  "principal_ref",
  "human_label",
  "team_ref",
  "created_at",
  "hop_count",
] as const;

/** A member name a `SendRequest` may not carry. */
export type SendRequestForbiddenMember = (typeof SEND_REQUEST_FORBIDDEN_MEMBERS)[number];

/**
 * `message send` stdin (docs/spec/protocol.md §4.7). `sender_session_id` must be owned by the
 * caller's principal and the recipient a session of the caller's team (else the uniform
 * `not_found`); `reply_to` must be a message the sender session received. `reply_to` is not
 * nullable here.
 *
 * @example
 * const req: SendRequest = { sender_session_id: "s-2b8e", recipient_session_id: "s-51d0",
 *   body: "Column plan_tier is now NOT NULL.", summary: "Schema bumped" };
 */
export interface SendRequest {
  sender_session_id: string;
  recipient_session_id: string;
  /** 1..16,384 UTF-8 bytes. */
  body: string;
  /** ≤ 200 code points. */
  summary?: string;
  /** Non-empty message id. */
  reply_to?: string;
  /** 1..128 code points; scoped to the sender session (docs/spec/protocol.md §6.4). */
  idempotency_key?: string;
  /**
   * **[ours]** (capability `message.attachments`): 1..10 blobs the sender's principal uploaded,
   * each named once; absent (or `[]` on the wire) for none.
   */
  attachments?: MessageAttachment[];
}

/**
 * Validates a `message send` document (docs/spec/protocol.md §4.7, §6.16 a). The first forbidden
 * member present fails with `invalid_input`, `field` = that member, `reason = "forbidden_member"`,
 * before any other rule; then ids (non-empty), `body` (1..16,384 bytes), `summary` (≤ 200 cp),
 * `reply_to` (non-empty string, `null` refused), `idempotency_key` (≤ 128 cp), and **[ours]**
 * `attachments` (the rules of `readAttachments`). An empty `idempotency_key` or `attachments`
 * reads as absent. Unknown members are dropped.
 *
 * @example
 * validateSendRequest({ sender: null, body: "" });
 * // { ok: false, error: { code: "invalid_input", …, details: { field: "sender", reason: "forbidden_member" } } }
 */
export function validateSendRequest(value: unknown): ValidationResult<SendRequest> {
  return runValidation(() => {
    const o = expectObject(value, "");
    for (const name of SEND_REQUEST_FORBIDDEN_MEMBERS) {
      if (hasMember(o, name)) failField(name, "forbidden_member");
    }
    const id = { nonEmpty: true } as const;
    const out: SendRequest = {
      sender_session_id: requiredString(o, "sender_session_id", "", id),
      recipient_session_id: requiredString(o, "recipient_session_id", "", id),
      body: requiredString(o, "body", "", {
        nonEmpty: true,
        cap: PROTOCOL_LIMITS.max_body_bytes,
        unit: "bytes",
      }),
    };
    const summary = optionalString(o, "summary", "", { cap: PROTOCOL_LIMITS.max_summary_chars });
    if (summary !== undefined) out.summary = summary;
    const replyTo = optionalString(o, "reply_to", "", id);
    if (replyTo !== undefined) out.reply_to = replyTo;
    const key = optionalString(o, "idempotency_key", "", {
      cap: PROTOCOL_LIMITS.max_idempotency_key_chars,
    });
    if (key !== undefined && key !== "") out.idempotency_key = key;
    const attachments = readAttachments(o, "");
    if (attachments !== undefined) out.attachments = attachments;
    return out;
  });
}
