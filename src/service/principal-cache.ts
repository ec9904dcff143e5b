/** Default most entries a {@link PrincipalCache} keeps (about 150 bytes each: 15 MB at most). */
export const PRINCIPAL_CACHE_MAX_ENTRIES = 100_000;

/**
 * token digest → `principal_ref` for principals whose row is known to be committed and durable,
 * least recently used evicted first. Sound because a principal is never re-keyed, revocation is
 * per team membership (checked inside every unit), and the only deletion — the retention sweep
 * of principals that belong to no team — calls {@link clear} after it. Only positive answers are
 * kept, so a principal minted by another process is found on its first request, and a flood of
 * unknown tokens cannot grow the cache. Anything that ever deletes or re-keys a principal must
 * call {@link forget} or {@link clear}.
 *
 * @example
 * const cache = new PrincipalCache(2);
 * cache.remember("ab12…", "p-3f09a1c27be4d5e60a1b");
 * cache.lookup("ab12…"); // "p-3f09a1c27be4d5e60a1b"
 */
export class PrincipalCache {
  readonly #byDigest = new Map<string, string>();
  readonly #maxEntries: number;

  /** `maxEntries` ≥ 1 (default {@link PRINCIPAL_CACHE_MAX_ENTRIES}). */
  constructor(maxEntries: number = PRINCIPAL_CACHE_MAX_ENTRIES) {
    this.#maxEntries = Math.max(1, Math.floor(maxEntries));
  }

  /** The principal of `digest`, or `undefined` when it is not cached (the store must be asked). */
  lookup(digest: string): string | undefined {
    const principalRef = this.#byDigest.get(digest);
    if (principalRef !== undefined) {
      // Re-insert so the Map's insertion order is recency order.
      this.#byDigest.delete(digest);
      this.#byDigest.set(digest, principalRef);
    }
    return principalRef;
  }

  /** Records a committed, durable principal; evicts the least recently used entry when full. */
  remember(digest: string, principalRef: string): void {
    this.#byDigest.delete(digest);
    this.#byDigest.set(digest, principalRef);
    if (this.#byDigest.size > this.#maxEntries) {
      const oldest = this.#byDigest.keys().next();
      if (oldest.done !== true) this.#byDigest.delete(oldest.value);
    }
  }

  /** Drops `digest` (for a future principal deletion or re-key). */
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
