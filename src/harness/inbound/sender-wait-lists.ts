/** One message fetched from the server, as far as the wait lists need it. */
export interface FetchedMessage {
  readonly messageId: string;
  readonly senderId: string;
}

/** The fixed caps of {@link SenderWaitLists}, counts of ids and of senders. */
export interface WaitListCaps {
  /** Ids kept per sender; a newer one beyond this stays on the server, unlisted. */
  readonly perSender: number;
  /** Senders with a list; a new sender beyond this stays on the server, unlisted. */
  readonly senders: number;
}

interface WaitList {
  ids: string[];
  /** The server holds more of this sender's messages than `ids` lists (all newer than them). */
  overflow: boolean;
}

/**
 * Per sender session, its messages left unacknowledged on the server, oldest first, under fixed
 * caps (docs/41-watcher.md "One sender's order"). While a sender has any listed, only the oldest
 * may go on. A message over a cap is not listed; its sender is marked **overflowed** instead, and
 * an overflowed sender lets nothing go on once its list is empty until a fetch of the oldest
 * unacknowledged messages lists them again ({@link refetched}): the fetch answers oldest first, so
 * its first message of a sender is that sender's oldest on the server. A new sender beyond
 * `caps.senders` overflows every sender without a list the same way, so a forgotten message is
 * never overtaken by a newer one of its sender. Pure; never throws.
 *
 * @example
 * const lists = new SenderWaitLists({ perSender: 100, senders: 1024 });
 * lists.add("s-a", "m-1"); lists.blocks("s-a", "m-2") === true;
 */
export class SenderWaitLists {
  readonly #caps: WaitListCaps;
  readonly #lists = new Map<string, WaitList>();
  /** Some sender without a list may have messages on the server that nobody listed. */
  #unlistedOverflow = false;

  constructor(caps: WaitListCaps) {
    this.#caps = caps;
  }

  /** Senders with a list (listed ids or an overflow mark), at most `caps.senders`. */
  get senders(): number {
    return this.#lists.size;
  }

  /** Whether `messageId` of `senderId` must wait: it is not the oldest its sender has waiting. */
  blocks(senderId: string, messageId: string): boolean {
    const list = this.#lists.get(senderId);
    if (list === undefined) return this.#unlistedOverflow;
    return list.ids[0] !== messageId;
  }

