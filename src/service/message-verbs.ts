import {
  type AckResult,
  conflictError,
  invalidInputError,
  isReceiveLimit,
  type MessageAttachment,
  type MessageEnvelope,
  notFoundError,
  notMemberError,
  type ProtocolError,
  protocolError,
  type ReceiveResult,
  rateLimitedError,
  receiveLimitError,
  type SendResponse,
  validateAckRequest,
  validateSendRequest,
  valueOrThrow,
} from "../protocol/index.ts";
import { fail, requireMember, requireOwnedSession } from "./access-checks.ts";
import { ackInTx } from "./ack-in-tx.ts";
import { fetchInTx } from "./fetch-in-tx.ts";
import { SEND_LIMITS, sendInTx } from "./send-in-tx.ts";
import { ACK_IDS_MAX } from "./service-config.ts";
import type { ServiceContext } from "./service-context.ts";
import type { AckCommand, FetchCommand, SendCommand, SendRefusal } from "./store.ts";
import type { WatchListener, WatchSubscription } from "./watch-hub.ts";
import { toEnvelope, toSendResponse } from "./wire-records.ts";

/**
 * `message send` in the check order of docs/spec/protocol.md §6.16: step (a), validation, here;
 * steps (b) to (j) in the store's own {@link Store.sendMessage} when it has one, else as one unit of
 * work ({@link sendInTx}). The contract is `BrigadeService.sendMessage`.
 */
export async function sendMessage(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  send: unknown,
): Promise<SendResponse> {
  const request = valueOrThrow(validateSendRequest(send));
  const attachments = request.attachments ?? [];
  checkAttachmentLimits(ctx, attachments);
  const command: SendCommand = {
    principalRef,
    teamRef,
    senderSessionId: request.sender_session_id,
    recipientSessionId: request.recipient_session_id,
    body: request.body,
    summary: request.summary ?? null,
    replyTo: request.reply_to ?? null,
    idempotencyKey: request.idempotency_key ?? null,
    attachments,
    messageId: ctx.deps.newId("m"),
    limits: SEND_LIMITS,
    now: ctx.deps.now(),
  };
  // A store's own send knows nothing of attachments: a send that names some is one unit over the
  // store's methods, which takes the same locks first (StoreTx.lockSend).
  const outcome =
    ctx.store.sendMessage === undefined || attachments.length > 0
      ? await ctx.store.transact((tx) => sendInTx(tx, command))
      : await ctx.store.sendMessage(command);
  if (!outcome.ok) fail(refusalError(outcome));
  const { message, duplicate } = outcome;
  if (!duplicate) {
    ctx.hub.publish(message.recipient_session_id, [message.message_id]);
    ctx.store.watchFeed?.sent(message.recipient_session_id, message.message_id);
  }
  return toSendResponse(message, duplicate);
}

/**
 * The limits of this service (`brigade serve --limit`) on a send's attachments, which may be
 * lower than the protocol's that validation checked: more files than allowed is `invalid_input`
 * `out_of_range` on `attachments` (`min` 0, `max` the limit); more bytes together, or one file
 * over the per-file limit, `too_long` (`limit`, `actual`, `unit: bytes`).
 */
function checkAttachmentLimits(
  ctx: ServiceContext,
  attachments: readonly MessageAttachment[],
): void {
  const limits = ctx.attachments;
  if (attachments.length > limits.maxFilesPerMessage) {
    fail(
      invalidInputError("attachments", "out_of_range", {
        min: "0",
        max: String(limits.maxFilesPerMessage),
      }),
    );
  }
  let total = 0;
  for (const [index, attachment] of attachments.entries()) {
    if (attachment.size > limits.maxFileBytes) {
      fail(
        invalidInputError(`attachments.${index}.size`, "too_long", {
          limit: String(limits.maxFileBytes),
          actual: String(attachment.size),
          unit: "bytes",
        }),
      );
    }
    total += attachment.size;
  }
  if (total > limits.maxMessageBytes) {
    fail(
      invalidInputError("attachments", "too_long", {
        limit: String(limits.maxMessageBytes),
        actual: String(total),
        unit: "bytes",
      }),
    );
  }
}

/**
 * The protocol error of a refused send (docs/spec/protocol.md §3.4).
 *
 * @example refusalError({ refusal: "not_found" }).code === "not_found"
 */
export function refusalError(refusal: SendRefusal): ProtocolError {
  switch (refusal.refusal) {
    case "unauthorized":
      return notMemberError();
    case "not_found":
      return notFoundError();
    case "session_closed":
      return conflictError("session_closed");
    case "idempotency_key_reused":
      return conflictError("idempotency_key_reused");
    case "loop_detected":
      return protocolError("loop_detected", { reason: "max_hop_count" });
    case "rate_limited":
      return rateLimitedError(refusal.reason, refusal.retryAfterMs);
  }
}

/** `message receive`; the contract is `BrigadeService.receiveMessages`. */
export async function receiveMessages(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sessionId: string,
  limit: number,
): Promise<ReceiveResult> {
  if (!isReceiveLimit(limit)) fail(receiveLimitError());
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
  const command: FetchCommand = {
    principalRef,
    teamRef,
    sessionId,
    messageIds: [...new Set(messageIds)],
  };
  const outcome =
    ctx.store.fetchMessages === undefined
      ? await ctx.store.transact((tx) => fetchInTx(tx, command))
      : await ctx.store.fetchMessages(command);
  if (!outcome.ok) fail(outcome.refusal === "unauthorized" ? notMemberError() : notFoundError());
  return outcome.messages.map(toEnvelope);
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
  if (request.message_ids.length > ACK_IDS_MAX) {
    fail(invalidInputError("message_ids", "out_of_range", { min: "1", max: String(ACK_IDS_MAX) }));
  }
  const command: AckCommand = {
    principalRef,
    teamRef,
    sessionId,
    messageIds: [...new Set(request.message_ids)],
    at: ctx.deps.now(),
  };
  const outcome =
    ctx.store.ackMessages === undefined
      ? await ctx.store.transact((tx) => ackInTx(tx, command))
      : await ctx.store.ackMessages(command);
  if (!outcome.ok) fail(outcome.refusal === "unauthorized" ? notMemberError() : notFoundError());
  return { acked: outcome.acked, unknown: outcome.unknown };
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
