import {
  type AckResult,
  conflictError,
  invalidInputError,
  type MessageEnvelope,
  notFoundError,
  PROTOCOL_LIMITS,
  protocolError,
  type ReceiveResult,
  type SendResponse,
  validateAckRequest,
  validateSendRequest,
  valueOrThrow,
} from "../protocol/index.ts";
import { fail, requireMember, requireOwnedSession } from "./access-checks.ts";
import { enforceRateRules } from "./rate-rules.ts";
import { RECEIVE_LIMIT } from "./service-config.ts";
import type { ServiceContext } from "./service-context.ts";
import type { MessageRow, StoreTx } from "./store.ts";
import type { WatchListener, WatchSubscription } from "./watch-hub.ts";
import { toEnvelope, toSendResponse } from "./wire-records.ts";

const SECOND_MS = 1000;

/**
 * Idempotency fingerprint (docs/spec/protocol.md §6.4): recipient ␀ body ␀ summary ␀ reply_to,
 * absent = empty.
 */
function fingerprint(
  recipient: string,
  body: string,
  summary: string | null | undefined,
  replyTo: string | null | undefined,
): string {
  return `${recipient}\u0000${body}\u0000${summary ?? ""}\u0000${replyTo ?? ""}`;
}

/**
 * `message send` in the check order of docs/spec/protocol.md §6.16, steps (b) to (j) (step (a),
 * validation, first); the contract is `BrigadeService.sendMessage`.
 */
export async function sendMessage(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  send: unknown,
): Promise<SendResponse> {
  const request = valueOrThrow(validateSendRequest(send));
  const { row, duplicate } = await ctx.store.transact(async (tx) => {
    const { membership } = await requireMember(tx, teamRef, principalRef);
    const sender = await requireOwnedSession(tx, teamRef, principalRef, request.sender_session_id);
    if (sender.closed_at !== null) fail(conflictError("session_closed"));
    const recipient = await tx.getSession(request.recipient_session_id);
    if (recipient === null || recipient.team_ref !== teamRef) fail(notFoundError());
    const key = request.idempotency_key;
    if (key !== undefined) {
      const original = await tx.messageByIdempotencyKey(sender.session_id, key);
      if (original !== null) {
        const same =
          fingerprint(
            original.recipient_session_id,
            original.body,
            original.summary,
            original.reply_to,
          ) === fingerprint(recipient.session_id, request.body, request.summary, request.reply_to);
        if (!same) fail(conflictError("idempotency_key_reused"));
        return { row: original, duplicate: true };
      }
    }
    const now = ctx.deps.now();
    const hopCount = await hopCountOf(
      tx,
      sender.session_id,
      recipient.session_id,
      request.reply_to,
      now,
    );
    const subject = {
      principalRef,
      senderSessionId: sender.session_id,
      recipientSessionId: recipient.session_id,
    };
    await enforceRateRules(tx, "message_send", subject, now);
    const message: MessageRow = {
      message_id: ctx.deps.newId("m"),
      team_ref: teamRef,
      sender_principal_ref: principalRef,
      sender_session_id: sender.session_id,
      sender_session_name: sender.session_name,
      sender_human_label: membership.human_label,
      recipient_session_id: recipient.session_id,
      summary: request.summary ?? null,
      body: request.body,
      reply_to: request.reply_to ?? null,
      hop_count: hopCount,
      created_at: now,
      acked_at: null,
      idempotency_key: key ?? null,
    };
    await tx.insertMessage(message);
    return { row: message, duplicate: false };
  });
  if (!duplicate) ctx.hub.publish(row.recipient_session_id, [row.message_id]);
  return toSendResponse(row, duplicate);
}

/**
 * Hop count (docs/spec/protocol.md §6.12): parent + 1 with `reply_to` (`not_found` unless the
 * parent was addressed to the sender); else 1 + the implicit reply (600 s) or 0. Above the cap →
 * `loop_detected`.
 */
async function hopCountOf(
  tx: StoreTx,
  senderId: string,
  recipientId: string,
  replyTo: string | undefined,
  now: number,
): Promise<number> {
  let hop: number;
  if (replyTo !== undefined) {
    const parent = await tx.getMessage(replyTo);
    if (parent === null || parent.recipient_session_id !== senderId) fail(notFoundError());
    hop = parent.hop_count + 1;
  } else {
    const windowMs = PROTOCOL_LIMITS.implicit_reply_window_seconds * SECOND_MS;
    const previous = await tx.latestHopCount(recipientId, senderId, now - windowMs);
    hop = previous === null ? 0 : previous + 1;
  }
  if (hop > PROTOCOL_LIMITS.max_hop_count) {
    fail(protocolError("loop_detected", { reason: "max_hop_count" }));
  }
  return hop;
}

/** `message receive`; the contract is `BrigadeService.receiveMessages`. */
export async function receiveMessages(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  limit: number,
): Promise<ReceiveResult> {
  if (!Number.isInteger(limit) || limit < 1 || limit > RECEIVE_LIMIT.max) {
    fail(invalidInputError("limit", "out_of_range", { min: "1", max: String(RECEIVE_LIMIT.max) }));
  }
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    const rows = await tx.listUnacked(sessionId, limit);
    return { messages: rows.map(toEnvelope) };
  });
}

/** The still-unacknowledged envelopes among `messageIds`; see `BrigadeService.fetchMessages`. */
export async function fetchMessages(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  messageIds: readonly string[],
): Promise<MessageEnvelope[]> {
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    const out: MessageEnvelope[] = [];
    for (const id of new Set(messageIds)) {
      const row = await tx.getMessage(id);
      if (row !== null && row.recipient_session_id === sessionId && row.acked_at === null)
        out.push(toEnvelope(row));
    }
    return out;
  });
}

/** `message ack`; the contract is `BrigadeService.ackMessages`. */
export async function ackMessages(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  ack: unknown,
): Promise<AckResult> {
  const request = valueOrThrow(validateAckRequest(ack));
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    const now = ctx.deps.now();
    const acked: string[] = [];
    const unknown: string[] = [];
    for (const id of new Set(request.message_ids)) {
      if (await tx.ackMessage(id, sessionId, now)) acked.push(id);
      else unknown.push(id);
    }
    return { acked, unknown };
  });
}

/** `message watch` support; the contract is `BrigadeService.subscribe`. */
export async function subscribe(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  listener: WatchListener,
): Promise<WatchSubscription> {
  await ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    await requireOwnedSession(tx, teamRef, principalRef, sessionId);
  });
  return ctx.hub.add(sessionId, principalRef, teamRef, listener);
}
