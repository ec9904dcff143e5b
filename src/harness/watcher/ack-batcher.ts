/**
 * The caps of {@link AckBatcher}: ids waiting for their `message ack` (`waiting`) and ids sent in
 * one call (`perCall`), counts.
 */
export const ACK_LIMITS: { readonly waiting: number; readonly perCall: number } = {
  waiting: 500,
  perCall: 100,
};

/** What {@link AckBatcher} calls: the ack itself and where its outcome goes. */
export interface AckBatcherOptions {
  /** Sends one `message ack` for `ids` (1 to `perCall`); rejects when it failed. */
  readonly send: (ids: readonly string[]) => Promise<void>;
  readonly onSent: (ids: readonly string[]) => void;
  readonly onFailed: (ids: readonly string[], error: unknown) => void;
  readonly limits?: typeof ACK_LIMITS;
}

/**
 * The watcher's acknowledgements, bounded against a server that repeats messages without end
 * (docs/41-watcher.md "Bounded memory"): at most one `message ack` call runs at a time, carrying up
 * to `perCall` ids; what is added meanwhile waits, at most `waiting` ids, each once (an id waiting
 * or in flight is not added again). An id that finds the waiting set full is refused (`add`
 * answers false): it stays unacknowledged on the server, and the caller fetches it again later.
 * Never throws.
 *
 * @example const acks = new AckBatcher({ send, onSent, onFailed }); if (!acks.add("m-1")) planFetch();
 */
export class AckBatcher {
  readonly #options: AckBatcherOptions;
  readonly #limits: typeof ACK_LIMITS;
  readonly #waiting = new Set<string>();
  readonly #inFlight = new Set<string>();
  #pumping: Promise<void> | undefined;

  constructor(options: AckBatcherOptions) {
    this.#options = options;
    this.#limits = options.limits ?? ACK_LIMITS;
  }

  /** Ids waiting or in flight now. */
  get pending(): number {
    return this.#waiting.size + this.#inFlight.size;
  }

  /** Queues `messageId` for its ack; false when the waiting set is full (nothing queued). */
  add(messageId: string): boolean {
    if (this.#waiting.has(messageId) || this.#inFlight.has(messageId)) return true;
    if (this.#waiting.size >= this.#limits.waiting) return false;
    this.#waiting.add(messageId);
    if (this.#pumping === undefined) this.#pumping = this.#pump();
    return true;
  }

  /** Resolves once nothing waits or is in flight (for a clean stop and for tests). */
  async settled(): Promise<void> {
    while (this.#pumping !== undefined) await this.#pumping;
  }

  async #pump(): Promise<void> {
    try {
      // Let the adds of this turn join the first call.
      await Promise.resolve();
      while (this.#waiting.size > 0) {
        const ids = [...this.#waiting].slice(0, this.#limits.perCall);
        for (const id of ids) {
          this.#waiting.delete(id);
          this.#inFlight.add(id);
        }
        let failure: { readonly error: unknown } | undefined;
        try {
          await this.#options.send(ids);
        } catch (error) {
          failure = { error };
        }
        for (const id of ids) this.#inFlight.delete(id);
        try {
          if (failure === undefined) this.#options.onSent(ids);
          else this.#options.onFailed(ids, failure.error);
        } catch {
          // a report of the outcome must not stop the acks behind it
        }
      }
    } finally {
      // In the same job as the loop's last look at the waiting set: an add after it starts a new
      // pump, where a flag cleared one job later would leave that id waiting with no pump.
      this.#pumping = undefined;
    }
  }
}
