import type { Attachment } from "../../formats/attachments/index.ts";
import { build, type Instruction, wrap } from "../../formats/frame/index.ts";
import { noticeName, oneLine, sanitizeId } from "../../formats/sanitize/index.ts";
import type { InboundPolicy } from "../../protocol/index.ts";
import { INBOUND_LIMITS } from "./inbound-limits.ts";
import { type InboundMessage, senderDisplayName } from "./inbound-message.ts";
import type { PendingRecord, PendingStore, SeenStore } from "./inbound-stores.ts";
import { type InboundRejectionReason, looseValidate } from "./loose-validation.ts";
import { LruSet } from "./lru-set.ts";
import { dropNotice, rateNotice } from "./notices.ts";
import { type FetchedMessage, SenderWaitLists } from "./sender-wait-lists.ts";

/**
 * What {@link InboundPipeline.offer} did with a candidate: `rejected` (step 1), `duplicate`
 * (step 2, already injected: ack it), `ignored` (step 2, already queued or handed out; or step 3,
 * already held), `refused` (step 3), `held` (step 3), `behind` (an earlier message of the same
 * sender waits on the server: this one waits too, so the sender's order holds), `rate_limited`
 * (step 4), `deferred_identical` (step 5), `queued` (step 6). Only `duplicate` is acknowledged.
 *
 * @example INBOUND_OUTCOMES.length === 9
 */
export const INBOUND_OUTCOMES = [
  "rejected",
  "duplicate",
  "ignored",
  "refused",
  "held",
  "behind",
  "rate_limited",
  "deferred_identical",
  "queued",
] as const;

/** One outcome of {@link InboundPipeline.offer}. */
export type InboundOutcome = (typeof INBOUND_OUTCOMES)[number];

/**
 * The result of {@link InboundPipeline.offer}. `ack` is true only for `duplicate`: the caller
 * acks `messageId` then. A `queued` result may name the oldest message the full queue `evicted`
 * (left unacked, the server delivers it again).
 *
 * @example const r = pipeline.offer(envelope); if (r.ack) adapter.ack(r.messageId);
 */
export type OfferResult =
  | { readonly outcome: "rejected"; readonly ack: false; readonly reason: InboundRejectionReason }
  | { readonly outcome: "duplicate"; readonly ack: true; readonly messageId: string }
  | {
      readonly outcome: "queued";
      readonly ack: false;
      readonly messageId: string;
      readonly evicted?: string;
    }
  | {
      readonly outcome:
        | "ignored"
        | "refused"
        | "held"
        | "behind"
        | "rate_limited"
        | "deferred_identical";
      readonly ack: false;
      readonly messageId: string;
    };

/**
 * One item handed out by {@link InboundPipeline.next}. A notice is one line of Brigade's own text
 * (`Brigade: …`); a message carries the bare `frame` and the `text` to deliver: the frame wrapped
 * by `wrap` (delivery `socket`) or the bare frame (delivery `poll`; the printer puts
 * `POLL_PREAMBLE` on the line before it, docs/spec/formats.md §2.9), with the manifest of the
 * files the receiver wrote for it after the body. A `files` item is a message whose attachments
 * are not received yet: nothing of it may be delivered; the caller receives them
 * (`receiveAttachments`) and gives them with {@link InboundPipeline.provideFiles}, after which
 * the same message comes out framed; or, when that failed, takes it with `next` and reports
 * `done(item, error)` (left unacked: the server delivers it again).
 *
 * @example if (item.kind === "message") post(item.text);
 */
export type InboundItem =
  | { readonly kind: "notice"; readonly notice: "rate" | "drop"; readonly text: string }
  | { readonly kind: "files"; readonly message: InboundMessage }
  | {
      readonly kind: "message";
      readonly message: InboundMessage;
      readonly frame: string;
      readonly text: string;
    };

/**
 * The result of {@link InboundPipeline.done}: `ack` true only after a successful injection of a
 * message handed out; `persisted` false when the seen store failed (the id is still remembered
 * in memory and the message is still acked).
 *
 * @example const d = pipeline.done(item); if (d.ack) adapter.ack(d.messageId);
 */
