import { nextRetryDelay, WATCHER_BACKOFF, type WatcherBackoff } from "./watcher-backoff.ts";

/** The notice written once when the watch switches to slow retries. */
export const DEGRADED_NOTICE =
  "Brigade: the team connection keeps failing; retrying about every five minutes (messages wait on the server).";

/** The notice written when the watch is live again after {@link DEGRADED_NOTICE}. */
export const RECONNECTED_NOTICE = "Brigade: reconnected to the team; messages are delivered again.";

/** What to do after a failed watch: wait `delayMs`, in slow mode or not; `announce` the slow mode once. */
export interface WatchRetry {
  readonly delayMs: number;
  readonly slow: boolean;
  /** True only at the failure that switches to slow mode: write {@link DEGRADED_NOTICE} now. */
  readonly announce: boolean;
}

/**
 * The restart policy of the supervised message watch (docs/spec/claude-code.md §7.4,
 * docs/41-watcher.md "Supervision"): every end of the watch is a failure at `now`; the delay
 * before the next attempt is {@link nextRetryDelay} of the consecutive failures. After
 * `failureLimit` failures within `failureWindowMs` it switches to slow retries (about `slowMs`)
 * and says so once; slow mode lasts until {@link live}, which asks for the reconnected notice
 * and forgets the failure history.
 *
 * Pure: no clock and no timers; every call takes the caller's `now` (ms), and jitter comes from
 * the injected `random` ([0, 1)).
 *
 * @example
 * const s = new WatchSupervision();
 * const retry = s.failed(clock());
 * if (retry.announce) notice(DEGRADED_NOTICE);
 * await sleep(retry.delayMs);
 */
export class WatchSupervision {
  readonly #backoff: WatcherBackoff;
  readonly #random: () => number;
  #failures: number[] = [];
  #consecutive = 0;
  #degraded = false;

  constructor(backoff: WatcherBackoff = WATCHER_BACKOFF, random: () => number = Math.random) {
    this.#backoff = backoff;
    this.#random = random;
  }

  /** True while in slow mode (from the announcing failure until {@link live}). */
  get degraded(): boolean {
    return this.#degraded;
  }

  /** Records a failed watch at `now` (ms) and returns how long to wait before the next one. */
  failed(now: number): WatchRetry {
    this.#failures = this.#failures.filter((t) => now - t < this.#backoff.failureWindowMs);
    this.#failures.push(now);
    this.#consecutive += 1;
    // Once slow, stay slow until the watch is live again: the failure window empties during
    // one slow wait, and falling back to fast retries then would hammer a server that is down.
    const slow = this.#degraded || this.#failures.length >= this.#backoff.failureLimit;
    const announce = slow && !this.#degraded;
    if (announce) this.#degraded = true;
    const delayMs = nextRetryDelay(this.#backoff, this.#consecutive, slow, this.#random);
    return { delayMs, slow, announce };
  }

  /**
   * Records that the watch is live (`ready`, or a `live` status): the back-off starts over.
   * Returns true when this ends slow mode, so {@link RECONNECTED_NOTICE} is due (short outages
   * stay silent).
   */
  live(): boolean {
    this.#consecutive = 0;
    if (!this.#degraded) return false;
    this.#degraded = false;
    this.#failures = [];
    return true;
  }
}
