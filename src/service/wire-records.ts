import type {
  MessageEnvelope,
  MessageSender,
  SendResponse,
  SessionRecord,
  SessionState,
} from "../protocol/index.ts";
import {
  liveDeliveryOf,
  liveReportMaxAgeMs,
  PERSON_SENDER_KIND,
  PROTOCOL_VERSION,
} from "../protocol/index.ts";
import { attachmentsOfColumn } from "./attachment-column.ts";
import type { MessageRow, SentMessage, SessionRow } from "./store.ts";

/**
 * RFC 3339 UTC text (`Z`, millisecond fraction) of an epoch-millisecond time.
 *
 * @example
 * isoTime(0) === "1970-01-01T00:00:00.000Z";
 */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * True when the session is open and its lease has not run out at `now` (docs/spec/protocol.md §6.8:
 * offline when `now > lease_until` or closed).
 *
 * @example
 * isLive({ closed_at: null, lease_until: 10 }, 10) === true;
 */
export function isLive(row: Pick<SessionRow, "closed_at" | "lease_until">, now: number): boolean {
  return row.closed_at === null && now <= row.lease_until;
}

/**
 * The session state at `now` (docs/spec/protocol.md §6.8): `offline` when closed or past the lease;
 * else `active` when busy, `idle` otherwise.
 *
 * @example
 * sessionState(row, now); // "active"
 */
export function sessionState(
  row: Pick<SessionRow, "closed_at" | "lease_until" | "activity">,
  now: number,
): SessionState {
  if (!isLive(row, now)) return "offline";
  return row.activity === "busy" ? "active" : "idle";
}

/**
 * The wire `SessionRecord` of a stored session; optional members are omitted when they hold no
 * value; `human_label` is the owner's membership label. A `yes` live delivery not said again
 * within `liveReportMaxAgeMs` of the session's lease reads `no` / `watcher_silent` at `now`.
 *
 * @example
 * toSessionRecord(row, "dana", now, false).state;
 */
export function toSessionRecord(
  row: SessionRow,
  humanLabel: string | null,
  now: number,
  isSelf: boolean,
): SessionRecord {
  const record: SessionRecord = {
    session_id: row.session_id,
    session_name: row.session_name,
    principal_ref: row.principal_ref,
    state: sessionState(row, now),
    activity: row.activity,
    inbound: row.inbound,
    last_seen_at: isoTime(row.last_seen_at),
    lease_until: isoTime(row.lease_until),
    created_at: isoTime(row.created_at),
    is_self: isSelf,
  };
  if (row.session_description !== null) record.session_description = row.session_description;
  if (humanLabel !== null && humanLabel !== "") record.human_label = humanLabel;
  record.harness = row.harness;
  record.harness_version = row.harness_version;
  if (row.workspace_label !== null) record.workspace_label = row.workspace_label;
  if (row.model !== null) record.model = row.model;
  if (row.context_used_tokens !== null) record.context_used_tokens = row.context_used_tokens;
  if (row.brigade_version !== null) record.brigade_version = row.brigade_version;
  if (row.sync_peer !== null) record.sync_peer = row.sync_peer;
  const live = liveDeliveryOf(row.live_delivery, {
    ageMs: row.live_delivery_at === null ? null : now - row.live_delivery_at,
    maxAgeMs: liveReportMaxAgeMs(row.lease_seconds),
  });
  if (live !== undefined) Object.assign(record, live);
  return record;
}

/**
 * The wire `MessageEnvelope` of a stored message (`delivery_state` is always `accepted`: an acked
 * message is never returned again).
 *
 * @example
 * toEnvelope(row).kind === "text";
 */
export function toEnvelope(row: MessageRow): MessageEnvelope {
  const sender: MessageSender =
    row.sender_human_label === null || row.sender_human_label === ""
      ? {
          principal_ref: row.sender_principal_ref,
          session_id: row.sender_session_id,
          session_name: row.sender_session_name,
        }
      : {
          principal_ref: row.sender_principal_ref,
          human_label: row.sender_human_label,
          session_id: row.sender_session_id,
          session_name: row.sender_session_name,
        };
  // A person's message names its principal as its sender session (no session id can equal a
  // principal ref): the one mark, so no column, migration or store path differs for it.
  if (isPersonMessage(row)) sender.kind = PERSON_SENDER_KIND;
  const head = {
    protocol_version: PROTOCOL_VERSION,
    kind: "text" as const,
    message_id: row.message_id,
    team_ref: row.team_ref,
    sender,
    recipient_session_id: row.recipient_session_id,
  };
  const tail = {
    body: row.body,
    reply_to: row.reply_to,
    hop_count: row.hop_count,
    created_at: isoTime(row.created_at),
    delivery_state: "accepted" as const,
  };
  const envelope: MessageEnvelope =
    row.summary === null ? { ...head, ...tail } : { ...head, summary: row.summary, ...tail };
  // A row read straight from a data file (a tool, a test) holds the column's text or null.
  const attachments = Array.isArray(row.attachments)
    ? row.attachments
    : attachmentsOfColumn(row.attachments);
  if (attachments !== undefined && attachments.length > 0) {
    envelope.attachments = attachments.map(({ sha256, size, name }) => ({ sha256, size, name }));
  }
  return envelope;
}

/**
 * True when a person wrote the message from their own terminal (capability `message.person`):
 * its sender session id is its sender's principal ref.
 *
 * @example isPersonMessage({ sender_principal_ref: "p-1", sender_session_id: "p-1" }) === true
 */
export function isPersonMessage(
  row: Pick<MessageRow, "sender_principal_ref" | "sender_session_id">,
): boolean {
  return row.sender_session_id === row.sender_principal_ref;
}

/**
 * The `SendResponse` for a stored message (`duplicate` true for an idempotency replay).
 *
 * @example
 * toSendResponse(row, false).status === "accepted";
 */
export function toSendResponse(row: SentMessage, duplicate: boolean): SendResponse {
  return {
    status: "accepted",
    message_id: row.message_id,
    recipient_session_id: row.recipient_session_id,
    created_at: isoTime(row.created_at),
    duplicate,
    hop_count: row.hop_count,
  };
}
