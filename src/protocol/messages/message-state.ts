import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  failField,
  nonEmptyStringElement,
  optionalString,
  requiredArray,
  requiredEnum,
  requiredString,
  requiredTimestamp,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type MessageAttachment, readAttachments } from "./attachment.ts";
import { type MessageEnvelope, readMessageEnvelope } from "./message-envelope.ts";

/**
 * What became of a sent message, as its sender reads it (capability `message.state`, a Brigade
 * extension, docs/20-protocol.md). Computed by the backend, first match wins:
 * - `acked`: the recipient's harness acknowledged it (for Claude Code: it is in the session's
 *   conversation);
 * - `refused`: the recipient's harness reported that its inbound policy refuses it;
 * - `undeliverable`: the recipient session ended (closed, or its lease ran out) with the message
 *   unacknowledged; it is `held` again if a later session of the same person adopts it
 *   (capability `message.adopt`);
 * - `held`: the recipient's harness holds it for its user to release;
 * - `accepted`: stored, nothing reported yet.
 */
export const MESSAGE_STATES = ["accepted", "held", "refused", "acked", "undeliverable"] as const;

/** One of {@link MESSAGE_STATES}. */
export type MessageState = (typeof MESSAGE_STATES)[number];

/** The states a recipient's harness may report with `message report`. */
export const REPORTABLE_STATES = ["held", "refused"] as const;

/** One of {@link REPORTABLE_STATES}. */
export type ReportableState = (typeof REPORTABLE_STATES)[number];

/** Most message ids in one `message state` or `message report` request. */
export const MAX_STATE_IDS = 200;

/** Most earlier sessions named in one `message adopt` request. */
export const MAX_ADOPT_SESSIONS = 16;

/**
 * One sent message as its sender sees it (`message state`, `message sent`). Never the body.
 *
 * @example
 * { message_id: "m-7f3a", recipient_session_id: "s-51d0", created_at: "2026-10-02T09:15:42.000Z",
 *   state: "held", state_changed_at: "2026-10-02T09:15:43.000Z", summary: "Schema bumped" }
 */
export interface MessageStateRecord {
  message_id: string;
  /** The session the message was sent to. */
  recipient_session_id: string;
  created_at: string;
  state: MessageState;
  /** When the message reached `state` (for `accepted`, `created_at`). */
  state_changed_at: string;
  /** Present when a later session of the recipient's person adopted the message. */
  offered_to_session_id?: string;
  /** The sender's own summary, when it gave one. */
  summary?: string;
  /**
   * **[ours]** (capability `message.attachments`): the files the message names, in the sender's
   * order (`{sha256, size, name}`); absent when it names none.
   */
  attachments?: MessageAttachment[];
}

/**
 * `message state --session <sender id>` stdin: the sender's message ids to look up, 1..200
 * non-empty strings.
 *
 * @example
 * { message_ids: ["m-7f3a"] }
 */
export interface MessageStateRequest {
  message_ids: string[];
}

/**
 * The `message state` result: the records of the ids this session sent (input order, duplicates
 * once) and every other id in `unknown` — an id another session sent is `unknown` like one that
 * does not exist, so the answer is no oracle.
 */
export interface MessageStateResult {
  messages: MessageStateRecord[];
  unknown: string[];
}

/** The `message sent --session <id> [--limit <n>]` result: the session's latest sent messages, newest first. */
export interface MessageSentResult {
  messages: MessageStateRecord[];
}

/**
 * `message report --session <recipient id>` stdin: the recipient's harness says what its inbound
 * policy did with messages addressed to this session.
 *
 * @example
 * { message_ids: ["m-7f3a"], state: "held" }
 */
export interface MessageReportRequest {
  message_ids: string[];
  state: ReportableState;
}

/**
 * The `message report` result: `reported` are unacknowledged messages addressed to the session
 * (now in the reported state); anything else (acknowledged, another session's, unknown) is
 * `unknown`.
 */
export interface MessageReportResult {
  reported: string[];
  unknown: string[];
}

/**
 * `message adopt --session <new id>` stdin (capability `message.adopt`): earlier sessions of the
 * caller, in the same team, whose unacknowledged messages the new session takes over.
 *
 * @example
 * { from_session_ids: ["s-2b8e", "s-0c41"] }
 */
export interface MessageAdoptRequest {
  from_session_ids: string[];
}

/**
 * The `message adopt` result: the messages now addressed to the new session (oldest first), each
 * `held` until its user releases it. An earlier session that is unknown, another principal's, in
 * another team, still live or the new session itself contributes nothing and is not named.
 */
export interface MessageAdoptResult {
  messages: MessageEnvelope[];
}

