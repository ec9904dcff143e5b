import type { MissedDeliveries } from "./missed-notification-audit.ts";
import type { BroadcastEvent, BroadcastEventDetail } from "./postgres-watch-broadcast.ts";

/** Where the watch feed writes its lines: the server's logger fits (one JSON line each). */
export interface FeedLog {
  log(
    level: "info" | "warn" | "error",
    event: string,
    fields?: Readonly<Record<string, string | number | boolean>>,
  ): void;
}

/** Least time between two `watch_poll_found_missed` lines, ms (the counts in between add up). */
export const MISSED_LOG_INTERVAL_MS = 60_000;

/**
 * Failed reconnection attempts in a row that each get a `watch_listen_retry` line; after them,
 * one line per {@link RETRY_LOG_EVERY} attempts (about one a minute at the 2 s backoff ceiling).
 */
export const RETRY_LOG_FIRST = 5;
/** See {@link RETRY_LOG_FIRST}. */
export const RETRY_LOG_EVERY = 30;

/**
 * Turns what the PostgreSQL store's watch feed sees into log lines (docs/51-postgres.md, "The
 * LISTEN connection in the log"), one line per event, none carrying an address, a payload or an
 * error's text, and rate-limited where a broken database could repeat them for as long as it is
 * away: reconnection failures (the first {@link RETRY_LOG_FIRST}, then one in
 * {@link RETRY_LOG_EVERY}) and missed notifications (at most one line per
 * {@link MISSED_LOG_INTERVAL_MS}, summing the counts in between).
 *
 * @example
 * const log = new WatchFeedLog(logger);
 * log.broadcast("watch_listen_lost", { reason: "terminated", retryInMs: 100 });
 */
export class WatchFeedLog {
  readonly #log: FeedLog;
  readonly #now: () => number;
  #missedAt = Number.NEGATIVE_INFINITY;
  #missed = { deliveries: 0, sessions: 0 };

  constructor(log: FeedLog, now: () => number = () => performance.now()) {
    this.#log = log;
    this.#now = now;
  }

  /** A connection event of the broadcast. */
  broadcast(event: BroadcastEvent, detail: BroadcastEventDetail): void {
    const reason = detail.reason ?? "other";
    switch (event) {
      case "watch_listen_connected":
        this.#log.log("info", "watch_listen_connected", { failed_attempts: detail.attempt ?? 0 });
        return;
      case "watch_listen_lost":
        this.#log.log("warn", "watch_listen_lost", {
          reason,
          retry_in_ms: detail.retryInMs ?? 0,
        });
        return;
      case "watch_listen_failed": {
        const attempt = detail.attempt ?? 1;
        if (attempt > RETRY_LOG_FIRST && attempt % RETRY_LOG_EVERY !== 0) return;
        this.#log.log("warn", "watch_listen_retry", {
          reason,
          attempt,
          retry_in_ms: detail.retryInMs ?? 0,
        });
        return;
      }
      case "watch_notify_failed":
        this.#log.log("warn", "watch_notify_failed", { reason });
        return;
    }
  }

  /** The read of every watched session after a (re)LISTEN finished. */
  catchUpDone(fields: { sessions: number; found: number; ms: number }): void {
    this.#log.log("info", "watch_catchup_done", fields);
  }

  /** What the last safety-poll reads found unannounced (logged at most once a minute). */
  missed(found: MissedDeliveries): void {
    this.#missed = {
      deliveries: this.#missed.deliveries + found.deliveries,
      sessions: this.#missed.sessions + found.sessions,
    };
    if (this.#missed.deliveries === 0) return;
    const now = this.#now();
    if (now - this.#missedAt < MISSED_LOG_INTERVAL_MS) return;
    this.#missedAt = now;
    this.#log.log("warn", "watch_poll_found_missed", { ...this.#missed });
    this.#missed = { deliveries: 0, sessions: 0 };
  }

  /** The membership sweep ended the watches of `count` memberships nobody announced. */
  membershipsEnded(count: number): void {
    this.#log.log("info", "watch_memberships_swept", { ended: count });
  }
}
