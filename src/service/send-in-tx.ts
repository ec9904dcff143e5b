import { PROTOCOL_LIMITS } from "../protocol/index.ts";
import { findTrippedRule } from "./rate-rules.ts";
import { sendFingerprint } from "./send-fingerprint.ts";
import { CAP_RETRY_AFTER_MS } from "./service-config.ts";
import type { MessageRow, SendCommand, SendLimits, SendOutcome, StoreTx } from "./store.ts";

const SECOND_MS = 1000;

/** The protocol's `message send` limits (docs/spec/protocol.md §6.12) as a store receives them. */
export const SEND_LIMITS: SendLimits = Object.freeze({
  sendPerMinute: PROTOCOL_LIMITS.send_rate.per_minute,
  sendPerHour: PROTOCOL_LIMITS.send_rate.per_hour,
  principalPerMinute: PROTOCOL_LIMITS.principal_send_rate.per_minute,
  principalPerHour: PROTOCOL_LIMITS.principal_send_rate.per_hour,
  pairCap: PROTOCOL_LIMITS.max_unacked_per_sender_recipient,
  inboxCap: PROTOCOL_LIMITS.max_unacked_per_recipient,
  maxHopCount: PROTOCOL_LIMITS.max_hop_count,
  implicitReplyWindowMs: PROTOCOL_LIMITS.implicit_reply_window_seconds * SECOND_MS,
  capRetryAfterMs: CAP_RETRY_AFTER_MS,
});

/**
 * Decides and stores one send inside a unit of work, in the order of docs/spec/protocol.md §6.16
 * steps (b) to (j), at `command.now` (ms): the path of every store without its own
 * {@link Store.sendMessage}, and of every send that names attachments. Those are checked
 * **[ours]** right after the idempotency step (f): each must be a blob of the team, of the size
 * named, that the sender's principal uploaded, else `not_found`. The window and cap numbers are the service's `RATE_RULES`, which
 * equal {@link SEND_LIMITS}. A refusal writes nothing.
 */
export async function sendInTx(tx: StoreTx, command: SendCommand): Promise<SendOutcome> {
  const now = command.now;
  const attachments = command.attachments ?? [];
  await tx.lockSend(command.principalRef, command.recipientSessionId);
  const team = await tx.getTeam(command.teamRef);
  const membership =
    team === null ? null : await tx.getMembership(command.teamRef, command.principalRef);
  if (membership === null || membership.status !== "active") {
    return { ok: false, refusal: "unauthorized" };
  }
  const sender = command.person === true ? personSender(command) : await sessionSender(tx, command);
  if (!("session_id" in sender)) return { ok: false, refusal: sender.refusal };
  const recipient = await tx.getSession(command.recipientSessionId);
  const owner =
    recipient === null || recipient.team_ref !== command.teamRef
      ? null
      : await tx.getMembership(recipient.team_ref, recipient.principal_ref);
  // A session of a member who left or was removed is, to every sender, a session that does not
  // exist: nothing piles up for someone who cannot read it, and no answer says they were there.
  if (recipient === null || owner?.status !== "active") {
    return { ok: false, refusal: "not_found" };
  }
  if (command.idempotencyKey !== null) {
    const original = await tx.messageByIdempotencyKey(sender.session_id, command.idempotencyKey);
    if (original !== null) {
      const same =
        sendFingerprint(
          original.recipient_session_id,
          original.body,
          original.summary,
          original.reply_to,
          original.attachments,
        ) ===
        sendFingerprint(
          recipient.session_id,
          command.body,
          command.summary,
          command.replyTo,
          attachments,
        );
      if (!same) return { ok: false, refusal: "idempotency_key_reused" };
      return { ok: true, duplicate: true, message: original };
    }
  }
  // [ours] Every named blob must be the team's, of the size named, and uploaded by the sender's
  // principal (which proved it holds the bytes); anything else answers as a session that does
  // not exist, so a send cannot probe for, or hand on, a blob the sender never had.
  for (const attachment of attachments) {
    const blob = await tx.getBlob(command.teamRef, attachment.sha256);
    if (blob === null || blob.size !== attachment.size) return { ok: false, refusal: "not_found" };
    const uploaders = await tx.blobUploaders(command.teamRef, attachment.sha256);
    if (!uploaders.some((u) => u.principal_ref === command.principalRef)) {
      return { ok: false, refusal: "not_found" };
    }
  }
  const hop = await hopCountOf(tx, command, now);
  if (hop === null) return { ok: false, refusal: "not_found" };
  if (hop > command.limits.maxHopCount) return { ok: false, refusal: "loop_detected" };
  const tripped = await findTrippedRule(
    tx,
    "message_send",
    {
      principalRef: command.principalRef,
      senderSessionId: sender.session_id,
      recipientSessionId: recipient.session_id,
    },
    now,
  );
  if (tripped !== null) {
    return {
      ok: false,
      refusal: "rate_limited",
      reason: tripped.reason,
      retryAfterMs: tripped.retryAfterMs,
    };
  }
  const message: MessageRow = {
    message_id: command.messageId,
    team_ref: command.teamRef,
    sender_principal_ref: command.principalRef,
    sender_session_id: sender.session_id,
    sender_session_name: sender.session_name,
    sender_human_label: membership.human_label,
    recipient_session_id: recipient.session_id,
    summary: command.summary,
    body: command.body,
    reply_to: command.replyTo,
    hop_count: hop,
    created_at: now,
    acked_at: null,
    idempotency_key: command.idempotencyKey,
    ...(attachments.length === 0 ? {} : { attachments }),
  };
  await tx.insertMessage(message);
  return { ok: true, duplicate: false, message };
}

/** Who a send is from: its id and name as the message records them. */
interface SenderOfSend {
  readonly session_id: string;
  readonly session_name: string;
}

/**
 * A person's message (capability `message.person`) comes from no session: it names the
 * principal's own ref as its sender session, which no session id can equal, so the idempotency
 * keys, windows and caps keyed by sender session apply to the person as to one more sender.
 */
function personSender(command: SendCommand): SenderOfSend {
  return { session_id: command.principalRef, session_name: "" };
}

/** Steps (c) and (d): the sender session is the caller's, in the team, and not closed. */
async function sessionSender(
  tx: StoreTx,
  command: SendCommand,
): Promise<SenderOfSend | { refusal: "not_found" | "session_closed" }> {
  const sender = await tx.getSession(command.senderSessionId);
  if (
    sender === null ||
    sender.team_ref !== command.teamRef ||
    sender.principal_ref !== command.principalRef
  ) {
    return { refusal: "not_found" };
  }
  if (sender.closed_at !== null) return { refusal: "session_closed" };
  return sender;
}

/**
 * Hop count (docs/spec/protocol.md §6.12): parent + 1 with `reply_to` (`null`, read as
 * `not_found`, unless the parent was addressed to the sender); else 1 + the hop of the most recent
 * message recipient → sender inside the implicit-reply window, or 0.
 */
async function hopCountOf(tx: StoreTx, command: SendCommand, now: number): Promise<number | null> {
  if (command.replyTo !== null) {
    const parent = await tx.getMessage(command.replyTo);
    if (parent === null || parent.recipient_session_id !== command.senderSessionId) return null;
    return parent.hop_count + 1;
  }
  const since = now - command.limits.implicitReplyWindowMs;
  const previous = await tx.latestHopCount(
    command.recipientSessionId,
    command.senderSessionId,
    since,
  );
  return previous === null ? 0 : previous + 1;
}
