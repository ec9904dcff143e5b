import { BapError, protocolError } from "../protocol/index.ts";

/** The bounds on `message watch` streams (docs/30-http-api.md, "Watch lifetime and limits"). */
export interface WatchLimits {
  /** Watches open at once on one session. */
  readonly perSession: number;
  /** Watches open at once by one principal, over all its sessions and teams. */
  readonly perPrincipal: number;
  /**
   * Messages a stream may owe its reader (heard of, not yet written because the reader has not
   * taken what came before) before the reader counts as fallen behind and is dropped.
   */
  readonly backlog: number;
}

/**
 * The limits `brigade serve` runs with: 4 watches per session (one watcher, plus room for a
 * reconnect that overlaps the old stream and a manual `brigade` watch), 32 per principal (eight such
 * sessions), a backlog of 256 messages (over four times the 60-message inbox cap, so only a reader
 * that has stopped reading ever reaches it).
 */
export const DEFAULT_WATCH_LIMITS: WatchLimits = Object.freeze({
  perSession: 4,
  perPrincipal: 32,
  backlog: 256,
});

/**
 * `retry_after_ms` of a refused watch: a slot frees only when another watch ends, which the server
 * cannot foresee, so the hint is the http adapter's longest reconnect delay.
 */
export const WATCH_LIMIT_RETRY_AFTER_MS = 5000;

/** A stream the registry can end at shutdown. */
export interface EndableStream {
  /** Writes a final event, then closes the stream. */
  end(event: string, data: unknown): void;
}

/** One claimed watch slot: counted from the claim until `release` (idempotent). */
export interface WatchSlot {
  /** Registers the slot's stream so shutdown can end it. */
  attach(stream: EndableStream): void;
  release(): void;
}

/**
 * The open watch streams of one server: enforces {@link WatchLimits} per session and per principal
 * and lets shutdown say goodbye to each stream. A watch counts from its claim (before the
 * ownership check resolves, so concurrent requests cannot overrun a cap) until its release.
 *
 * @example
 * const slot = registry.claim("p-1", "s-1"); // throws BapError rate_limited over a cap
 * slot.attach(stream); … slot.release();
 */
export class WatchRegistry {
  /** The limits this registry enforces; streams read `backlog` from here. */
  readonly limits: WatchLimits;
  readonly #streams = new Set<EndableStream>();
  readonly #bySession = new Map<string, number>();
  readonly #byPrincipal = new Map<string, number>();
  #claimed = 0;

  constructor(limits: WatchLimits = DEFAULT_WATCH_LIMITS) {
    this.limits = limits;
  }

  /** Watches counted now: claimed and not yet released. */
  get size(): number {
    return this.#claimed;
  }

  /** Ends every attached stream with a final `shutdown` event. */
  shutdownAll(): void {
    for (const stream of [...this.#streams]) stream.end("shutdown", {});
  }

  /**
   * Claims a slot for a watch of `sessionId` by `principalRef`. Throws a `BapError` `rate_limited`
   * (reason `watch_limit_session` or `watch_limit_principal`, `retry_after_ms`
   * {@link WATCH_LIMIT_RETRY_AFTER_MS}) when the session or the principal is at its cap.
   */
  claim(principalRef: string, sessionId: string): WatchSlot {
    // A session has one owner, so keying it with the principal keeps another principal's
    // requests for the same id (refused later as not_found) off the owner's count.
    const sessionKey = `${principalRef}/${sessionId}`;
    const bySession = this.#bySession.get(sessionKey) ?? 0;
    const byPrincipal = this.#byPrincipal.get(principalRef) ?? 0;
    if (bySession >= this.limits.perSession) throw refusal("watch_limit_session");
    if (byPrincipal >= this.limits.perPrincipal) throw refusal("watch_limit_principal");
    this.#bySession.set(sessionKey, bySession + 1);
    this.#byPrincipal.set(principalRef, byPrincipal + 1);
    this.#claimed++;
    let stream: EndableStream | undefined;
    let released = false;
    return {
      attach: (s) => {
        if (released) return;
        stream = s;
        this.#streams.add(s);
      },
      release: () => {
        if (released) return;
        released = true;
        if (stream !== undefined) this.#streams.delete(stream);
        decrement(this.#bySession, sessionKey);
        decrement(this.#byPrincipal, principalRef);
        this.#claimed--;
      },
    };
  }
}

function refusal(reason: "watch_limit_session" | "watch_limit_principal"): BapError {
  return new BapError({
    ...protocolError("rate_limited", { reason }),
    retry_after_ms: WATCH_LIMIT_RETRY_AFTER_MS,
  });
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 0) - 1;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
