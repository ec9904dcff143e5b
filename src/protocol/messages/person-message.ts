import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  failField,
  hasMember,
  optionalString,
  requiredArray,
  requiredEnum,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type MessageStateRecord, readStateRecord } from "./message-state.ts";
import { SEND_REQUEST_FORBIDDEN_MEMBERS } from "./send-request.ts";

/**
 * Members a `message person-send` request may never carry **[ours]**: those of
 * `SEND_REQUEST_FORBIDDEN_MEMBERS` (the server stamps them), then `sender_session_id` (a person's
 * message comes from no session) and `reply_to` (a person receives nothing it could answer).
 * Checked in this order, before every other rule.
 *
 * @example PERSON_SEND_FORBIDDEN_MEMBERS.includes("sender_session_id") === true
 */
export const PERSON_SEND_FORBIDDEN_MEMBERS: readonly string[] = [
  ...SEND_REQUEST_FORBIDDEN_MEMBERS,
  "sender_session_id",
  "reply_to",
];

/**
 * `message person-send` stdin **[ours]** (capability `message.person`): a message the caller's
 * principal writes to a session of its team as a person, not as one of its sessions. The
 * recipient must be a session of the team whose owner is an active member (else the uniform
 * `not_found`).
 *
 * @example
 * const req: PersonSendRequest = { recipient_session_id: "s-51d0", body: "Please pause the deploy." };
 */
export interface PersonSendRequest {
  recipient_session_id: string;
  /** 1..16,384 UTF-8 bytes. */
  body: string;
  /** ≤ 200 code points. */
  summary?: string;
  /** 1..128 code points; scoped to the person (their principal) in the team. */
  idempotency_key?: string;
}

/**
 * Validates a `message person-send` document: the first member of
 * {@link PERSON_SEND_FORBIDDEN_MEMBERS} present is `invalid_input` `forbidden_member` naming it;
 * then `recipient_session_id` (non-empty), `body` (1..16,384 bytes), `summary` (≤ 200 cp),
 * `idempotency_key` (≤ 128 cp; `""` reads as absent). Unknown members are dropped. Never throws.
 *
 * @example
 * validatePersonSendRequest({ recipient_session_id: "s-1", body: "hi", reply_to: "m-1" }).ok === false
 */
export function validatePersonSendRequest(value: unknown): ValidationResult<PersonSendRequest> {
  return runValidation(() => {
    const o = expectObject(value, "");
    for (const name of PERSON_SEND_FORBIDDEN_MEMBERS) {
      if (hasMember(o, name)) failField(name, "forbidden_member");
    }
    const out: PersonSendRequest = {
      recipient_session_id: requiredString(o, "recipient_session_id", "", { nonEmpty: true }),
      body: requiredString(o, "body", "", {
        nonEmpty: true,
        cap: PROTOCOL_LIMITS.max_body_bytes,
        unit: "bytes",
      }),
    };
    const summary = optionalString(o, "summary", "", { cap: PROTOCOL_LIMITS.max_summary_chars });
    if (summary !== undefined) out.summary = summary;
    const key = optionalString(o, "idempotency_key", "", {
      cap: PROTOCOL_LIMITS.max_idempotency_key_chars,
    });
    if (key !== undefined && key !== "") out.idempotency_key = key;
    return out;
  });
}

/** Who sent a message of a person's listing: the person themselves, or one of their sessions. */
export const PERSON_SENT_SENDERS = ["person", "session"] as const;

/** A {@link PERSON_SENT_SENDERS} value. */
export type PersonSentSender = (typeof PERSON_SENT_SENDERS)[number];

/**
 * One message of `message person-sent` **[ours]**: a `MessageStateRecord` and who sent it —
 * `sender: "person"` for the person's own (no session), `"session"` with `sender_session_id` for
 * one of their sessions'. Never the body.
 *
 * @example { ...record, sender: "session", sender_session_id: "s-2b8e" }
 */
export interface PersonSentRecord extends MessageStateRecord {
  sender: PersonSentSender;
  /** The sending session; present exactly when `sender` is `session`. */
  sender_session_id?: string;
}

/**
 * The `message person-sent [--limit <n>]` result **[ours]** (capability `message.person`): the
 * latest messages the caller's principal sent in the team, as a person or from any of its
 * sessions, newest first.
 */
export interface PersonSentResult {
  messages: PersonSentRecord[];
}

/**
 * Validates a `message person-sent` result: each element a `MessageStateRecord` plus `sender`
 * (`person` or `session`) and, for `session`, a non-empty `sender_session_id`; absent `messages`
 * reads as `[]`. Never throws.
 *
 * @example validatePersonSentResult({}) // { ok: true, value: { messages: [] } }
 */
export function validatePersonSentResult(value: unknown): ValidationResult<PersonSentResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      messages: requiredArray(o, "messages", "", true, (element, path) => {
        const e = expectObject(element, path);
        const record: PersonSentRecord = {
          ...readStateRecord(e, path),
          sender: requiredEnum(e, "sender", path, PERSON_SENT_SENDERS),
        };
        if (record.sender === "session") {
          record.sender_session_id = requiredString(e, "sender_session_id", path, {
            nonEmpty: true,
          });
        }
        return record;
      }),
    };
  });
}
