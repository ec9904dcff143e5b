/**
 * An unbounded single-consumer async queue: producers `push` synchronously, one consumer iterates;
 * `end()` finishes the iteration once the buffered items are drained. Pushes after `end()` are
 * dropped (late answers of a closed watch).
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
