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
  /** Order of registration (see {@link WatchHub.revoke}'s `addedBefore`). */
  seq: number;
}

/** The membership an open watch stands on: who watches, in which team. */
export interface WatchedMembership {
  readonly principalRef: string;
  readonly teamRef: string;
}

/** The memberships of the open watches at one moment, and that moment (see `addedBefore`). */
export interface WatchedMemberships {
  /** Each (principal, team) pair once. */
  readonly memberships: readonly WatchedMembership[];
  /** Pass to {@link WatchHub.revoke} to spare the watches added after this snapshot. */
  readonly asOf: number;
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
  #seq = 0;

  /** Registers `listener` for messages to `sessionId`, owned by `principalRef` in `teamRef`. */
  add(
    sessionId: string,
    principalRef: string,
    teamRef: string,
    listener: WatchListener,
  ): WatchSubscription {
    this.#seq += 1;
    const entry: Entry = { principalRef, teamRef, listener, seq: this.#seq };
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

  /**
   * Ends every subscription of `principalRef` in `teamRef` with `onRevoked`; with `addedBefore`
   * (a {@link WatchedMemberships.asOf}), only those added before that snapshot, so a watch opened
   * on a membership renewed since then is not ended by news about the old one.
   */
  revoke(principalRef: string, teamRef: string, addedBefore?: number): void {
    const last = addedBefore ?? Number.POSITIVE_INFINITY;
    for (const [sessionId, set] of [...this.#bySession]) {
      for (const entry of [...set]) {
        if (entry.principalRef !== principalRef || entry.teamRef !== teamRef) continue;
        if (entry.seq > last) continue;
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

  /** The memberships of the live subscriptions, each pair once, and the snapshot's moment. */
  memberships(): WatchedMemberships {
    const seen = new Map<string, WatchedMembership>();
    for (const set of this.#bySession.values()) {
      for (const { principalRef, teamRef } of set) {
        seen.set(`${principalRef}\n${teamRef}`, { principalRef, teamRef });
      }
    }
    return { memberships: [...seen.values()], asOf: this.#seq };
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
