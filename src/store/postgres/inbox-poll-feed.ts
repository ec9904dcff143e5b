import type { WatchFeedTarget } from "../../service/store.ts";

/** One unacknowledged delivery: whose inbox, which message. */
export interface InboxEntry {
  recipient_session_id: string;
  message_id: string;
}

/** Reads the unacknowledged deliveries of `sessions`, oldest first. */
export type InboxReader = (sessions: readonly string[]) => Promise<InboxEntry[]>;

/**
 * Sessions read by one query; more are read by further queries of the same pass. An inbox holds
 * at most 60 unacknowledged messages (the recipient cap), so one query returns at most 9,000 rows,
 * inside the reader's own bound of 10,000: no watched session's newest messages are ever cut off.
 */
export const INBOX_READ_CHUNK_SESSIONS = 150;

/**
 * Reads the `inbox` rows of sessions watched in this process and hands their ids to the local
 * watches, which skip what they already sent: the reading half of the PostgreSQL store's watch
 * feed. {@link InboxPollFeed.wake} reads the sessions another process announced (those watched
 * here only); {@link InboxPollFeed.poll} reads every watched session, and the feed's safety-poll
 * tick calls it (`PostgresWatchFeed`): so a message committed by another server process reaches a
 * watch here within one poll interval plus one query, inside the protocol's 5 s bound, even when
 * every notification is lost. One pass at a time: what is asked meanwhile is merged into the next
 * pass (one query per {@link INBOX_READ_CHUNK_SESSIONS} sessions). A failed read (database away)
 * is skipped; the next announcement or tick reads again. Its owner's timer drives it.
 */
export class InboxPollFeed {
  readonly #read: InboxReader;
  #target: WatchFeedTarget | undefined;
  /** Sessions to read on the next pass; `null` means every watched session. */
  #pending: Set<string> | null = new Set();
  #idle: Promise<void> = Promise.resolve();
  #reading = false;

  constructor(read: InboxReader) {
    this.#read = read;
  }

  /** Reads for `target`'s watches from now on. */
  attach(target: WatchFeedTarget): void {
    this.#target = target;
  }

  /** Reads every watched session (the safety poll's tick, a resync; tests call it directly). */
  poll(): Promise<void> {
    this.#pending = null;
    return this.#schedule();
  }

  /**
   * Reads those of `sessionIds` watched here (another process committed messages for them); a pass
   * that finds none of them watched costs no query.
   */
  wake(sessionIds: readonly string[]): Promise<void> {
    const pending = this.#pending;
    if (pending !== null) for (const id of sessionIds) pending.add(id);
    return this.#schedule();
  }

  #schedule(): Promise<void> {
    if (!this.#reading) {
      this.#reading = true;
      this.#idle = this.#drain();
    }
    return this.#idle;
  }

  async #drain(): Promise<void> {
    try {
      for (;;) {
        const target = this.#target;
        if (target === undefined) return;
        const watched = target.watchedSessions();
        const wanted = this.#pending;
        this.#pending = new Set();
        const sessions = wanted === null ? watched : watched.filter((id) => wanted.has(id));
        if (sessions.length === 0) return;
        for (let i = 0; i < sessions.length; i += INBOX_READ_CHUNK_SESSIONS) {
          await this.#readAndDeliver(target, sessions.slice(i, i + INBOX_READ_CHUNK_SESSIONS));
        }
      }
    } finally {
      this.#reading = false;
    }
  }

  async #readAndDeliver(target: WatchFeedTarget, sessions: readonly string[]): Promise<void> {
    let entries: InboxEntry[];
    try {
      entries = await this.#read(sessions);
    } catch {
      // The database is away: the next announcement or tick reads again.
      return;
    }
    const byRecipient = new Map<string, string[]>();
    for (const entry of entries) {
      const ids = byRecipient.get(entry.recipient_session_id) ?? [];
      ids.push(entry.message_id);
      byRecipient.set(entry.recipient_session_id, ids);
    }
    for (const [recipient, ids] of byRecipient) target.deliver(recipient, ids);
  }
}
