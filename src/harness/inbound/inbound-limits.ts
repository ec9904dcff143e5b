/**
 * The inbound pipeline's fixed limits (docs/spec/claude-code.md §7.5). Units are in the names:
 * bytes, ms or a count of messages.
 *
 * @example INBOUND_LIMITS.queueCap === 50
 */
export const INBOUND_LIMITS: {
  /** Step 1: `message_id` at most 200 UTF-8 bytes. */
  readonly maxMessageIdBytes: 200;
  /** [ours] Step 1: `sender.principal_ref` at most 200 UTF-8 bytes (the frame's tag holds it). */
  readonly maxPrincipalRefBytes: 200;
  /** Step 1: body at most 16,384 UTF-8 bytes. */
  readonly maxBodyBytes: 16_384;
  /** Files one message may name (`message.attachments`, the manifest's maximum). */
  readonly maxAttachments: 10;
  /** Bytes of one named file (25 MiB, the capability's per-file ceiling). */
  readonly maxAttachmentBytes: 26_214_400;
  /** Step 2: ids remembered in memory (and in the seen file). */
  readonly seenCap: 2_000;
  /** Step 3: pending (held) records kept; the oldest is evicted beyond this. */
  readonly pendingCap: 100;
  /** Step 4: messages accepted per sender session per sliding window. */
  readonly senderLimit: 10;
  /** Step 4: the sliding window, ms. */
  readonly senderWindowMs: 60_000;
  /** Step 4 and 6: at most one notice of a kind (per sender for step 4) per this many ms. */
  readonly noticeIntervalMs: 300_000;
  /** Step 5: same sender and body within this many ms of the first → deferred. */
  readonly identicalWindowMs: 60_000;
  /** Step 6: pending injections; a full queue drops its oldest. */
  readonly queueCap: 50;
  /**
   * [ours] Ids of one sender listed as waiting on the server; newer ones stay there unlisted and
   * come back by fetch, in order (docs/41-watcher.md "Bounded memory").
   */
  readonly waitingPerSender: 100;
  /**
   * [ours] Senders with per-sender state (waiting list, bucket, notice time); a message of a
   * sender beyond this is left on the server, unacked, and comes back by fetch.
   */
  readonly senders: 1_024;
  /** [ours] Evicted ids the drop notice counts; beyond this it counts no more. */
  readonly dropNoticeIds: 100;
} = {
  maxMessageIdBytes: 200,
  maxPrincipalRefBytes: 200,
  maxBodyBytes: 16_384,
  maxAttachments: 10,
  maxAttachmentBytes: 26_214_400,
  seenCap: 2_000,
  pendingCap: 100,
  senderLimit: 10,
  senderWindowMs: 60_000,
  noticeIntervalMs: 300_000,
  identicalWindowMs: 60_000,
  queueCap: 50,
  waitingPerSender: 100,
  senders: 1_024,
  dropNoticeIds: 100,
};