  /**
   * Lists `messageId` last for `senderId` (or, when its list is full or overflowed already, marks
   * the sender overflowed and leaves the id unlisted). A
   * sender without a list after a sender overflow is left unlisted: older messages of it may be
   * unlisted too, and only a fetch tells their order.
   */
  add(senderId: string, messageId: string): void {
    if (this.#unlistedOverflow && !this.#lists.has(senderId)) return;
    const list = this.#listOf(senderId);
    if (list === undefined || list.ids.includes(messageId)) return;
    // Past an overflow the server holds unlisted messages older than this one: it stays unlisted.
    if (!list.overflow && list.ids.length < this.#caps.perSender) list.ids.push(messageId);
    else list.overflow = true;
  }

  /**
   * Lists `ids` (oldest first) ahead of everything `senderId` has listed, dropping the newest
   * beyond the cap into the overflow mark. The first id must be its sender's oldest on the server
   * (a message that went on and comes back).
   */
  putFirst(senderId: string, ids: readonly string[]): void {
    const list = this.#listOf(senderId);
    if (list === undefined) return;
    const merged = [...ids, ...list.ids.filter((id) => !ids.includes(id))];
    if (merged.length > this.#caps.perSender) list.overflow = true;
    list.ids = merged.slice(0, this.#caps.perSender);
  }

  /** Takes `messageId` off its sender's list (it went on, or was acked). */
  remove(senderId: string, messageId: string): void {
    const list = this.#lists.get(senderId);
    if (list === undefined) return;
    list.ids = list.ids.filter((id) => id !== messageId);
    this.#dropIfEmpty(senderId, list);
  }

  /** How many ids `senderId` has listed (a lower bound when it overflowed). */
  count(senderId: string): number {
    return this.#lists.get(senderId)?.ids.length ?? 0;
  }

  /** Whether `messageId` is listed for any sender. */
  has(messageId: string): boolean {
    for (const list of this.#lists.values()) if (list.ids.includes(messageId)) return true;
    return false;
  }

  /** Forgets everything (a policy that delivers nothing; the next fetch rebuilds the order). */
  clear(): void {
    this.#lists.clear();
    this.#unlistedOverflow = false;
  }

  /**
   * A fetch of the oldest unacknowledged messages answered `fetched` (oldest first); `complete`
   * when it returned fewer than its limit, so the server holds exactly these. `waits(id)` says
   * whether a fetched id still has to wait here (not queued, handed out or injected already).
   *
   * - complete: a listed id the fetch did not return is gone from the server (acked elsewhere,
   *   expired) and stops holding its sender back; an overflowed sender's list becomes its fetched
   *   ids, and every overflow mark is cleared where the caps now hold everything;
   * - either way, an overflowed sender with an empty list — or, after a sender overflow, a sender
   *   without a list — gets its fetched ids, its oldest on the server, so they can go on in order.
   */
  refetched(
    fetched: readonly FetchedMessage[],
    complete: boolean,
    waits: (messageId: string) => boolean,
  ): void {
    const bySender = new Map<string, string[]>();
    for (const { messageId, senderId } of fetched) {
      if (!waits(messageId)) continue;
      const ids = bySender.get(senderId);
      if (ids === undefined) bySender.set(senderId, [messageId]);
      else if (!ids.includes(messageId)) ids.push(messageId);
    }
    const present = new Set(fetched.map((message) => message.messageId));
    for (const [senderId, list] of this.#lists) {
      if (complete) list.ids = list.ids.filter((id) => present.has(id));
      if (list.overflow && (complete || list.ids.length === 0)) {
        this.#relist(list, bySender.get(senderId) ?? [], complete);
      }
      this.#dropIfEmpty(senderId, list);
    }
    if (!this.#unlistedOverflow) return;
    let everyoneListed = complete;
    for (const [senderId, ids] of bySender) {
      if (this.#lists.has(senderId)) continue;
      // The fetched senders hold the oldest messages on the server: they must get a list, or
      // nothing could ever go on. A sender not in this fetch gives its place and becomes unlisted,
      // which the sender overflow mark (still set) keeps in order.
      if (this.#lists.size >= this.#caps.senders) {
        everyoneListed = false;
        if (!this.#evictOneBut(bySender)) continue;
      }
      const list: WaitList = { ids: [], overflow: false };
      this.#relist(list, ids, complete);
      this.#lists.set(senderId, list);
    }
    if (everyoneListed) this.#unlistedOverflow = false;
  }

  /** Forgets one sender's list whose sender is not in `keep`; false when there is none. */
  #evictOneBut(keep: ReadonlyMap<string, unknown>): boolean {
    for (const senderId of this.#lists.keys()) {
      if (keep.has(senderId)) continue;
      this.#lists.delete(senderId);
      return true;
    }
    return false;
  }

  #relist(list: WaitList, ids: readonly string[], complete: boolean): void {
    list.ids = ids.slice(0, this.#caps.perSender);
    list.overflow = !complete || ids.length > this.#caps.perSender;
  }

  /** The sender's list, made when missing; `undefined` (and a sender overflow) beyond the cap. */
  #listOf(senderId: string): WaitList | undefined {
    const list = this.#lists.get(senderId);
    if (list !== undefined) return list;
    if (this.#lists.size >= this.#caps.senders) {
      this.#unlistedOverflow = true;
      return undefined;
    }
    const made: WaitList = { ids: [], overflow: this.#unlistedOverflow };
    this.#lists.set(senderId, made);
    return made;
  }

  #dropIfEmpty(senderId: string, list: WaitList): void {
    if (list.ids.length === 0 && !list.overflow) this.#lists.delete(senderId);
  }
}
