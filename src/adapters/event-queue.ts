/**
 * A single-consumer async queue: producers `push` synchronously, one consumer iterates; `end()`
 * finishes the iteration once the buffered items are drained. Pushes after `end()` are dropped
 * (late answers of a closed watch). `push` never refuses; a producer that must stay bounded waits
 * on {@link roomFor} before reading more.
 *
 * @example
 * const q = new EventQueue<number>(); q.push(1); q.end();
 * for await (const n of q) console.log(n); // 1
 */
export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  #ended = false;
  #waiter: ((result: IteratorResult<T, undefined>) => void) | undefined;
  #room: { readonly most: number; readonly resolve: () => void } | undefined;

  /** Items buffered, not yet taken by the consumer. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  /**
   * Resolves once at most `most` items are buffered, or the queue ended (one producer waits at a
   * time; a second call replaces the first's wait, which then resolves).
   */
  roomFor(most: number): Promise<void> {
    if (this.size <= most || this.#ended) return Promise.resolve();
    this.#room?.resolve();
    return new Promise((resolve) => {
      this.#room = { most, resolve };
    });
  }

  #checkRoom(): void {
    const room = this.#room;
    if (room !== undefined && (this.size <= room.most || this.#ended)) {
      this.#room = undefined;
      room.resolve();
    }
  }

  /** True once {@link end} was called. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Adds an item (dropped after {@link end}). */
  push(item: T): void {
    if (this.#ended) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: item, done: false });
      return;
    }
    this.#items.push(item);
  }

  /** Ends the stream after the buffered items. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#checkRoom();
    const waiter = this.#waiter;
    if (waiter !== undefined && this.#head >= this.#items.length) {
      this.#waiter = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  /** The consumer side (one consumer). */
  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: (): Promise<IteratorResult<T, undefined>> => {
        if (this.#head < this.#items.length) {
          const value = this.#items[this.#head] as T;
          this.#head++;
          if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
            this.#items = this.#items.slice(this.#head);
            this.#head = 0;
          }
          this.#checkRoom();
          return Promise.resolve({ value, done: false });
        }
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiter = resolve;
        });
      },
      return: (): Promise<IteratorResult<T, undefined>> => {
        this.end();
        this.#items = [];
        this.#head = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
