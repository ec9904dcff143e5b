import { readProtocolVersion } from "../adapter/describe-result.ts";
import { PROTOCOL_LIMITS, type ProtocolVersion } from "../limits.ts";
import {
  expectObject,
  fieldPath,
  member,
  optionalString,
  requiredEnum,
  requiredInteger,
  requiredObject,
  requiredString,
  requiredTimestamp,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type MessageAttachment, readAttachments } from "./attachment.ts";

/** `delivery_state` values (docs/spec/protocol.md §4.6); `processed` is reserved. */
export const DELIVERY_STATES = ["accepted", "injected", "processed"] as const;

/** A message's delivery state. */
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** `MessageEnvelope.kind` values: only `text` in v1. */
export const MESSAGE_KINDS = ["text"] as const;

/** A message kind. */
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * `sender.kind` of a message a person wrote from their own terminal **[ours]** (capability
 * `message.person`, docs/20-protocol.md "A person's messages"). Stamped by the server; a
 * message without it was sent by a session.
 *
 * @example envelope.sender.kind === PERSON_SENDER_KIND
 */
export const PERSON_SENDER_KIND = "person";

/**
 * True for a `sender.kind` of a person (anything else, absent included, is a session).
 *
 * @example isPersonSenderKind("person") === true; isPersonSenderKind(undefined) === false
 */
export function isPersonSenderKind(kind: unknown): boolean {
  return kind === PERSON_SENDER_KIND;
}

/**
 * `MessageEnvelope.sender`: stamped by the adapter from its own authority, never from the
 * caller (docs/spec/protocol.md §6.5).
 */
export interface MessageSender {
  principal_ref: string;
  /** The sender's membership label (≤ 128 cp); unverified. */
  human_label?: string;
  session_id: string;
  /** ≤ 64 code points; unverified. */
  session_name: string;
  /**
   * **[ours]** (capability `message.person`): `"person"` when a person wrote the message from
   * their own terminal, not a session; then `session_id` is their `principal_ref` (no session
   * has that id) and `session_name` is `""`. Absent for a session's message. Stamped by the
   * server; any other value reads as absent.
   */
  kind?: typeof PERSON_SENDER_KIND;
}

/**
 * The only message representation (docs/spec/protocol.md §4.6), in `message receive` results and
 * watch `message` events. Everything but `summary` and `body` is adapter-stamped; all text is
 * untrusted.
 *
 * @example
 * const m: MessageEnvelope = {
 *   protocol_version: "1", kind: "text", message_id: "m-7f3a", team_ref: "t-9c1e",
 *   sender: { principal_ref: "p-41c9", human_label: "dana@example.org", session_id: "s-2b8e", session_name: "billing-svc" },
 *   recipient_session_id: "s-51d0", summary: "Schema bumped", body: "Column plan_tier is now NOT NULL.",
 *   reply_to: null, hop_count: 0, created_at: "2026-10-02T09:15:42Z", delivery_state: "accepted",
 * };
 */
export interface MessageEnvelope {
  protocol_version: ProtocolVersion;
  kind: MessageKind;
  message_id: string;
  team_ref: string;
  sender: MessageSender;
  recipient_session_id: string;
  /** ≤ 200 code points; sender-written. */
  summary?: string;
  /** Non-empty, ≤ 16,384 UTF-8 bytes; sender-written. */
  body: string;
  /** The parent message id (non-empty) or `null`/absent for none. */
  reply_to?: string | null;
  /** 0..32, adapter-computed. */
  hop_count: number;
  created_at: string;
  delivery_state: DeliveryState;
  /**
   * **[ours]** (capability `message.attachments`): the blobs the message names, in the sender's
   * order; absent when none. Names are the sender's, untrusted.
   */
  attachments?: MessageAttachment[];
}

/** Reads a MessageEnvelope from `o`; throws the validators' failure. */
export function readMessageEnvelope(o: WireObject, prefix: string): MessageEnvelope {
  const id = { nonEmpty: true } as const;
  const protocol_version = readProtocolVersion(o, prefix);
  const kind = requiredEnum(o, "kind", prefix, MESSAGE_KINDS);
  const message_id = requiredString(o, "message_id", prefix, id);
  const team_ref = requiredString(o, "team_ref", prefix, id);
  const senderPath = fieldPath(prefix, "sender");
  const senderObject = requiredObject(o, "sender", prefix);
  const principal_ref = requiredString(senderObject, "principal_ref", senderPath, id);
  const label = optionalString(senderObject, "human_label", senderPath, {
    cap: PROTOCOL_LIMITS.max_human_label_chars,
  });
  const sender: MessageSender = {
    principal_ref,
    ...(label === undefined ? {} : { human_label: label }),
    session_id: requiredString(senderObject, "session_id", senderPath, id),
    session_name: requiredString(senderObject, "session_name", senderPath, {
      cap: PROTOCOL_LIMITS.max_session_name_codepoints,
    }),
    ...(isPersonSenderKind(member(senderObject, "kind")) ? { kind: PERSON_SENDER_KIND } : {}),
  };
  const recipient_session_id = requiredString(o, "recipient_session_id", prefix, id);
  const summary = optionalString(o, "summary", prefix, { cap: PROTOCOL_LIMITS.max_summary_chars });
  const body = requiredString(o, "body", prefix, {
    nonEmpty: true,
    cap: PROTOCOL_LIMITS.max_body_bytes,
    unit: "bytes",
  });
  const replyTo = member(o, "reply_to");
  const reply_to = replyTo === null ? null : optionalString(o, "reply_to", prefix, id);
  const attachments = readAttachments(o, prefix);
  return {
    protocol_version,
    kind,
    message_id,
    team_ref,
    sender,
    recipient_session_id,
    ...(summary === undefined ? {} : { summary }),
    body,
    ...(reply_to === undefined ? {} : { reply_to }),
    hop_count: requiredInteger(o, "hop_count", prefix, 0, PROTOCOL_LIMITS.max_hop_count),
    created_at: requiredTimestamp(o, "created_at", prefix),
    delivery_state: requiredEnum(o, "delivery_state", prefix, DELIVERY_STATES),
    ...(attachments === undefined ? {} : { attachments }),
  };
}

/**
 * Validates one `MessageEnvelope` (docs/spec/protocol.md §4.6): ids non-empty, `body` 1..16,384
 * bytes, `summary` ≤ 200 cp, sender name ≤ 64 cp, `hop_count` 0..32, `kind` `text`. A
 * `protocol_version` other than `"1"` is `protocol_mismatch`. Unknown members (at any level) are
 * dropped.
 *
 * @example
 * validateMessageEnvelope({ ...m, body: "" }).ok === false; // field "body"
 */
export function validateMessageEnvelope(value: unknown): ValidationResult<MessageEnvelope> {
  return runValidation(() => readMessageEnvelope(expectObject(value, ""), ""));
}
