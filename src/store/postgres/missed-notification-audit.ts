/** Deliveries the safety poll found that no notification had announced. */
export interface MissedDeliveries {
  /** Message ids, counted once each. */
  readonly deliveries: number;
  /** Sessions they were for, counted once per finding. */
  readonly sessions: number;
}

/** How long a notification may arrive after the read that found its message, ms. */
export const MISSED_NOTIFICATION_GRACE_MS = 1000;

/** A session not read for this long is forgotten (no longer watched here), ms. */
const FORGET_AFTER_MS = 60_000;

interface SessionAudit {
  /** The inbox ids the last read returned. */
  known: Set<string>;
  /** When a notification (or a send of this process) last named the session. */
  heardAt: number;
  /** When the session was last read. */
  readAt: number;
}

interface Suspect {
  readonly sessionId: string;
  readonly count: number;
  readonly at: number;
}

/**
 * Tells which deliveries of the PostgreSQL store's watch feed came only from its safety poll: the
 * ids a read of a watched inbox finds that no notification announced. A session's new ids are
 * explained when a notification (or a send of this process, or a resync after a (re)LISTEN) named
 * it since its previous read; otherwise they are suspects, cleared if a notification for the
 * session still arrives within {@link MISSED_NOTIFICATION_GRACE_MS} (it may be slower than the
 * poll that read the message), and counted as missed after that. The first read of a session only
 * learns its inbox (what was there before the watch opened was never going to be announced). It
 * keeps the last read's ids per watched session, so its memory is bounded by the inboxes (the
 * recipient cap). Only counts, for the log; it never changes what is delivered.
 *
 * @example
 * audit.heard(["s-1"]); audit.read(["s-1"], entries); audit.takeMissed(); // { deliveries: 0, … }
 */
export class MissedNotificationAudit {
  readonly #now: () => number;
  readonly #sessions = new Map<string, SessionAudit>();
  #suspects: Suspect[] = [];
  #resyncAt = Number.NEGATIVE_INFINITY;
  #found = 0;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Ids found new by reads so far (each read counts what its session's previous read lacked). */
  get found(): number {
    return this.#found;
  }

  /** A notification, or a send of this process, named these sessions. */
  heard(sessionIds: readonly string[]): void {
    const now = this.#now();
    const named = new Set(sessionIds);
    for (const id of named) {
      const session = this.#sessions.get(id);
      if (session !== undefined) session.heardAt = now;
    }
    this.#suspects = this.#suspects.filter((s) => !named.has(s.sessionId));
  }

  /** The LISTEN connection was (re)opened: whatever the next reads find was missed knowingly. */
  resync(): void {
    this.#resyncAt = this.#now();
  }

  /**
   * A read of `sessions` returned `entries` (all their inbox rows). Returns how many ids were new
   * since each session's previous read (for the catch-up line).
   */
  read(
    sessions: readonly string[],
    entries: readonly { recipient_session_id: string; message_id: string }[],
  ): number {
    const now = this.#now();
    const found = new Map<string, Set<string>>();
    for (const id of sessions) found.set(id, new Set());
    for (const entry of entries) found.get(entry.recipient_session_id)?.add(entry.message_id);
    let fresh = 0;
    for (const [id, ids] of found) {
      const session = this.#sessions.get(id);
      if (session === undefined) {
        this.#sessions.set(id, { known: ids, heardAt: Number.NEGATIVE_INFINITY, readAt: now });
        continue;
      }
      let count = 0;
      for (const messageId of ids) if (!session.known.has(messageId)) count += 1;
      const explained = session.heardAt >= session.readAt || this.#resyncAt >= session.readAt;
      if (count > 0 && !explained) this.#suspects.push({ sessionId: id, count, at: now });
      fresh += count;
      this.#found += count;
      session.known = ids;
      session.readAt = now;
    }
    return fresh;
  }

  /** The suspects older than the grace period, counted as missed and forgotten. */
  takeMissed(): MissedDeliveries {
    const now = this.#now();
    let deliveries = 0;
    let sessions = 0;
    this.#suspects = this.#suspects.filter((s) => {
      if (now - s.at < MISSED_NOTIFICATION_GRACE_MS) return true;
      deliveries += s.count;
      sessions += 1;
      return false;
    });
    for (const [id, session] of this.#sessions) {
      if (now - session.readAt > FORGET_AFTER_MS) this.#sessions.delete(id);
    }
    return { deliveries, sessions };
  }
}
