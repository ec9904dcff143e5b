import type { TranscriptDeliveryLine } from "../claude-code/index.ts";
import type { InboundItem } from "../inbound/index.ts";
import { isSafeId, LruSet } from "../inbound/index.ts";

/** A message item handed out by the inbound pipeline. */
export type MessageItem = Extract<InboundItem, { readonly kind: "message" }>;

/**
 * The waits and caps of {@link DeliveryConfirmations} (docs/41-watcher.md "Acked means in the
 * conversation"):
 *
 * - `waitMs` (10 s): the least time a post is given to show up before it can count as missing;
 * - `settleMs` (2 s): a post counts as missing only once the session was seen idle this long after
 *   it (Claude Code takes a post into the conversation when it starts a turn or between tool
 *   calls, and an idle session has taken everything it admitted);
 * - `maxWaitMs` (5 min): a post neither admitted nor held nor in the conversation is missing after
 *   this long even in a session that never turns idle (a headless `-p` run);
 * - `attempts` (3): posts of one message before it is given up (left unacked on the server);
 * - `seenCap` (2,000): frame tags remembered from the transcript (in the conversation, admitted),
 *   and ids named by Claude Code's held lines, each an LRU;
 * - `tagMaxChars` (4,096): a longer open tag in the transcript is not one of our frames' (theirs
 *   are a few hundred characters) and is not remembered, so a hostile transcript cannot fill the
 *   LRUs with megabyte-long "tags".
 */
export const CONFIRMATION_LIMITS: {
  readonly waitMs: number;
  readonly settleMs: number;
  readonly maxWaitMs: number;
  readonly attempts: number;
  readonly seenCap: number;
  readonly tagMaxChars: number;
} = {
  waitMs: 10_000,
  settleMs: 2_000,
  maxWaitMs: 300_000,
  attempts: 3,
  seenCap: 2_000,
  tagMaxChars: 4_096,
};

/** An id as Claude Code's held line names it (`message-id=<id> `); only a safe id can be ours. */
const HELD_ID = /message-id=(\S{1,64}) /g;

interface Tracked {
  readonly item: MessageItem;
  readonly tag: string;
  postedAt: number;
  attempts: number;
  held: boolean;
}

/** What {@link DeliveryConfirmations.takeMissing} found. */
export interface MissingPosts {
  /** Missing, with attempts left: post them again (oldest first). */
  readonly repost: readonly MessageItem[];
  /** Missing after the last attempt: no longer tracked; the caller reports them unacked. */
  readonly givenUp: readonly MessageItem[];
}

/**
 * The first line of a frame: the tag that finds the message in the transcript.
 *
 * @example frameTag(item.frame) // '<brigade-message team="core" message-id="m-1" …>'
 */
export function frameTag(frame: string): string {
  const end = frame.indexOf("\n");
  return end < 0 ? frame : frame.slice(0, end);
}

/**
 * Which posted messages are in the recipient's conversation (docs/41-watcher.md "Acked means in
 * the conversation"). The watcher acks a message only once its frame's open-tag line shows up in
 * a conversation entry of Claude Code's transcript ({@link observe}); until then it stays handed
 * out and unacked. A post Claude Code admitted into its queue (`enqueued`) is waited for; one it
 * holds for a dialog (`held`) is waited for and reported, never posted again; one that shows up
 * nowhere is missing ({@link takeMissing}): posted again up to `attempts` times, then given up.
 * Also keeps Claude Code's queue depth as the transcript tells it ({@link queueDepth}).
 * Pure: no clock, no I/O; every call takes the caller's `now` (ms).
 *
 * @example
 * confirmations.posted(item, now);
 * for (const line of newLines) confirmations.observe(parseTranscriptDeliveryLine(line));
 * for (const done of confirmations.takeConfirmed()) ack(done.message.message_id);
 */
