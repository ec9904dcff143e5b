import {
  type Adapter,
  hasCapability,
  MAX_STATE_IDS,
  type ReportableState,
} from "../../protocol/index.ts";

/** Most (message, state) pairs a reporter remembers having reported (oldest forgotten first). */
export const REPORTED_MEMORY = 2_000;

/**
 * Tells the sender's side what our inbound policy did with a message (capability
 * `message.state`, `message report`): `held` when the pipeline holds it for the user, `refused`
 * when it refuses it. Each (message, state) pair is reported once per reporter; an adapter
 * without the capability makes every call a no-op. Reports are best effort: a failed one is
 * passed to `onFailure` (a code, never a value) and tried again only when the message is offered
 * again. Bounded against a flooding server: at most one report per state is in flight (notes made
 * meanwhile go in the next one), and at most `MAX_STATE_IDS` (200) ids per state wait; a note
 * beyond that is dropped, and reported when its message is offered again.
 *
 * @example const r = new DispositionReporter(adapter, "s-51d0"); r.note("held", "m-7f3a"); await r.flush();
 */
export class DispositionReporter {
  readonly #adapter: Adapter;
  readonly #sessionId: string;
  readonly #onFailure: (code: string) => void;
  readonly #reported = new Set<string>();
  readonly #waiting: Record<ReportableState, Set<string>> = { held: new Set(), refused: new Set() };
  #supported: Promise<boolean> | undefined;
  #flushing: Promise<void> | undefined;
  #again = false;

  constructor(adapter: Adapter, sessionId: string, onFailure: (code: string) => void = () => {}) {
    this.#adapter = adapter;
    this.#sessionId = sessionId;
    this.#onFailure = onFailure;
  }

  /** Notes a pipeline outcome; only `held` and `refused` are reported, each pair once. */
  note(outcome: string, messageId: string): void {
    if (outcome !== "held" && outcome !== "refused") return;
    if (this.#reported.has(`${outcome}\u0000${messageId}`)) return;
    if (this.#waiting[outcome].size >= MAX_STATE_IDS) return;
    this.#waiting[outcome].add(messageId);
  }

  /**
   * Sends what was noted since the last flush (one call per state). A flush while one runs sends
   * its notes once that one ends, and resolves with it (the first caller's `signal` applies).
   * Never throws.
   */
  flush(signal?: AbortSignal): Promise<void> {
    if (this.#flushing !== undefined) {
      this.#again = true;
      return this.#flushing;
    }
    this.#flushing = this.#drain(signal);
    return this.#flushing;
  }

  async #drain(signal: AbortSignal | undefined): Promise<void> {
    try {
      do {
        this.#again = false;
        await this.#flushOnce(signal);
      } while (this.#again);
    } finally {
      // In the same job as the loop's last look at #again: a flush after it starts a new drain,
      // where a flag cleared one job later would leave its notes for some later flush.
      this.#flushing = undefined;
    }
  }

  async #flushOnce(signal: AbortSignal | undefined): Promise<void> {
    const report = this.#adapter.messageReport?.bind(this.#adapter);
    const batches = (["held", "refused"] as const)
      .map((state) => ({ state, ids: [...this.#waiting[state]] }))
      .filter((b) => b.ids.length > 0);
    if (batches.length === 0) return;
    for (const b of batches) this.#waiting[b.state].clear();
    if (report === undefined || !(await this.#isSupported())) return;
    await Promise.all(
      batches.map(async ({ state, ids }) => {
        try {
          await report(
            this.#sessionId,
            { message_ids: ids, state },
            signal === undefined ? {} : { signal },
          );
          for (const id of ids) this.#remember(`${state}\u0000${id}`);
        } catch (error) {
          const code =
            typeof error === "object" && error !== null && "code" in error
              ? String((error as { code: unknown }).code)
              : "internal";
          this.#onFailure(code);
        }
      }),
    );
  }

  #isSupported(): Promise<boolean> {
    this.#supported ??= this.#adapter.describe().then(
      (d) => hasCapability(d.capabilities, "message.state"),
      () => false,
    );
    return this.#supported;
  }

  #remember(key: string): void {
    this.#reported.add(key);
    if (this.#reported.size > REPORTED_MEMORY) {
      const oldest = this.#reported.values().next();
      if (oldest.done !== true) this.#reported.delete(oldest.value);
    }
  }
}
