import type { StoreHealthReason } from "../protocol/index.ts";

/** What one health check found; the reasons are the protocol layer's `STORE_HEALTH_REASONS`. */
export type StoreHealthVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: StoreHealthReason };

/**
 * Asks the store whether it can serve: resolves when it can, rejects when it cannot. `timeoutMs`
 * is the caller's own bound, a hint for the store to stop waiting by then.
 */
export type StoreProbe = (timeoutMs: number) => Promise<void>;

/** How a {@link StoreHealth} paces its probes, ms. */
export interface StoreHealthOptions {
  /** A probe not answered within this is a `store_timeout`; default 2000. */
  readonly timeoutMs?: number;
  /** A verdict is reused for this long after it was reached; default 1000. */
  readonly freshMs?: number;
  /** Called when the verdict changes from healthy to not, or back (the server logs it). */
  readonly onChange?: (verdict: StoreHealthVerdict) => void;
  /** Monotonic clock, ms (tests). */
  readonly now?: () => number;
}

/** Defaults of {@link StoreHealthOptions}, ms. */
export const STORE_HEALTH_DEFAULTS: Readonly<{ timeoutMs: number; freshMs: number }> =
  Object.freeze({ timeoutMs: 2000, freshMs: 1000 });

const HEALTHY: StoreHealthVerdict = Object.freeze({ ok: true });
const UNREACHABLE: StoreHealthVerdict = Object.freeze({ ok: false, reason: "store_unreachable" });
const TIMED_OUT: StoreHealthVerdict = Object.freeze({ ok: false, reason: "store_timeout" });

/**
 * The store half of `/v1/health`, built so that polling it cannot load the store: at most one probe
 * runs at any time, every check made while it runs shares its verdict, and a verdict is reused for
 * `freshMs`. A probe that outlives `timeoutMs` is answered `store_timeout` at that moment, and
 * while it still runs every check answers `store_timeout` at once rather than start another (so a
 * hung database cannot collect a pile of probes). The verdict carries a fixed reason, never an
 * error's text (which could hold an address).
 *
 * @example
 * const health = new StoreHealth((ms) => store.probe(ms));
 * const verdict = await health.check(); // { ok: true } or { ok: false, reason: "store_timeout" }
 */
export class StoreHealth {
  readonly #probe: StoreProbe;
  readonly #timeoutMs: number;
  readonly #freshMs: number;
  readonly #onChange: ((verdict: StoreHealthVerdict) => void) | undefined;
  readonly #now: () => number;
  #last: { verdict: StoreHealthVerdict; at: number } | undefined;
  #checking: Promise<StoreHealthVerdict> | undefined;
  #probing = false;

  constructor(probe: StoreProbe, options: StoreHealthOptions = {}) {
    this.#probe = probe;
    this.#timeoutMs = Math.max(1, options.timeoutMs ?? STORE_HEALTH_DEFAULTS.timeoutMs);
    this.#freshMs = Math.max(0, options.freshMs ?? STORE_HEALTH_DEFAULTS.freshMs);
    this.#onChange = options.onChange;
    this.#now = options.now ?? (() => performance.now());
  }

  /** The store's health now, or as found at most `freshMs` ago. Never rejects. */
  check(): Promise<StoreHealthVerdict> {
    const last = this.#last;
    if (last !== undefined && this.#now() - last.at < this.#freshMs) {
      return Promise.resolve(last.verdict);
    }
    if (this.#checking !== undefined) return this.#checking;
    if (this.#probing) return Promise.resolve(this.#record(TIMED_OUT));
    this.#checking = this.#run().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  async #run(): Promise<StoreHealthVerdict> {
    this.#probing = true;
    const probed = Promise.resolve()
      .then(() => this.#probe(this.#timeoutMs))
      .then(
        () => HEALTHY,
        () => UNREACHABLE,
      )
      .finally(() => {
        this.#probing = false;
      });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<StoreHealthVerdict>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.#timeoutMs);
      timer.unref?.();
    });
    const verdict = await Promise.race([probed, timedOut]);
    clearTimeout(timer);
    return this.#record(verdict);
  }

  #record(verdict: StoreHealthVerdict): StoreHealthVerdict {
    // Healthy until a probe says otherwise: the first failure is a change, a first success not.
    const wasHealthy = this.#last?.verdict.ok ?? true;
    this.#last = { verdict, at: this.#now() };
    if (verdict.ok !== wasHealthy) this.#onChange?.(verdict);
    return verdict;
  }
}
