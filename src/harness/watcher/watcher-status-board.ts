import type { StateLayout } from "../state/index.ts";
import { type WatcherState, writeWatcherStatus } from "./watcher-files.ts";

/** Construction options of {@link WatcherStatusBoard}. */
export interface WatcherStatusBoardOptions {
  readonly layout: StateLayout;
  readonly claudePid: string;
  readonly sessionId: string;
  /** The watcher's own pid, recorded in the file. */
  readonly pid: number;
  /** The clock, ms since the epoch (`updated_at`, `last_delivery_at`). */
  readonly now: () => number;
}

/**
 * The watcher's status file `watchers/<pid>.status.json` (docs/41-watcher.md "Files"): the state
 * (`connecting` at first), the delivered count and the last delivery time. It is written at
 * {@link write}, on each state change (an unchanged state writes nothing) and after each
 * delivery; every write is the private atomic write of `writeWatcherStatus`.
 *
 * @example board.set("live"); board.delivered();
 */
export class WatcherStatusBoard {
  readonly #o: WatcherStatusBoardOptions;
  #state: WatcherState = "connecting";
  #delivered = 0;
  #lastDeliveryAt: string | null = null;

  constructor(options: WatcherStatusBoardOptions) {
    this.#o = options;
  }

  /** The current state. */
  get state(): WatcherState {
    return this.#state;
  }

  /** Moves to `state`, writing the file only when it changes. */
  set(state: WatcherState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.write();
  }

  /** Counts one delivered message at the clock's now and writes the file. */
  delivered(): void {
    this.#delivered += 1;
    this.#lastDeliveryAt = new Date(this.#o.now()).toISOString();
    this.write();
  }

  /** Writes the file as it stands. */
  write(): void {
    writeWatcherStatus(this.#o.layout, this.#o.claudePid, {
      version: 1,
      pid: this.#o.pid,
      brigade_session_id: this.#o.sessionId,
      state: this.#state,
      last_delivery_at: this.#lastDeliveryAt,
      delivered: this.#delivered,
      updated_at: new Date(this.#o.now()).toISOString(),
    });
  }
}
