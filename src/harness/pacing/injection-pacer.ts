import type { Activity } from "../../protocol/index.ts";
import { PACER_LIMITS, type PacerLimits } from "./pacer-limits.ts";

/**
 * Why {@link InjectionPacer.decide} says "not yet": `bucket` (the mirror bucket is empty),
 * `repeat` (the same bytes were our previous post, too recently), `outstanding` (the cap of posts
 * since the last settled idle flip is reached; only an `idle` observation lifts it).
 *
 * @example PACER_WAIT_CAUSES.includes("bucket") === true
 */
export const PACER_WAIT_CAUSES = ["bucket", "repeat", "outstanding"] as const;

/** One cause of waiting. */
export type PacerWaitCause = (typeof PACER_WAIT_CAUSES)[number];

/**
 * The pacer's answer: `at` is the earliest time (ms, the caller's clock) the post may be written;
 * `at <= now` means now; `Infinity` means only an `idle` observation can allow it. `causes` lists
 * every limit that holds it back (empty when it may go now).
 *
 * @example const d = pacer.decide(now, text); if (d.at <= now) post(text);
 */
export interface PacerDecision {
  readonly at: number;
  readonly causes: readonly PacerWaitCause[];
}

/** Construction options of {@link InjectionPacer}. */
export interface InjectionPacerOptions {
  /** The caller's clock at construction, ms. */
  readonly now: number;
  /** Defaults to {@link PACER_LIMITS}. */
  readonly limits?: PacerLimits;
  /**
   * Tokens in the mirror bucket at `now`; defaults to full. A watcher restarted within a minute of
   * a predecessor that posted should pass less (Claude Code's bucket may remember that sender).
   */
  readonly initialTokens?: number;
  /**
   * Posts counted as outstanding at `now` (0..`outstandingCap`); defaults to 0. A restarted
   * watcher should pass the cap: its predecessor's posts may still wait in a busy turn's queue,
   * and only a settled `idle` observation proves they were taken.
   */
  readonly initialOutstanding?: number;
}

/**
 * Paces the watcher's posts to one Claude Code inbox socket so Claude Code never discards one
 * (docs/spec/claude-code.md §0 item 4, §3.3). The watcher is ONE sender for Claude Code; the pacer
 * keeps:
 *
 * 1. a mirror token bucket smaller and slower than Claude Code's (25 refilling 0.4/s vs 30 and
 *    0.5/s), so a post allowed by the mirror is always allowed by Claude Code;
 * 2. never the same bytes as the previous post within 35 s (Claude Code drops within 30 s);
 * 3. at most 20 posts since the last *settled* `idle` status (read ≥ 2 s after our last post):
 *    an idle session turns busy at the first post, so every later post queues in a turn, and
 *    Claude Code keeps only 50 queued posts.
 *
 * Pure: no clock, no I/O; every method takes the caller's `now` (ms). A clock that steps back is
 * treated as no time passing. Call {@link record} for every post written to the socket (a failed
 * write after connecting may still have reached Claude Code: record it too, to stay safe).
 *
 * @example
 * const pacer = new InjectionPacer({ now: clock() });
 * const d = pacer.decide(clock(), content);
 * if (d.at <= clock()) { await post(content); pacer.record(clock(), content); }
 */
export class InjectionPacer {
  readonly #limits: PacerLimits;
  #tokens: number;
  #tokensAt: number;
  #lastBytes: string | undefined;
  #lastPostAt: number | undefined;
  #outstanding = 0;