export type DoneResult =
  | { readonly ack: true; readonly messageId: string; readonly persisted: boolean }
  | { readonly ack: false };

/** How delivered text is shaped: wrapped for the inbox socket, bare for poll output. */
export type InboundDelivery = "socket" | "poll";

/** Construction options of {@link InboundPipeline}. */
export interface InboundPipelineOptions {
  /** The clock, ms since the epoch (tests pass a fake). */
  readonly now: () => number;
  /** SHA-256 of the raw body as hex (injected so this module stays pure; any stable digest works). */
  readonly hashBody: (body: string) => string;
  /** The seen-set persisted for OUR session id. */
  readonly seen: SeenStore;
  /** Where pending records are saved after every change; none → memory only. */
  readonly pendingStore?: PendingStore;
  /** Pending records loaded from an earlier run (bodies were never stored: they wait for redelivery). */
  readonly pendingRecords?: readonly PendingRecord[];
  readonly policy: InboundPolicy;
  /** The human team name printed in the frame. */
  readonly teamName: string;
  /** The session's frame level (and custom clause). */
  readonly instruction: Instruction;
  readonly delivery: InboundDelivery;
}

interface RaisedNotice {
  readonly name: string;
  /** The notice waits until every message queued before it was raised is handed out. */
  readonly afterSeq: number;
}

interface IdenticalEntry {
  readonly firstAt: number;
  readonly messageId: string;
}

/** At this many keys a per-sender map is swept of stale entries (and, for senders, capped). */
const SWEEP_THRESHOLD = INBOUND_LIMITS.senders;

/**
 * The inbound pipeline of docs/spec/claude-code.md §7.5, shared by the watcher (socket) and the
 * prompt-hook poll: pure, clock and body hash injected, one instance per Brigade session of ours.
 *
 * 1. `offer(candidate)` runs steps 1–6: loose validation (plus the safe-id rule), dedupe (LRU of
 *    2,000 + the seen store), policy (`refuse` → nothing; `hold` → a pending record, cap 100),
 *    per-sender bucket (10 per sliding 60 s), identical body (same sender + digest within 60 s),
 *    bounded queue (50, oldest dropped).
 * 2. `next()` hands out rate notices first, then the drop notice, then the oldest message, framed.
 * 3. `done(item, error?)` reports the injection: success records the id and says "ack"; failure
 *    forgets the message (the server redelivers it).
 *
 * Nothing but `duplicate` offers and successful `done` calls is ever acknowledged.
 *
 * @example
 * const p = new InboundPipeline({ now: Date.now, hashBody, seen, policy: "accept", teamName: "core", instruction: { level: "open", custom: "" }, delivery: "socket" });
 * p.offer(envelope); const item = p.next(); if (item) { post(item.text); const d = p.done(item); }
 */
export class InboundPipeline {
  readonly #now: () => number;
  readonly #hashBody: (body: string) => string;
  readonly #seen: SeenStore;
  readonly #pendingStore: PendingStore | undefined;
  readonly #teamName: string;
  readonly #instruction: Instruction;
  readonly #delivery: InboundDelivery;
  #policy: InboundPolicy;

