/**
 * A set of strings that keeps at most `capacity` entries, evicting the least recently used
 * (added or found by {@link has}). Used for the 2,000 most recent injected message ids.
 *
 * @example const s = new LruSet(2); s.add("a"); s.add("b"); s.add("c"); s.has("a") === false
 */
export class LruSet {
  readonly #capacity: number;
  readonly #entries = new Map<string, true>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** True when `key` is held; a hit makes it the most recently used. */
  has(key: string): boolean {
    if (!this.#entries.has(key)) return false;
    this.#entries.delete(key);
    this.#entries.set(key, true);
    return true;
  }

  /** Adds `key` as the most recently used, evicting the least recently used beyond capacity. */
  add(key: string): void {
    this.#entries.delete(key);
    this.#entries.set(key, true);
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
  }

  /** Entries from least to most recently used. */
  keys(): string[] {
    return [...this.#entries.keys()];
  }
}
