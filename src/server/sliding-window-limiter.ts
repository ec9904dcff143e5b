/** The events of one key: timestamps in the order taken, those before `head` already expired. */
interface KeyEvents {
  readonly times: number[];
  head: number;
}

/**
 * A per-key sliding-window limiter held in memory: at most `limit` events per `windowMs` per key.
 * Used where losing the history on restart is harmless (minting anonymous principals). Each call
 * costs amortised constant time whatever the limit (expired events leave from the front of a
 * queue), so a limit raised to a million (`brigade serve --limit`) stays as cheap as the default.
 * A clock that steps back only makes a key stricter until its window has passed.
 *
 * @example const l = new SlidingWindowLimiter(2, 60_000, Date.now); l.take("a") === 0;
 */
export class SlidingWindowLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #events = new Map<string, KeyEvents>();

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
    if (events === undefined || events.times.length - events.head < this.#limit) return 0;
    return Math.max(1, (events.times[events.head] as number) + this.#windowMs - now);
  }

  /**
   * Records one event for `key` when the window has room and returns 0; otherwise records
   * nothing and returns {@link wait}'s milliseconds.
   */
  take(key: string): number {
    const waitMs = this.wait(key);
    if (waitMs > 0) return waitMs;
    const now = this.#now();
    const events = this.#current(key, now);
    if (events === undefined) this.#events.set(key, { times: [now], head: 0 });
    else events.times.push(now);
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
   * The events of `key` with those that left the window at `now` dropped from the front, or
   * `undefined` when none is left (the key is then forgotten, so a flood of keys that are only
   * asked about, a refused mint from ever new addresses, holds no memory).
   */
  #current(key: string, now: number): KeyEvents | undefined {
    const events = this.#events.get(key);
    if (events === undefined) return undefined;
    const since = now - this.#windowMs;
    const { times } = events;
    while (events.head < times.length && (times[events.head] as number) <= since) events.head++;
    if (events.head === times.length) {
      this.#events.delete(key);
      return undefined;
    }
    // Drop the expired front once it is most of the array, so memory follows the window.
    if (events.head > 64 && events.head * 2 > times.length) {
      times.splice(0, events.head);
      events.head = 0;
    }
    return events;
  }

  #prune(since: number): void {
    for (const [key, events] of this.#events) {
      if (events.times.every((t) => t <= since)) this.#events.delete(key);
    }
  }
}
