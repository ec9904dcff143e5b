import {
  conflictError,
  isReceiveLimit,
  type MessageAdoptResult,
  type MessageReportResult,
  type MessageSentResult,
  type MessageState,
  type MessageStateRecord,
  type MessageStateResult,
  PROTOCOL_LIMITS,
  receiveLimitError,
  validateMessageAdoptRequest,
  validateMessageReportRequest,
  validateMessageStateRequest,
  valueOrThrow,
} from "../protocol/index.ts";
import { fail, requireMember, requireOwnedSession } from "./access-checks.ts";
import { attachmentsOfColumn } from "./attachment-column.ts";
import type { ServiceContext } from "./service-context.ts";
import type { SentMessageRow } from "./store.ts";
import { isLive, isoTime, toEnvelope } from "./wire-records.ts";

/**
 * The state of a sent message at `now` and since when (docs/20-protocol.md, "Message states"),
 * first match wins: acknowledged → `acked`; reported refused → `refused`; its recipient session
 * ended (closed, or lease run out) → `undeliverable`; reported held → `held`; else `accepted`.
 *
 * @example messageStateOf(row, now).state === "held"
 */
export function messageStateOf(
  row: SentMessageRow,
  now: number,
): { state: MessageState; since: number } {
  if (row.acked_at !== null) return { state: "acked", since: row.acked_at };
  if (row.disposition === "refused") {
    return { state: "refused", since: row.disposition_at ?? row.created_at };
  }
  const recipient = { closed_at: row.recipient_closed_at, lease_until: row.recipient_lease_until };
  if (!isLive(recipient, now)) {
    const ended =
      row.recipient_closed_at === null
        ? row.recipient_lease_until
        : Math.min(row.recipient_closed_at, row.recipient_lease_until);
    return { state: "undeliverable", since: Math.max(ended, row.created_at) };
  }
  if (row.disposition === "held") {
    return { state: "held", since: row.disposition_at ?? row.created_at };
  }
  return { state: "accepted", since: row.created_at };
}

/** The wire record of a sent message at `now` (never its body). */
export function toStateRecord(row: SentMessageRow, now: number): MessageStateRecord {
  const { state, since } = messageStateOf(row, now);
  const record: MessageStateRecord = {
    message_id: row.message_id,
    recipient_session_id: row.sent_to_session_id ?? row.recipient_session_id,
    created_at: isoTime(row.created_at),
    state,
    state_changed_at: isoTime(since),
  };
  if (row.sent_to_session_id !== null) record.offered_to_session_id = row.recipient_session_id;
  if (row.summary !== null) record.summary = row.summary;
  const attachments = attachmentsOfColumn(row.attachments);
  if (attachments !== undefined) record.attachments = attachments;
  return record;
}

/**
 * `message state`; the contract is `BrigadeService.messageState`. Only the sender session's owner
 * reads a state: an id the session did not send is `unknown` exactly like one that does not exist.
 */
export async function messageState(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  request: unknown,
): Promise<MessageStateResult> {
  const { message_ids } = valueOrThrow(validateMessageStateRequest(request));
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    const rows = await tx.sentMessages(sessionId, { messageIds: message_ids });
    const byId = new Map(rows.map((row) => [row.message_id, row]));
    const now = ctx.deps.now();
    const messages: MessageStateRecord[] = [];
    const unknown: string[] = [];
    for (const id of new Set(message_ids)) {
      const row = byId.get(id);
      if (row === undefined) unknown.push(id);
      else messages.push(toStateRecord(row, now));
    }
    return { messages, unknown };
  });
}

/** `message sent`; the contract is `BrigadeService.messageSent`. */
export async function messageSent(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  limit: number,
): Promise<MessageSentResult> {
  if (!isReceiveLimit(limit)) fail(receiveLimitError());
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    const rows = await tx.sentMessages(sessionId, { limit });
    const now = ctx.deps.now();
    return { messages: rows.map((row) => toStateRecord(row, now)) };
  });
}

/** `message report`; the contract is `BrigadeService.messageReport`. */
export async function messageReport(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  request: unknown,
): Promise<MessageReportResult> {
  const { message_ids, state } = valueOrThrow(validateMessageReportRequest(request));
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    const now = ctx.deps.now();
    const reported: string[] = [];
    const unknown: string[] = [];
    for (const id of new Set(message_ids)) {
      if (await tx.setDisposition(id, sessionId, state, now)) reported.push(id);
      else unknown.push(id);
    }
    return { reported, unknown };
  });
}

/**
 * `message adopt`; the contract is `BrigadeService.adoptMessages`. Only the caller's own sessions
 * of this team that have ended give up their messages; any other named session (unknown,
 * another principal's, another team's, still live, the new session itself) is skipped without a
 * word, so the answer says nothing about sessions that are not the caller's. At most as many
 * messages move as the new session's inbox has room for (docs/spec/protocol.md §6.12, 60); the
 * rest stay where they are and a later adopt can take them.
 */
export async function adoptMessages(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  request: unknown,
): Promise<MessageAdoptResult> {
  const { from_session_ids } = valueOrThrow(validateMessageAdoptRequest(request));
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    const target = await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    if (target.closed_at !== null) fail(conflictError("session_closed"));
    const now = ctx.deps.now();
    let room = PROTOCOL_LIMITS.max_unacked_per_recipient - (await tx.unackedFor(sessionId));
    const messages = [];
    for (const fromId of new Set(from_session_ids)) {
      if (room <= 0) break;
      if (fromId === sessionId) continue;
      const from = await tx.getSession(fromId);
      if (from === null || from.team_ref !== teamRef || from.principal_ref !== principalRef) {
        continue;
      }
      if (isLive(from, now)) continue;
      const moved = await tx.adoptMessages(fromId, sessionId, now, room);
      room -= moved.length;
      for (const row of moved) messages.push(toEnvelope(row));
    }
    return { messages };
  });
}