function readIdList(o: WireObject, name: string, max: number): string[] {
  const ids = requiredArray(o, name, "", false, nonEmptyStringElement);
  if (ids.length === 0) failField(name, "required");
  if (ids.length > max) {
    failField(name, "out_of_range", { min: "1", max: String(max) });
  }
  return ids;
}

/**
 * Validates a `message state` request: `message_ids` required, 1..200 non-empty strings (more →
 * `out_of_range` with `min`, `max`).
 *
 * @example
 * validateMessageStateRequest({ message_ids: [] }).ok === false; // field "message_ids", required
 */
export function validateMessageStateRequest(value: unknown): ValidationResult<MessageStateRequest> {
  return runValidation(() => ({
    message_ids: readIdList(expectObject(value, ""), "message_ids", MAX_STATE_IDS),
  }));
}

/**
 * Validates a `message report` request: `message_ids` as for `message state`, `state` one of
 * `held`, `refused`.
 *
 * @example
 * validateMessageReportRequest({ message_ids: ["m-1"], state: "acked" }).ok === false;
 */
export function validateMessageReportRequest(
  value: unknown,
): ValidationResult<MessageReportRequest> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const message_ids = readIdList(o, "message_ids", MAX_STATE_IDS);
    const state = requiredEnum(o, "state", "", REPORTABLE_STATES);
    return { message_ids, state };
  });
}

/**
 * Validates a `message adopt` request: `from_session_ids` required, 1..16 non-empty strings.
 *
 * @example
 * validateMessageAdoptRequest({ from_session_ids: ["s-2b8e"] }).ok === true;
 */
export function validateMessageAdoptRequest(value: unknown): ValidationResult<MessageAdoptRequest> {
  return runValidation(() => ({
    from_session_ids: readIdList(expectObject(value, ""), "from_session_ids", MAX_ADOPT_SESSIONS),
  }));
}

/** Reads one `MessageStateRecord` at `prefix`; throws the validators' failure (internal to the layer). */
export function readStateRecord(o: WireObject, prefix: string): MessageStateRecord {
  const record: MessageStateRecord = {
    message_id: requiredString(o, "message_id", prefix, { nonEmpty: true }),
    recipient_session_id: requiredString(o, "recipient_session_id", prefix, { nonEmpty: true }),
    created_at: requiredTimestamp(o, "created_at", prefix),
    state: requiredEnum(o, "state", prefix, MESSAGE_STATES),
    state_changed_at: requiredTimestamp(o, "state_changed_at", prefix),
  };
  const offered = optionalString(o, "offered_to_session_id", prefix, { nonEmpty: true });
  if (offered !== undefined) record.offered_to_session_id = offered;
  const summary = optionalString(o, "summary", prefix, {
    cap: PROTOCOL_LIMITS.max_summary_chars,
  });
  if (summary !== undefined) record.summary = summary;
  const attachments = readAttachments(o, prefix);
  if (attachments !== undefined) record.attachments = attachments;
  return record;
}

function readRecords(o: WireObject): MessageStateRecord[] {
  return requiredArray(o, "messages", "", true, (element, path) =>
    readStateRecord(expectObject(element, path), path),
  );
}

/**
 * Validates a `message state` result; absent arrays read as `[]`.
 *
 * @example
 * validateMessageStateResult({ unknown: ["m-0"] }); // { ok: true, value: { messages: [], unknown: ["m-0"] } }
 */
export function validateMessageStateResult(value: unknown): ValidationResult<MessageStateResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      messages: readRecords(o),
      unknown: requiredArray(o, "unknown", "", true, nonEmptyStringElement),
    };
  });
}

/**
 * Validates a `message sent` result; an absent `messages` reads as `[]`.
 *
 * @example
 * validateMessageSentResult({}); // { ok: true, value: { messages: [] } }
 */
export function validateMessageSentResult(value: unknown): ValidationResult<MessageSentResult> {
  return runValidation(() => ({ messages: readRecords(expectObject(value, "")) }));
}

/**
 * Validates a `message report` result; absent arrays read as `[]`.
 *
 * @example
 * validateMessageReportResult({ reported: ["m-1"] }).ok === true;
 */
export function validateMessageReportResult(value: unknown): ValidationResult<MessageReportResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      reported: requiredArray(o, "reported", "", true, nonEmptyStringElement),
      unknown: requiredArray(o, "unknown", "", true, nonEmptyStringElement),
    };
  });
}

/**
 * Validates a `message adopt` result (envelopes read like `message receive`'s).
 *
 * @example
 * validateMessageAdoptResult({ messages: [] }).ok === true;
 */
export function validateMessageAdoptResult(value: unknown): ValidationResult<MessageAdoptResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      messages: requiredArray(o, "messages", "", true, (element, path) =>
        readMessageEnvelope(expectObject(element, path), path),
      ),
    };
  });
}