  constructor(options: InjectionPacerOptions) {
    this.#limits = options.limits ?? PACER_LIMITS;
    this.#tokens = Math.min(
      this.#limits.bucketCapacity,
      options.initialTokens ?? this.#limits.bucketCapacity,
    );
    this.#tokensAt = options.now;
    this.#outstanding = Math.max(
      0,
      Math.min(this.#limits.outstandingCap, options.initialOutstanding ?? 0),
    );
  }

  /**
   * Tokens in the mirror bucket at `now` (fractional; negative only if the caller posted against
   * the pacer's advice).
   *
   * @example new InjectionPacer({ now: 0 }).tokens(0) === 25
   */
  tokens(now: number): number {
    const elapsed = Math.max(0, now - this.#tokensAt);
    return Math.min(
      this.#limits.bucketCapacity,
      this.#tokens + (elapsed * this.#limits.refillPerSecond) / 1000,
    );
  }

  /**
   * Posts written since the last settled `idle` observation (the count capped at
   * `outstandingCap`).
   *
   * @example pacer.outstanding === 0
   */
  get outstanding(): number {
    return this.#outstanding;
  }

  /**
   * When `bytes` (the post's content) may be written, and what holds it back. Without `bytes` the
   * repeat rule is not applied (use it to ask whether any post may go).
   *
   * @example pacer.decide(now, frame).causes.length === 0
   */
  decide(now: number, bytes?: string): PacerDecision {
    const causes: PacerWaitCause[] = [];
    let at = now;
    const tokens = this.tokens(now);
    if (tokens < 1) {
      causes.push("bucket");
      at = Math.max(at, now + Math.ceil(((1 - tokens) * 1000) / this.#limits.refillPerSecond));
    }
    if (
      bytes !== undefined &&
      bytes === this.#lastBytes &&
      this.#lastPostAt !== undefined &&
      now < this.#lastPostAt + this.#limits.repeatWindowMs
    ) {
      causes.push("repeat");
      at = Math.max(at, this.#lastPostAt + this.#limits.repeatWindowMs);
    }
    if (this.#outstanding >= this.#limits.outstandingCap) {
      causes.push("outstanding");
      at = Number.POSITIVE_INFINITY;
    }
    return { at, causes };
  }

  /**
   * The earliest time `bytes` may be posted: `decide(now, bytes).at`.
   *
   * @example if (pacer.nextPostAt(now, frame) <= now) post(frame);
   */
  nextPostAt(now: number, bytes?: string): number {
    return this.decide(now, bytes).at;
  }

  /**
   * Records one post written at `now` with content `bytes`: takes a token, remembers the bytes
   * and counts it as outstanding.
   *
   * @example pacer.record(now, frame);
   */
  record(now: number, bytes: string): void {
    this.#tokens = this.tokens(now) - 1;
    this.#tokensAt = Math.max(now, this.#tokensAt);
    this.#lastBytes = bytes;
    this.#lastPostAt = now;
    this.#outstanding += 1;
  }

  /**
   * Feeds Claude Code's queue depth as its transcript tells it (posts admitted and not yet taken,
   * docs/spec/claude-code.md §3.4). Read at least `idleSettleMs` after our last post (so that post
   * is in the count), it bounds the outstanding count: posts Claude Code already took into the
   * conversation no longer wait in its queue of 50. This is what lets a session that stays busy
   * for its whole life (a headless `-p` run) receive posts between its tool calls.
   *
   * @example pacer.observeClaudeQueue(now, 0);
   */
  observeClaudeQueue(now: number, depth: number): void {
    if (this.#lastPostAt !== undefined && now - this.#lastPostAt < this.#limits.idleSettleMs)
      return;
    this.#outstanding = Math.min(this.#outstanding, Math.max(0, depth));
  }

  /**
   * Feeds one reading of the session registry's `status` (docs/spec/claude-code.md §5). `idle` read
   * at least `idleSettleMs` after our last post means Claude Code has taken everything we posted:
   * the outstanding count returns to 0. `busy`, or an `idle` read too soon, changes nothing.
   *
   * @example pacer.observeActivity(now, "idle");
   */
  observeActivity(now: number, activity: Activity): void {
    if (activity !== "idle") return;
    if (this.#lastPostAt === undefined || now - this.#lastPostAt >= this.#limits.idleSettleMs) {
      this.#outstanding = 0;
    }
  }
}
