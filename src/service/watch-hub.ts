/**
 * What a `message watch` subscriber hears: ids of messages newly persisted for its session (only
 * after the commit that stored them), and the revocation of its membership (the watch then ends
 * with `unauthorized`).
 */
export interface WatchListener {
  /** Ids only; the caller fetches envelopes. Called after commit, possibly with duplicates. */
  onMessages(messageIds: readonly string[]): void;
  /** The subscriber's membership of the team ended (team leave); no more events follow. */
  onRevoked(): void;
}

/** A live subscription; `unsubscribe` is idempotent. */
export interface WatchSubscription {
  unsubscribe(): void;
}

interface Entry {
  principalRef: string;
  teamRef: string;
  listener: WatchListener;
}

/**
 * In-process fan-out from committed writes to watch subscribers, keyed by session id. A listener
 * that throws is isolated: the others still hear the event.
 *
 * @example
 * const hub = new WatchHub();
 * hub.add("s-1", "p-1", "t-1", listener);
 * hub.publish("s-1", ["m-1"]);
 */
export class WatchHub {
  readonly #bySession = new Map<string, Set<Entry>>();

  /** Registers `listener` for messages to `sessionId`, owned by `principalRef` in `teamRef`. */
  add(
    sessionId: string,
    principalRef: string,
    teamRef: string,
    listener: WatchListener,
  ): WatchSubscription {
    const entry: Entry = { principalRef, teamRef, listener };
    let set = this.#bySession.get(sessionId);
    if (set === undefined) {
      set = new Set();
      this.#bySession.set(sessionId, set);
    }
    set.add(entry);
    return {
      unsubscribe: () => {
        const current = this.#bySession.get(sessionId);
        if (current === undefined) return;
        current.delete(entry);
        if (current.size === 0) this.#bySession.delete(sessionId);
      },
    };
  }

  /** Tells every subscriber of `sessionId` about newly committed messages. */
  publish(sessionId: string, messageIds: readonly string[]): void {
    const set = this.#bySession.get(sessionId);
    if (set === undefined || messageIds.length === 0) return;
    for (const entry of [...set]) {
      try {
        entry.listener.onMessages(messageIds);
      } catch {
        // One broken subscriber must not starve the others.
      }
    }
  }

  /** Ends every subscription of `principalRef` in `teamRef` with `onRevoked`. */
  revoke(principalRef: string, teamRef: string): void {
    for (const [sessionId, set] of [...this.#bySession]) {
      for (const entry of [...set]) {
        if (entry.principalRef !== principalRef || entry.teamRef !== teamRef) continue;
        set.delete(entry);
        try {
          entry.listener.onRevoked();
        } catch {
          // Same isolation as publish.
        }
      }
      if (set.size === 0) this.#bySession.delete(sessionId);
    }
  }

  /** Session ids with at least one live subscription. */
  sessionIds(): string[] {
    return [...this.#bySession.keys()];
  }

  /** Number of live subscriptions (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const set of this.#bySession.values()) n += set.size;
    return n;
  }
}
