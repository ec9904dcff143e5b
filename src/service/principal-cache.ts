/** Default most entries a {@link PrincipalCache} keeps (about 150 bytes each: 15 MB at most). */
export const PRINCIPAL_CACHE_MAX_ENTRIES = 100_000;

/**
 * How long a cached answer stands on a store shared by several server processes, ms: a token
 * replaced through another process (`profile rotate-token`) is refused here within this bound.
 * Each active principal then costs one lookup per this period per process, a round trip nobody
 * waits on twice.
 */
export const SHARED_STORE_PRINCIPAL_MAX_AGE_MS = 2000;

/** Options of {@link PrincipalCache}. */
export interface PrincipalCacheOptions {
  /** Most entries (≥ 1, default {@link PRINCIPAL_CACHE_MAX_ENTRIES}). */
  readonly maxEntries?: number;
  /** An entry older than this (ms) is asked of the store again; default: never. */
  readonly maxAgeMs?: number;
  /** The clock of `maxAgeMs` (ms since the epoch); default `Date.now`. */
  readonly now?: () => number;
}

/**
 * token digest → `principal_ref` for principals whose row is known to be committed and durable,
 * least recently used evicted first. Sound because the only changes to a principal's key are
 * made through this process's service, which tells the cache ({@link forget} the replaced digest
 * of a token rotation; {@link clear} after the retention sweep deletes principals) — except on a
 * store several processes share, where another process may replace or delete a principal: there
 * an answer stands for `maxAgeMs` only. Only positive answers are kept, so a principal minted by
 * another process is found on its first request, and a flood of unknown tokens cannot grow the
 * cache.
 *
 * @example
 * const cache = new PrincipalCache({ maxEntries: 2 });
 * cache.remember("ab12…", "p-3f09a1c27be4d5e60a1b");
 * cache.lookup("ab12…"); // "p-3f09a1c27be4d5e60a1b"
 */
export class PrincipalCache {
  readonly #byDigest = new Map<string, { principalRef: string; at: number }>();
  readonly #maxEntries: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;

  constructor(options: PrincipalCacheOptions = {}) {
    this.#maxEntries = Math.max(1, Math.floor(options.maxEntries ?? PRINCIPAL_CACHE_MAX_ENTRIES));
    this.#maxAgeMs = options.maxAgeMs ?? Number.POSITIVE_INFINITY;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The principal of `digest`, or `undefined` when it is not cached or its answer is older than
   * `maxAgeMs` (the store must be asked).
   */
  lookup(digest: string): string | undefined {
    const entry = this.#byDigest.get(digest);
    if (entry === undefined) return undefined;
    this.#byDigest.delete(digest);
    if (this.#now() - entry.at > this.#maxAgeMs) return undefined;
    // Re-inserted so the Map's insertion order is recency order.
    this.#byDigest.set(digest, entry);
    return entry.principalRef;
  }

  /** Records a committed, durable principal; evicts the least recently used entry when full. */
  remember(digest: string, principalRef: string): void {
    this.#byDigest.delete(digest);
    this.#byDigest.set(digest, { principalRef, at: this.#now() });
    if (this.#byDigest.size > this.#maxEntries) {
      const oldest = this.#byDigest.keys().next();
      if (oldest.done !== true) this.#byDigest.delete(oldest.value);
    }
  }

  /** Drops `digest` (a token replaced by a rotation, or a principal the store no longer knows). */
  forget(digest: string): void {
    this.#byDigest.delete(digest);
  }

  /** Drops every entry (after a retention sweep deleted principals). */
  clear(): void {
    this.#byDigest.clear();
  }

  /** Number of cached principals. */
  get size(): number {
    return this.#byDigest.size;
  }
}
