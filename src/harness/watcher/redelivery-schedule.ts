/**
 * How long after a `rate_limited` or `deferred_identical` outcome the set-aside message is fetched
 * again, in ms: the inbound pipeline's 60 s sender and identical-body windows.
 */
export const SET_ASIDE_REFETCH_MS = 60_000;

/** The offer outcomes that decide a fetch (an `InboundPipeline.offer` result, narrowed). */
export interface OfferedOutcome {
  readonly outcome: string;
  /** The id of the message a `queued` offer evicted from a full queue, if any. */
  readonly evicted?: string;
}

/**
 * When the watcher fetches its unacknowledged messages again (`message receive`, docs/41-watcher.md
 * "Set-aside messages come back by fetch"). Our server sends a message once per watch connection,
 * so what the watcher did not ack comes back only if it fetches it:
 *
 * - a message the pipeline set aside: {@link SET_ASIDE_REFETCH_MS} after `rate_limited`,
 *   `deferred_identical` or `behind` (waiting behind its sender's earlier ones), at once after an
 *   eviction from a full queue ({@link afterOffer});
 * - a failed ack: `retryMs` later, so it comes back as a duplicate and is acked then
 *   ({@link afterAckFailed});
 * - a failed post: `retryMs` later, unless a fetch is already planned ({@link afterPostFailed});
 * - a turn back to `accept`, or a release of a message no longer in memory: at once ({@link at}).
 *
 * One time is kept, the earliest asked for. {@link takeDue} hands out a due fetch only into an
 * empty queue (a fetch into a full one would evict what it refills) and only one at a time, until
 * {@link fetchDone}. Pure: no clock, no timers; every call takes the caller's `now` (ms).
 *
 * @example
 * if (schedule.takeDue(now, pipeline.queued)) void fetch().finally(() => schedule.fetchDone());
 */
export class RedeliverySchedule {
  readonly #retryMs: number;
  #at: number | undefined;
  #fetching = false;

  /** `retryMs`: the wait before fetching again after a failed post or ack, ms. */
  constructor(retryMs: number) {
    this.#retryMs = retryMs;
  }

  /** The planned fetch time (ms), if any. */
  get plannedAt(): number | undefined {
    return this.#at;
  }

  /** True from {@link takeDue} handing out a fetch until {@link fetchDone}. */
  get fetching(): boolean {
    return this.#fetching;
  }

  /** Plans a fetch no later than `at` (ms). */
  at(at: number): void {
    this.#at = this.#at === undefined ? at : Math.min(this.#at, at);
  }

  /** Plans the fetch an offer's outcome asks for (nothing for a delivered or refused one). */
  afterOffer(offered: OfferedOutcome, now: number): void {
    if (
      offered.outcome === "rate_limited" ||
      offered.outcome === "deferred_identical" ||
      offered.outcome === "behind"
    ) {
      this.at(now + SET_ASIDE_REFETCH_MS);
    }
    if (offered.outcome === "queued" && offered.evicted !== undefined) this.at(now);
  }

  /** Plans a fetch `retryMs` after a failed ack at `now`. */
  afterAckFailed(now: number): void {
    this.at(now + this.#retryMs);
  }

  /** Plans a fetch `retryMs` after a failed post at `now`, unless one is already planned. */
  afterPostFailed(now: number): void {
    this.#at ??= now + this.#retryMs;
  }

  /**
   * True when a planned fetch is due at `now`, the queue holds nothing (`queued === 0`) and no
   * fetch runs: the plan is then cleared and the caller must fetch, then call {@link fetchDone}.
   */
  takeDue(now: number, queued: number): boolean {
    if (this.#at === undefined || now < this.#at || queued !== 0 || this.#fetching) return false;
    this.#at = undefined;
    this.#fetching = true;
    return true;
  }

  /** Ends the fetch {@link takeDue} handed out. */
  fetchDone(): void {
    this.#fetching = false;
  }
}
