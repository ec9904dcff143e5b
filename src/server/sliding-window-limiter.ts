/**
 * A per-key sliding-window limiter held in memory: at most `limit` events per `windowMs` per key.
 * Used where losing the history on restart is harmless (minting anonymous principals).
 *
 * @example const l = new SlidingWindowLimiter(2, 60_000, Date.now); l.take("a") === 0;
 */
export class SlidingWindowLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #events = new Map<string, number[]>();

  constructor(limit: number, windowMs: number, now: () => number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /**
   * Records one event for `key` when the window has room and returns 0; otherwise records
   * nothing and returns the whole milliseconds (≥ 1) until the oldest event leaves the window.
   */
  take(key: string): number {
    const now = this.#now();
    const since = now - this.#windowMs;
    const events = (this.#events.get(key) ?? []).filter((t) => t > since);
    if (events.length >= this.#limit) {
      this.#events.set(key, events);
      return Math.max(1, (events[0] as number) + this.#windowMs - now);
    }
    events.push(now);
    this.#events.set(key, events);
    if (this.#events.size > 10_000) this.#prune(since);
    return 0;
  }

  #prune(since: number): void {
    for (const [key, events] of this.#events) {
      if (events.every((t) => t <= since)) this.#events.delete(key);
    }
  }
}
