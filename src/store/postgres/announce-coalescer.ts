/** The clock and timer an {@link AnnounceCoalescer} runs on (injected, so tests drive time). */
export interface CoalescerClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Runs `run` once, `delayMs` (≥ 0) from now. */
  schedule(run: () => void, delayMs: number): void;
}

/** The wall clock and `setTimeout` (unref'd, so a pending flush never keeps a process alive). */
export const SYSTEM_CLOCK: CoalescerClock = {
  now: () => performance.now(),
  schedule: (run, delayMs) => {
    setTimeout(run, delayMs).unref();
  },
};

/** How an {@link AnnounceCoalescer} batches. */
export interface CoalescerOptions {
  /** Least time between two flushes, ms. */
  readonly intervalMs: number;
  /** Most characters of one batch, items joined by one separator each (ids are ASCII). */
  readonly maxBatchChars: number;
  /** Receives each batch (never empty, no repeats, oldest item first). */
  readonly flush: (items: readonly string[]) => void;
  readonly clock?: CoalescerClock;
}

/**
 * Coalesces announcements into batches: an item added while idle is flushed on the next timer
 * turn (so every item added in the same turn shares it), and then at most one batch leaves per
 * `intervalMs`; an item already waiting is not queued twice. A batch holds as many items as fit
 * in `maxBatchChars`; the rest wait for the next flush, oldest first. An item that can never fit
 * is dropped (ids never are).
 *
 * @example
 * const c = new AnnounceCoalescer({ intervalMs: 5, maxBatchChars: 7900, flush: (ids) => notify(ids) });
 * c.add("s-1"); c.add("s-2"); c.add("s-1"); // one batch ["s-1", "s-2"]
 */
export class AnnounceCoalescer {
  readonly #options: CoalescerOptions;
  readonly #clock: CoalescerClock;
  readonly #waiting = new Set<string>();
  #scheduled = false;
  #lastFlush = Number.NEGATIVE_INFINITY;

  constructor(options: CoalescerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** Items waiting for a flush. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /** Queues `item` for the next batch. */
  add(item: string): void {
    if (item.length > this.#options.maxBatchChars) return;
    this.#waiting.add(item);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#waiting.size === 0) return;
    this.#scheduled = true;
    const delay = Math.max(0, this.#lastFlush + this.#options.intervalMs - this.#clock.now());
    this.#clock.schedule(() => this.#flush(), delay);
  }

  #flush(): void {
    this.#scheduled = false;
    this.#lastFlush = this.#clock.now();
    const batch: string[] = [];
    let chars = 0;
    for (const item of this.#waiting) {
      const cost = item.length + (batch.length === 0 ? 0 : 1);
      if (chars + cost > this.#options.maxBatchChars) break;
      batch.push(item);
      chars += cost;
    }
    for (const item of batch) this.#waiting.delete(item);
    this.#schedule();
    if (batch.length > 0) this.#options.flush(batch);
  }
}
