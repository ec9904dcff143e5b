import {
  isReceiveLimit,
  type PersonSentRecord,
  type PersonSentResult,
  receiveLimitError,
  type SendResponse,
  validatePersonSendRequest,
  valueOrThrow,
} from "../protocol/index.ts";
import { fail, requireMember } from "./access-checks.ts";
import { toStateRecord } from "./message-state-verbs.ts";
import { refusalError } from "./message-verbs.ts";
import { SEND_LIMITS, sendInTx } from "./send-in-tx.ts";
import type { ServiceContext } from "./service-context.ts";
import type { PrincipalSentRow, SendCommand } from "./store.ts";
import { toSendResponse } from "./wire-records.ts";

/**
 * `message person-send` **[ours]** (capability `message.person`; the contract is
 * `BrigadeService.personSend`): the caller's principal writes to a session of its team as a
 * person. Validation first (forbidden members, caps); then, in one unit of work, the steps of
 * docs/spec/protocol.md §6.16 without the sender-session steps (c) and (d): member (b), recipient
 * (e), idempotency scoped to the person (f), hop count 0 (no `reply_to`; no session can have
 * written to a person, so no implicit reply either), the per-sender windows counted for the
 * person and the per-principal windows shared with its sessions (h), the caps (i). The server
 * stamps the sender: the principal, its membership label, `kind: "person"`.
 */
export async function personSend(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  send: unknown,
): Promise<SendResponse> {
  const request = valueOrThrow(validatePersonSendRequest(send));
  const command: SendCommand = {
    principalRef,
    teamRef,
    senderSessionId: principalRef,
    person: true,
    recipientSessionId: request.recipient_session_id,
    body: request.body,
    summary: request.summary ?? null,
    replyTo: null,
    idempotencyKey: request.idempotency_key ?? null,
    messageId: ctx.deps.newId("m"),
    limits: SEND_LIMITS,
    now: ctx.deps.now(),
  };
  const outcome = await ctx.store.transact((tx) => sendInTx(tx, command));
  if (!outcome.ok) fail(refusalError(outcome));
  const { message, duplicate } = outcome;
  if (!duplicate) {
    ctx.hub.publish(message.recipient_session_id, [message.message_id]);
    ctx.store.watchFeed?.sent(message.recipient_session_id, message.message_id);
  }
  return toSendResponse(message, duplicate);
}

/**
 * `message person-sent` **[ours]** (capability `message.person`; the contract is
 * `BrigadeService.personSent`): the latest `limit` (1..200) messages the caller's principal sent
 * in the team, as a person or from any of its sessions, newest first, with their states. Only
 * the principal's own messages: nobody else's listing ever holds them.
 */
export async function personSent(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  limit: number,
): Promise<PersonSentResult> {
  if (!isReceiveLimit(limit)) fail(receiveLimitError());
  return ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    const rows = await tx.sentByPrincipal(teamRef, principalRef, limit);
    const now = ctx.deps.now();
    return { messages: rows.map((row) => personRecord(row, principalRef, now)) };
  });
}

function personRecord(row: PrincipalSentRow, principalRef: string, now: number): PersonSentRecord {
  const record = toStateRecord(row, now);
  return row.sender_session_id === principalRef
    ? { ...record, sender: "person" }
    : { ...record, sender: "session", sender_session_id: row.sender_session_id };
}
