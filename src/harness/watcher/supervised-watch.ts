import type { Adapter, ErrorCode, WatchHandle } from "../../protocol/index.ts";
import { WakeableWait } from "./wakeable-wait.ts";
import { DEGRADED_NOTICE, RECONNECTED_NOTICE, type WatchSupervision } from "./watch-supervision.ts";
import { errorCodeOf } from "./watcher-error-code.ts";
import type { WatcherLog } from "./watcher-log.ts";

/** Codes that stop the watcher (docs/spec/claude-code.md §7.4: exit statuses 4, 5, 10, 11). */
const FATAL_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "unauthenticated",
  "unauthorized",
  "protocol_mismatch",
  "config",
]);

/** Construction options of {@link SupervisedWatch}. */
export interface SupervisedWatchOptions {
  readonly adapter: Pick<Adapter, "messageWatch">;
  readonly sessionId: string;
  readonly log: WatcherLog;
  /** The clock, ms: the time of each failure. */
  readonly now: () => number;
  readonly supervision: WatchSupervision;
  /** False once the watcher stops: no event is handled and no watch opened after that. */
  readonly running: () => boolean;
  /** The retry wait (default real timers). */
  readonly retryWait?: WakeableWait;
  /** Writes a notice line for the user (the slow-retry and reconnected notices). */
  readonly notice: (line: string) => void;
  /** Each `message` event's envelope. */
  readonly onMessage: (envelope: unknown) => void;
  /** The watch is live (`ready`, or a `live` status), after any reconnected notice. */
  readonly onLive: () => void;
  /** The watch is retrying (a non-live status, or waiting to restart). */
  readonly onRetrying: () => void;
}

/**
 * The adapter's message watch kept open (docs/41-watcher.md "Supervision"): each handle is read to
 * its end, its events dispatched; a watch that ends is opened again after the delay
 * {@link WatchSupervision} gives (logged `watch_restart`, with its notices), and a non-retryable
 * `unauthenticated`, `unauthorized`, `protocol_mismatch` or `config` ends the supervision.
 * Logs `watch_error`, `watch_crashed`, `watch_live`, `acked`. Never throws.
 *
 * @example const fatal = await watch.run(); // elsewhere: watch.stop();
 */
export class SupervisedWatch {
  readonly #o: SupervisedWatchOptions;
  readonly #retryWait: WakeableWait;
  #handle: WatchHandle | undefined;

  constructor(options: SupervisedWatchOptions) {
    this.#o = options;
    this.#retryWait = options.retryWait ?? new WakeableWait();
  }

  /**
   * Watches until `running()` is false (resolves `undefined`) or a fatal error (resolves its
   * code; the caller writes the notice and stops).
   */
  async run(): Promise<ErrorCode | undefined> {
    const { adapter, log, sessionId } = this.#o;
    while (this.#o.running()) {
      let fatal: ErrorCode | undefined;
      let lastCode = "stream_ended";
      const handle = adapter.messageWatch(sessionId);
      this.#handle = handle;
      try {
        for await (const event of handle.events) {
          if (!this.#o.running()) break;
          switch (event.event) {
            case "ready":
              this.#live();
              break;
            case "message":
              this.#o.onMessage(event.message);
              break;
            case "status":
              if (event.state === "live") this.#live();
              else this.#o.onRetrying();
              break;
            case "error":
              lastCode = event.error.code;
              log.write("warn", "watch_error", {
                code: event.error.code,
                retryable: event.error.retryable,
              });
              if (!event.error.retryable && FATAL_CODES.has(event.error.code)) {
                fatal = event.error.code;
              }
              break;
            case "acked":
              log.write("debug", "acked", { count: event.message_ids.length });
              break;
            case "heartbeat_ok":
              break;
          }
        }
      } catch (error) {
        lastCode = errorCodeOf(error);
        log.write("warn", "watch_crashed", { code: lastCode });
      }
      this.#handle = undefined;
      await handle.close().catch(() => {});
      if (!this.#o.running()) return undefined;
      if (fatal !== undefined) return fatal;
      const retry = this.#o.supervision.failed(this.#o.now());
      if (retry.announce) this.#o.notice(DEGRADED_NOTICE);
      this.#o.onRetrying();
      log.write("warn", "watch_restart", {
        code: lastCode,
        delay_ms: retry.delayMs,
        slow: retry.slow,
      });
      await this.#retryWait.wait(retry.delayMs);
    }
    return undefined;
  }

  /** Ends a retry wait now (the session was just re-opened), so the watch reconnects at once. */
  retryNow(): void {
    this.#retryWait.wake();
  }

  /** After `running()` turned false: closes the open handle and ends a retry wait. */
  stop(): void {
    this.#handle?.close().catch(() => {});
    this.#retryWait.wake();
  }

  #live(): void {
    if (this.#o.supervision.live()) this.#o.notice(RECONNECTED_NOTICE);
    this.#o.onLive();
    this.#o.log.write("info", "watch_live");
  }
}