export class DeliveryConfirmations {
  readonly #limits: typeof CONFIRMATION_LIMITS;
  readonly #tracked = new Map<string, Tracked>();
  readonly #inConversation: LruSet;
  readonly #enqueued: LruSet;
  readonly #confirmed: MessageItem[] = [];
  readonly #newlyHeld: MessageItem[] = [];
  /** Ids Claude Code's held lines named (only the ids: a line can be a MiB of text). */
  readonly #heldIds: LruSet;
  #depth: number | undefined = 0;
  #permissionMode: string | undefined;

  constructor(limits: typeof CONFIRMATION_LIMITS = CONFIRMATION_LIMITS) {
    this.#limits = limits;
    this.#inConversation = new LruSet(limits.seenCap);
    this.#enqueued = new LruSet(limits.seenCap);
    this.#heldIds = new LruSet(limits.seenCap);
  }

  /** Messages posted and not yet confirmed or given up. */
  get pending(): number {
    return this.#tracked.size;
  }

  /** Tracked messages Claude Code holds for a dialog. */
  get held(): number {
    let held = 0;
    for (const tracked of this.#tracked.values()) if (tracked.held) held += 1;
    return held;
  }

  /**
   * Posts written and not yet seen admitted, held or in the conversation: while one is, a later
   * message could overtake it (its repost after a drop), so the delivery loop posts nothing new
   * (docs/41-watcher.md "One sender's order"). A post found only waiting in Claude Code's queue
   * (a successor's redrive) is admitted.
   */
  get unadmitted(): number {
    let count = 0;
    for (const tracked of this.#tracked.values()) {
      if (tracked.attempts > 0 && !tracked.held && !this.#enqueued.has(tracked.tag)) count += 1;
    }
    return count;
  }

  /** Whether `item` is still tracked: posted, and neither confirmed nor given up. */
  tracks(item: MessageItem): boolean {
    return this.#tracked.has(item.message.message_id);
  }

  /**
   * Posts Claude Code holds in its queue as the transcript tells it (enqueued minus taken), or
   * `undefined` once the reader passed bytes over or started over ({@link gap}).
   */
  get queueDepth(): number | undefined {
    return this.#depth;
  }

  /**
   * {@link queueDepth} only while it counts every post written so far: `undefined` while a post is
   * {@link unadmitted} (the transcript has not shown it yet, so a depth read now is short by it,
   * however long ago it was written: a loaded machine reads the transcript late). What bounds the
   * pacer's outstanding count.
   */
  get settledQueueDepth(): number | undefined {
    return this.unadmitted === 0 ? this.#depth : undefined;
  }

  /** The session's latest permission mode the transcript named, if any. */
  get permissionMode(): string | undefined {
    return this.#permissionMode;
  }

  /**
   * Where `item` already is: `conversation` (its frame is in the transcript's conversation: ack it,
   * post nothing), `enqueued` (Claude Code admitted it and will take it: wait, post nothing), or
   * `unknown`. A successor watcher's redrive meets its predecessor's posts this way.
   */
  whereIs(item: MessageItem): "conversation" | "enqueued" | "unknown" {
    const tag = frameTag(item.frame);
    if (this.#inConversation.has(tag)) return "conversation";
    return this.#enqueued.has(tag) ? "enqueued" : "unknown";
  }

  /** Records a post of `item` at `now` (or, without a post, that it waits in Claude Code's queue). */
  posted(item: MessageItem, now: number, options: { readonly written?: boolean } = {}): void {
    const id = item.message.message_id;
    const tracked = this.#tracked.get(id);
    const written = options.written ?? true;
    if (tracked !== undefined) {
      tracked.postedAt = now;
      if (written) tracked.attempts += 1;
      return;
    }
    const tag = frameTag(item.frame);
    this.#tracked.set(id, { item, tag, postedAt: now, attempts: written ? 1 : 0, held: false });
    if (this.#inConversation.has(tag)) this.#confirm(id);
  }

  /** Takes one parsed transcript line (`undefined` lines are ignored). */
  observe(line: TranscriptDeliveryLine | undefined): void {
    if (line === undefined) return;
    switch (line.kind) {
      case "conversation":
        for (const tag of line.tags) {
          if (tag.length > this.#limits.tagMaxChars) continue;
          this.#inConversation.add(tag);
          for (const [id, tracked] of this.#tracked) if (tracked.tag === tag) this.#confirm(id);
        }
        return;
      case "enqueued":
        for (const tag of line.tags) {
          if (tag.length <= this.#limits.tagMaxChars) this.#enqueued.add(tag);
        }
        if (this.#depth !== undefined) this.#depth += 1;
        return;
      case "dequeued":
        if (this.#depth !== undefined) this.#depth = Math.max(0, this.#depth - 1);
        return;
      case "held":
        for (const match of line.text.matchAll(HELD_ID)) {
          if (match[1] !== undefined && isSafeId(match[1])) this.#heldIds.add(match[1]);
        }
        this.#matchHeld();
        return;
      case "permission_mode":
        this.#permissionMode = line.mode;
        return;
    }
  }

  /** The transcript reader passed bytes over or started over: the queue depth is unknown now. */
  gap(): void {
    this.#depth = undefined;
  }

  /** Messages found in the conversation since the last call, in the order they were found. */
  takeConfirmed(): MessageItem[] {
    return this.#confirmed.splice(0);
  }

  /** Messages found held by Claude Code's dialog since the last call. */
  takeNewlyHeld(): MessageItem[] {
    return this.#newlyHeld.splice(0);
  }

  /**
   * Posts that are missing at `now`: neither in the conversation nor admitted nor held, posted at
   * least `waitMs` ago, and either the session was seen idle (`idleAt`, ms) at least `settleMs`
   * after the post or `maxWaitMs` passed. Those with attempts left are handed back for another
   * post (still tracked); the others are given up (no longer tracked).
   */
  takeMissing(now: number, idleAt: number | undefined): MissingPosts {
    const repost: MessageItem[] = [];
    const givenUp: MessageItem[] = [];
    for (const [id, tracked] of this.#tracked) {
      const age = now - tracked.postedAt;
      if (tracked.held && age >= this.#limits.maxWaitMs) {
        // Claude Code's dialog expires after about 5 min in an unattended session, and a denied
        // one leaves no trace we read: the message goes back to the server.
        this.#tracked.delete(id);
        givenUp.push(tracked.item);
        continue;
      }
      if (tracked.held || this.#enqueued.has(tracked.tag)) continue;
      if (age < this.#limits.waitMs) continue;
      const settled = idleAt !== undefined && idleAt - tracked.postedAt >= this.#limits.settleMs;
      if (!settled && age < this.#limits.maxWaitMs) continue;
      if (tracked.attempts < this.#limits.attempts) {
        repost.push(tracked.item);
      } else {
        this.#tracked.delete(id);
        givenUp.push(tracked.item);
      }
    }
    return { repost, givenUp };
  }

  /** Stops tracking every message (the watcher stops); returns them, unacked. */
  clear(): MessageItem[] {
    const items = [...this.#tracked.values()].map((tracked) => tracked.item);
    this.#tracked.clear();
    return items;
  }

  #confirm(id: string): void {
    const tracked = this.#tracked.get(id);
    if (tracked === undefined) return;
    this.#tracked.delete(id);
    this.#confirmed.push(tracked.item);
  }

  /** Claude Code names a held frame's id with the quotes removed: `message-id=<id> `. */
  #matchHeld(): void {
    for (const tracked of this.#tracked.values()) {
      if (tracked.held) continue;
      if (this.#heldIds.has(tracked.item.message.message_id)) {
        tracked.held = true;
        this.#newlyHeld.push(tracked.item);
      }
    }
  }
}
