/**
 * What Claude Code 2.1.328 does to socket posts from one sender, after the write succeeded
 * (docs/spec/claude-code.md §0 item 4, §3.3). A post that breaks one of these is discarded
 * silently, after we could already have acknowledged it: these are the limits the pacer must never
 * reach.
 *
 * - `bucketCapacity` / `refillPerSecond`: a token bucket of 30 refilling 0.5 per second.
 * - `repeatWindowMs`: a post byte-identical to the sender's previous post within 30 s is dropped.
 * - `busyQueueCap`: while a turn is busy only 50 queued posts are kept.
 *
 * @example CLAUDE_CODE_SOCKET_LIMITS.bucketCapacity === 30
 */
export const CLAUDE_CODE_SOCKET_LIMITS: {
  readonly bucketCapacity: 30;
  readonly refillPerSecond: 0.5;
  readonly repeatWindowMs: 30_000;
  readonly busyQueueCap: 50;
} = {
  bucketCapacity: 30,
  refillPerSecond: 0.5,
  repeatWindowMs: 30_000,
  busyQueueCap: 50,
};

/**
 * The pacer's own limits: a mirror of {@link CLAUDE_CODE_SOCKET_LIMITS} with a safety margin.
 *
 * - `bucketCapacity` (posts) and `refillPerSecond` (posts per second): the mirror bucket. Smaller
 *   and slower than Claude Code's, so whenever the mirror holds a token Claude Code's holds one too.
 * - `repeatWindowMs` (ms): the same bytes are never posted twice in a row within this window.
 * - `outstandingCap` (posts): at most this many posts since the last settled `idle` observation.
 * - `idleSettleMs` (ms): an `idle` status counts only when read at least this long after our last
 *   post (a status read too soon may predate Claude Code picking the post up).
 *
 * @example const strict: PacerLimits = { ...PACER_LIMITS, outstandingCap: 10 };
 */
export interface PacerLimits {
  readonly bucketCapacity: number;
  readonly refillPerSecond: number;
  readonly repeatWindowMs: number;
  readonly outstandingCap: number;
  readonly idleSettleMs: number;
}

/**
 * The default pacer limits: bucket 25 refilling 0.4/s (Claude Code: 30 and 0.5/s), repeat window
 * 35 s (30 s), at most 20 posts outstanding until a settled idle flip (Claude Code keeps 50 while
 * busy), idle settle 2 s. Sustained rate: one post every 2.5 s.
 *
 * @example PACER_LIMITS.outstandingCap === 20
 */
export const PACER_LIMITS: PacerLimits = {
  bucketCapacity: 25,
  refillPerSecond: 0.4,
  repeatWindowMs: 35_000,
  outstandingCap: 20,
  idleSettleMs: 2_000,
};
