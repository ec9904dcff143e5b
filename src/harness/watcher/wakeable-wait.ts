/** The timer functions a {@link WakeableWait} uses; default the global ones. */
export interface WaitTimers {
  readonly setTimeout: (callback: () => void, ms: number) => unknown;
  readonly clearTimeout: (handle: unknown) => void;
}

const GLOBAL_TIMERS: WaitTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A wait of at most `ms` that {@link wake} ends early: the watcher's delivery loop waits on one
 * (woken by new work or a tick), the supervised watch's retry on another (woken by a stop or a
 * resumed session). {@link wake} ends the latest wait only; with none pending it does nothing and
 * is not remembered. A negative `ms` waits 0. Never rejects.
 *
 * @example const idle = new WakeableWait(); await idle.wait(2_000); // elsewhere: idle.wake();
 */
export class WakeableWait {
  readonly #timers: WaitTimers;
  #end: (() => void) | undefined;

  constructor(timers: WaitTimers = GLOBAL_TIMERS) {
    this.#timers = timers;
  }

  /** Resolves after `ms` or at the next {@link wake}, whichever comes first. */
  wait(ms: number): Promise<void> {
    const timers = this.#timers;
    return new Promise((resolve) => {
      const timer = timers.setTimeout(end, Math.max(0, ms));
      this.#end = end;
      function end(): void {
        timers.clearTimeout(timer);
        resolve();
      }
    });
  }

  /** Ends the latest wait now. */
  wake(): void {
    this.#end?.();
  }
}