  readonly #recent = new LruSet(INBOUND_LIMITS.seenCap);
  readonly #queue: { readonly message: InboundMessage; readonly seq: number }[] = [];
  #seq = 0;
  /**
   * Per sender session, its messages left unacked on the server, oldest first: while any waits,
   * a newer one of that sender waits behind it (docs/41-watcher.md "One sender's order").
   */
  readonly #waiting = new SenderWaitLists({
    perSender: INBOUND_LIMITS.waitingPerSender,
    senders: INBOUND_LIMITS.senders,
  });
  readonly #queuedIds = new Set<string>();
  readonly #handedOut = new Set<string>();
  readonly #pending = new Map<string, PendingRecord>();
  readonly #held = new Map<string, InboundMessage>();
  readonly #released = new Set<string>();
  /** The received files of messages that name attachments, by message id. */
  readonly #files = new Map<string, readonly Attachment[]>();
  readonly #senderAccepts = new Map<string, number[]>();
  readonly #identical = new Map<string, IdenticalEntry>();
  readonly #rateNotices = new Map<string, RaisedNotice>();
  readonly #rateRaisedAt = new Map<string, number>();
  #dropNotice: Set<string> | undefined;
  #dropRaisedAt: number | undefined;

  constructor(options: InboundPipelineOptions) {
    this.#now = options.now;
    this.#hashBody = options.hashBody;
    this.#seen = options.seen;
    this.#pendingStore = options.pendingStore;
    this.#teamName = options.teamName;
    this.#instruction = options.instruction;
    this.#delivery = options.delivery;
    this.#policy = options.policy;
    for (const record of options.pendingRecords ?? []) {
      this.#pending.set(record.message_id, record);
    }
    this.#trimPending();
  }

  /** The effective inbound policy. */
  get policy(): InboundPolicy {
    return this.#policy;
  }

  /**
   * Changes the policy (e.g. after a settings scan); held messages stay held until released.
   * Messages still waiting in the step-6 queue follow the new policy at once, so nothing is posted
   * (and acked) after the user turned delivery off: under `refuse` they leave the queue unacked
   * (the server keeps them), under `hold` they become pending records like step 3 — except those
   * the user released, which stay queued under `hold`. Items already handed out are not recalled.
   * Returns the ids taken out of the queue. Back to `accept`, nothing comes back by itself: the
   * caller fetches the unacknowledged messages again.
   *
   * @example pipeline.setPolicy("refuse") // ["m-2", "m-3"]
   */
  setPolicy(policy: InboundPolicy): string[] {
    this.#policy = policy;
    if (policy === "accept") return [];
    // Nothing is delivered now; back to `accept` a fetch offers every unacked message again,
    // oldest first, so each sender's order is rebuilt from there.
    this.#waiting.clear();
    const withdrawn: InboundMessage[] = [];
    const kept = this.#queue.filter(({ message }) => {
      if (policy === "hold" && this.#released.has(message.message_id)) return true;
      withdrawn.push(message);
      return false;
    });
    this.#queue.splice(0, this.#queue.length, ...kept);
    for (const message of withdrawn) {
      this.#queuedIds.delete(message.message_id);
      if (policy === "hold") this.#hold(message);
    }
    return withdrawn.map((message) => message.message_id);
  }

  /** Messages waiting in the step-6 queue. */
  get queued(): number {
    return this.#queue.length;
  }

  /** The pending (held) records, oldest first. */
  pendingRecords(): PendingRecord[] {
    return [...this.#pending.values()];
  }

  /**
   * Runs one candidate (a watch `message` event's envelope or one received envelope, untyped)
   * through steps 1–6. See {@link OfferResult}; only `duplicate` asks for an ack.
   *
   * @example pipeline.offer(JSON.parse(line).message)
   */
  offer(candidate: unknown): OfferResult {
    const validated = looseValidate(candidate);
    if (!validated.ok) return { outcome: "rejected", ack: false, reason: validated.reason };
    const message = validated.message;
    const messageId = message.message_id;
    // Step 2: dedupe.
    if (this.#recent.has(messageId) || this.#seen.has(messageId)) {
      this.#recent.add(messageId);
      this.#stopWaiting(message.sender.session_id, messageId);
      return { outcome: "duplicate", ack: true, messageId };
    }
    if (this.#queuedIds.has(messageId) || this.#handedOut.has(messageId)) {
      return { outcome: "ignored", ack: false, messageId };
    }
    // Step 3: policy. A message taken over from an earlier session waits for its user whatever
    // the policy says.
    if (this.#pending.get(messageId)?.adopted === true) {
      if (!this.#held.has(messageId)) this.#held.set(messageId, message);
      return { outcome: "ignored", ack: false, messageId };
    }
    if (this.#policy === "refuse") return { outcome: "refused", ack: false, messageId };
    if (this.#released.has(messageId)) return this.#enqueue(message);
    if (this.#policy === "hold") {
      if (this.#pending.has(messageId)) {
        if (!this.#held.has(messageId)) this.#held.set(messageId, message);
        return { outcome: "ignored", ack: false, messageId };
      }
      this.#hold(message);
      return { outcome: "held", ack: false, messageId };
    }
    if (this.#pending.has(messageId)) {
      // The policy became `accept` while this message was held: it takes the normal path.
      this.#pending.delete(messageId);
      this.#held.delete(messageId);
      this.#savePending();
    }
    const now = this.#now();
    this.#sweep(now);
    const senderId = message.sender.session_id;
    // The sender's order: only its oldest waiting message may go on; a newer one waits behind.
    if (this.#waiting.blocks(senderId, messageId)) {
      this.#waiting.add(senderId, messageId);
      return { outcome: "behind", ack: false, messageId };
    }
    // Step 4: per-sender bucket.
    const bucket = this.#acceptFromSender(senderId, now);
    if (bucket !== "accepted") {
      this.#setAside(senderId, messageId);
      // Only a sender over its own bucket is named in a notice; running out of sender slots is
      // the watcher's limit, not the sender's doing.
      if (bucket === "over_bucket") this.#raiseRateNotice(senderId, message, now);
      return { outcome: "rate_limited", ack: false, messageId };
    }
    // Step 5: identical body.
    const key = `${senderId}\n${this.#hashBody(message.body)}`;
    const first = this.#identical.get(key);
    if (first !== undefined && now - first.firstAt < INBOUND_LIMITS.identicalWindowMs) {
      if (first.messageId !== messageId) {
        this.#setAside(senderId, messageId);
        return { outcome: "deferred_identical", ack: false, messageId };
      }
    } else {
      this.#identical.set(key, { firstAt: now, messageId });
    }
    this.#stopWaiting(senderId, messageId);
    return this.#enqueue(message);
  }

  /**
   * A fetch of the unacknowledged messages answered `fetched` (oldest first); call it before
   * offering them. When it was `complete` (fewer than its limit), a waiting id it did not return
   * is no longer on the server (acked elsewhere, expired): it stops holding its sender's newer
   * messages back. A sender whose waiting list overflowed its cap gets the fetched ids listed
   * again, oldest first (see `SenderWaitLists.refetched`).
   *
   * @example pipeline.refetched([{ messageId: "m-3", senderId: "s-a" }], true);
   */
  refetched(fetched: readonly FetchedMessage[], complete: boolean): void {
    this.#waiting.refetched(
      fetched,
      complete,
      (id) =>
        !this.#queuedIds.has(id) &&
        !this.#handedOut.has(id) &&
        !this.#recent.has(id) &&
        !this.#seen.has(id),
    );
  }

  /**
   * How many messages of `senderId` wait on the server, as far as this pipeline knows.
   *
   * @example pipeline.waitingFrom("s-a") === 51
   */
  waitingFrom(senderId: string): number {
    return this.#waiting.count(senderId);
  }

  /** Senders with a waiting list now (at most `INBOUND_LIMITS.senders`). */
  get waitingSenders(): number {
    return this.#waiting.senders;
  }

  /**
   * Holds a message this session took over from an earlier session of its checkout (capability
   * `message.adopt`): after step 1 (validation) and step 2 (an id already injected is a
   * `duplicate`, to ack), it becomes a pending record marked `adopted`, held whatever the policy
   * until the user releases it (`release`). Returns `held` (or `ignored` when already held).
   *
   * @example pipeline.adopt(envelope).outcome === "held"
   */
  adopt(candidate: unknown): OfferResult {
    const validated = looseValidate(candidate);
    if (!validated.ok) return { outcome: "rejected", ack: false, reason: validated.reason };
    const message = validated.message;
    const messageId = message.message_id;
    if (this.#recent.has(messageId) || this.#seen.has(messageId)) {
      return { outcome: "duplicate", ack: true, messageId };
    }
    if (this.#pending.get(messageId)?.adopted === true) {
      return { outcome: "ignored", ack: false, messageId };
    }
    this.#hold(message, true);
    return { outcome: "held", ack: false, messageId };
  }

  /**
   * Releases held messages (a terminal `brigade inbox release`, read from the release file): each
   * id that is pending leaves the pending list and re-enters at step 6, skipping steps 4–5 — now
   * if its envelope is in memory, else when the server delivers it again. Ids not pending are
   * ignored. Returns how many were released.
   *
   * @example pipeline.release(["m-1", "m-2"]) === 2
   */
  release(ids: Iterable<string>): number {
    let released = 0;
    for (const id of ids) {
      if (!this.#pending.has(id)) continue;
      this.#pending.delete(id);
      released += 1;
      const message = this.#held.get(id);
      this.#held.delete(id);
      if (this.#recent.has(id) || this.#seen.has(id)) continue;
      this.#released.add(id);
      while (this.#released.size > INBOUND_LIMITS.pendingCap) {
        const oldest = this.#released.values().next();
        if (oldest.done === true) break;
        this.#released.delete(oldest.value);
      }
      if (message !== undefined && this.#policy !== "refuse") this.#enqueue(message);
    }
    if (released > 0) this.#savePending();
    return released;
  }

  /**
   * Gives the files the receiver wrote and verified for `messageId` (`receiveAttachments`, in
   * the message's order): the message's frame then lists them in its manifest. Kept until the
   * message is delivered (a message given back to the server meets them again); at most
   * `INBOUND_LIMITS.pendingCap` messages' files are remembered, oldest forgotten first.
   *
   * @example pipeline.provideFiles("m-1", received.files)
   */
  provideFiles(messageId: string, files: readonly Attachment[]): void {
    this.#files.delete(messageId);
    this.#files.set(messageId, files);
    while (this.#files.size > INBOUND_LIMITS.pendingCap) {
      const oldest = this.#files.keys().next();
      if (oldest.done === true) break;
      this.#files.delete(oldest.value);
    }
  }

  /**
   * The item {@link next} would hand out, without handing it out (so a pacer can look at its
   * bytes first). `undefined` when nothing waits.
   *
   * @example const head = pipeline.peek();
   */
  peek(): InboundItem | undefined {
    return this.#head();
  }

  /**
   * Hands out the next item: rate notices first (oldest sender first), then the drop notice, then
   * the oldest queued message, framed at the session's level. Every message item must be
   * reported back with {@link done}.
   *
   * @example for (let item = pipeline.next(); item; item = pipeline.next()) inject(item);
   */
  next(): InboundItem | undefined {
    const item = this.#head();
    if (item === undefined) return undefined;
    if (item.kind === "notice") {
      if (item.notice === "rate") {
        const rate = this.#eligibleRate();
        if (rate !== undefined) this.#rateNotices.delete(rate.sender);
      } else {
        this.#dropNotice = undefined;
      }
      return item;
    }
    this.#queue.shift();
    this.#queuedIds.delete(item.message.message_id);
    this.#handedOut.add(item.message.message_id);
    return item;
  }

  /**
   * Reports the injection of an item handed out by {@link next}. Success (`error` undefined)
   * records the message id (in memory and in the seen store) and answers `ack: true`; a failure
   * forgets the message unacked (the server delivers it again). Notices are never acked; a notice
   * that failed is not retried.
   *
   * @example const d = pipeline.done(item, postError); if (d.ack) adapter.ack(d.messageId);
   */
  done(item: InboundItem, error?: unknown): DoneResult {
    if (item.kind === "notice") return { ack: false };
    const messageId = item.message.message_id;
    if (!this.#handedOut.delete(messageId)) return { ack: false };
    // A message whose files were never received was not delivered, whatever the caller says.
    if (error !== undefined || item.kind === "files") {
      // It goes back to the server ahead of everything its sender still has here.
      this.#putBack(item.message);
      return { ack: false };
    }
    this.#released.delete(messageId);
    this.#files.delete(messageId);
    this.#recent.add(messageId);
    let persisted = true;
    try {
      this.#seen.add(messageId);
    } catch {
      persisted = false;
    }
    return { ack: true, messageId, persisted };
  }

  #head(): InboundItem | undefined {
    const rate = this.#eligibleRate();
    if (rate !== undefined) {
      return { kind: "notice", notice: "rate", text: rateNotice(rate.name, rate.count) };
    }
    const drop = this.#eligibleDrop();
    if (drop !== undefined) return { kind: "notice", notice: "drop", text: dropNotice(drop) };
    const entry = this.#queue[0];
    if (entry === undefined) return undefined;
    let files: readonly Attachment[] = [];
    if (entry.message.attachments !== undefined && entry.message.attachments.length > 0) {
      const received = this.#files.get(entry.message.message_id);
      if (received === undefined) return { kind: "files", message: entry.message };
      files = received;
    }
    const frame = build(entry.message, this.#teamName, this.#instruction, files);
    const text =
      this.#delivery === "socket" ? wrap(frame, senderDisplayName(entry.message)) : frame;
    return { kind: "message", message: entry.message, frame, text };
  }

  #enqueue(message: InboundMessage): OfferResult {
    this.#seq += 1;
    this.#queue.push({ message, seq: this.#seq });
    this.#queuedIds.add(message.message_id);
    if (this.#queue.length <= INBOUND_LIMITS.queueCap) {
      return { outcome: "queued", ack: false, messageId: message.message_id };
    }
    const oldest = this.#queue[0] as { readonly message: InboundMessage };
    const evicted = oldest.message.message_id;
    const withdrawn = this.#putBack(oldest.message);
    for (const id of [evicted, ...withdrawn]) this.#raiseDropNotice(id, this.#now());
    if (this.#queuedIds.has(message.message_id)) {
      return { outcome: "queued", ack: false, messageId: message.message_id, evicted };
    }
    // The new message was its sender's: it now waits behind the one evicted.
    return { outcome: "behind", ack: false, messageId: message.message_id };
  }

  /**
   * The first rate notice that may be handed out: every message queued before it was raised has
   * been handed out, and its count is what its sender has waiting now. A notice with nothing left
   * to announce is dropped.
   */
  #eligibleRate(): { sender: string; name: string; count: number } | undefined {
    const headSeq = this.#queue[0]?.seq ?? Number.POSITIVE_INFINITY;
    for (const [sender, raised] of this.#rateNotices) {
      if (raised.afterSeq >= headSeq) continue;
      const count = this.waitingFrom(sender);
      if (count > 0) return { sender, name: raised.name, count };
      this.#rateNotices.delete(sender);
    }
    return undefined;
  }

  /** The drop notice's count: its messages that still wait on the server (none → no notice). */
  #eligibleDrop(): number | undefined {
    const drop = this.#dropNotice;
    if (drop === undefined) return undefined;
    const count = [...drop].filter((id) => this.#isWaiting(id)).length;
    if (count > 0) return count;
    this.#dropNotice = undefined;
    return undefined;
  }

  /** Marks `messageId` of `senderId` as left on the server, behind its sender's waiting ones. */
  #setAside(senderId: string, messageId: string): void {
    this.#waiting.add(senderId, messageId);
  }

  /**
   * Leaves `message` to the server ahead of its sender's other messages: it goes first in the
   * sender's waiting list, and the sender's messages still queued here (all newer) leave the
   * queue and wait behind it, so none of them overtakes it.
   */
  #putBack(message: InboundMessage): string[] {
    const senderId = message.sender.session_id;
    const withdrawn: string[] = [];
    const kept = this.#queue.filter((entry) => {
      if (entry.message.sender.session_id !== senderId) return true;
      if (entry.message.message_id !== message.message_id) {
        withdrawn.push(entry.message.message_id);
      }
      return false;
    });
    this.#queue.splice(0, this.#queue.length, ...kept);
    this.#queuedIds.delete(message.message_id);
    for (const id of withdrawn) this.#queuedIds.delete(id);
    this.#waiting.putFirst(senderId, [message.message_id, ...withdrawn]);
    return withdrawn;
  }

  #stopWaiting(senderId: string, messageId: string): void {
    this.#waiting.remove(senderId, messageId);
  }

  #isWaiting(messageId: string): boolean {
    return this.#waiting.has(messageId);
  }

  #hold(message: InboundMessage, adopted = false): void {
    const record: PendingRecord = {
      message_id: message.message_id,
      sender_name: noticeName(senderDisplayName(message)),
      sender_session_id: message.sender.session_id,
      principal_ref: sanitizeId(message.sender.principal_ref),
      summary: oneLine(message.summary ?? "", 200),
      created_at: oneLine(message.created_at, 64),
      held_at: this.#now(),
      ...(adopted ? { adopted: true as const } : {}),
      ...(message.attachments === undefined || message.attachments.length === 0
        ? {}
        : {
            files: message.attachments.map((a) => ({ name: oneLine(a.name, 100), size: a.size })),
          }),
    };
    this.#pending.delete(message.message_id);
    this.#pending.set(message.message_id, record);
    this.#held.set(message.message_id, message);
    this.#trimPending();
    this.#savePending();
  }

  #trimPending(): void {
    while (this.#pending.size > INBOUND_LIMITS.pendingCap) {
      const oldest = this.#pending.keys().next();
      if (oldest.done === true) break;
      this.#pending.delete(oldest.value);
      this.#held.delete(oldest.value);
    }
  }

  #savePending(): void {
    try {
      this.#pendingStore?.save(this.pendingRecords());
    } catch {
      // The list in memory stays right and the next change writes it whole; a failing disk must
      // not stop delivery or lose a release.
    }
  }

  #acceptFromSender(
    senderId: string,
    now: number,
  ): "accepted" | "over_bucket" | "too_many_senders" {
    const since = now - INBOUND_LIMITS.senderWindowMs;
    const known = this.#senderAccepts.get(senderId);
    // Too many senders within one window: a new one waits on the server, like one over its bucket.
    if (known === undefined && this.#senderAccepts.size >= INBOUND_LIMITS.senders) {
      return "too_many_senders";
    }
    const times = (known ?? []).filter((t) => t > since);
    if (times.length >= INBOUND_LIMITS.senderLimit) {
      this.#senderAccepts.set(senderId, times);
      return "over_bucket";
    }
    times.push(now);
    this.#senderAccepts.set(senderId, times);
    return "accepted";
  }

  #raiseRateNotice(senderId: string, message: InboundMessage, now: number): void {
    if (this.#rateNotices.has(senderId)) return;
    const last = this.#rateRaisedAt.get(senderId);
    // Past the senders cap a notice is skipped; its messages still wait on the server.
    if (last === undefined && this.#rateRaisedAt.size >= INBOUND_LIMITS.senders) return;
    if (last !== undefined && now - last < INBOUND_LIMITS.noticeIntervalMs) return;
    this.#rateRaisedAt.set(senderId, now);
    this.#rateNotices.set(senderId, { name: senderDisplayName(message), afterSeq: this.#seq });
  }

  #raiseDropNotice(messageId: string, now: number): void {
    if (this.#dropNotice !== undefined) {
      if (this.#dropNotice.size < INBOUND_LIMITS.dropNoticeIds) this.#dropNotice.add(messageId);
      return;
    }
    if (
      this.#dropRaisedAt !== undefined &&
      now - this.#dropRaisedAt < INBOUND_LIMITS.noticeIntervalMs
    ) {
      return;
    }
    this.#dropRaisedAt = now;
    this.#dropNotice = new Set([messageId]);
  }

  /** Forgets per-sender state nobody can need any more, once a map grows large. */
  #sweep(now: number): void {
    if (this.#senderAccepts.size >= SWEEP_THRESHOLD) {
      for (const [sender, times] of this.#senderAccepts) {
        if (times.every((t) => t <= now - INBOUND_LIMITS.senderWindowMs)) {
          this.#senderAccepts.delete(sender);
        }
      }
    }
    if (this.#identical.size >= SWEEP_THRESHOLD) {
      for (const [key, entry] of this.#identical) {
        if (now - entry.firstAt >= INBOUND_LIMITS.identicalWindowMs) this.#identical.delete(key);
      }
    }
    if (this.#rateRaisedAt.size >= SWEEP_THRESHOLD) {
      for (const [sender, at] of this.#rateRaisedAt) {
        if (now - at >= INBOUND_LIMITS.noticeIntervalMs) this.#rateRaisedAt.delete(sender);
      }
    }
  }
}
