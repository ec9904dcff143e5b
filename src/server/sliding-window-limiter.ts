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
   * 0 when the window of `key` has room for one more event, else the whole milliseconds (≥ 1)
   * until its oldest event leaves the window. Records nothing.
   */
  wait(key: string): number {
    const now = this.#now();
    const events = this.#current(key, now);
    if (events.length < this.#limit) return 0;
    return Math.max(1, (events[0] as number) + this.#windowMs - now);
  }

  /**
   * Records one event for `key` when the window has room and returns 0; otherwise records
   * nothing and returns {@link wait}'s milliseconds.
   */
  take(key: string): number {
    const waitMs = this.wait(key);
    if (waitMs > 0) return waitMs;
    const now = this.#now();
    this.#events.set(key, [...this.#current(key, now), now]);
    if (this.#events.size > 10_000) this.#prune(now - this.#windowMs);
    return 0;
  }

  /**
   * How many keys have events held in memory (asking, and being refused, adds none). For
   * observation (tests, a memory check); the limiter's decisions never read it.
   */
  get keys(): number {
    return this.#events.size;
  }

  /**
   * The events of `key` still inside the window at `now`, oldest first, stored back trimmed; a
   * key left with none is dropped, so a flood of keys that are only asked about (a refused mint
   * from ever new addresses) holds no memory.
   */
  #current(key: string, now: number): number[] {
    const since = now - this.#windowMs;
    const events = (this.#events.get(key) ?? []).filter((t) => t > since);
    if (events.length === 0) this.#events.delete(key);
    else this.#events.set(key, events);
    return events;
  }

  #prune(since: number): void {
    for (const [key, events] of this.#events) {
      if (events.every((t) => t <= since)) this.#events.delete(key);
    }
  }
}
