/**
 * The watcher's restart schedule for a failed message watch (docs/spec/claude-code.md §7.4):
 * jittered exponential backoff between `minMs` and `maxMs`; after `failureLimit` failures within
 * `failureWindowMs`, a slow jittered retry around `slowMs` (never giving up).
 *
 * @example const b: WatcherBackoff = WATCHER_BACKOFF;
 */
export interface WatcherBackoff {
  readonly minMs: number;
  readonly maxMs: number;
  readonly failureLimit: number;
  readonly failureWindowMs: number;
  readonly slowMs: number;
}

/** 1–30 s; 10 failures in 5 min switch to about 5 min. */
export const WATCHER_BACKOFF: WatcherBackoff = {
  minMs: 1_000,
  maxMs: 30_000,
  failureLimit: 10,
  failureWindowMs: 300_000,
  slowMs: 300_000,
};

/**
 * The delay before restart number `consecutive` (1-based): `min(maxMs, minMs · 2^(n−1))` scaled by
 * a jitter in [0.5, 1], never below `minMs`; in slow mode `slowMs` scaled by [0.8, 1.2].
 * `random` returns [0, 1).
 *
 * @example nextRetryDelay(WATCHER_BACKOFF, 1, false, () => 0.99) <= 1_000
 */
export function nextRetryDelay(
  backoff: WatcherBackoff,
  consecutive: number,
  slow: boolean,
  random: () => number,
): number {
  if (slow) return Math.round(backoff.slowMs * (0.8 + 0.4 * random()));
  const exponent = Math.min(Math.max(consecutive - 1, 0), 30);
  const base = Math.min(backoff.maxMs, backoff.minMs * 2 ** exponent);
  return Math.max(backoff.minMs, Math.round(base * (0.5 + 0.5 * random())));
}
