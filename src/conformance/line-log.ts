import type { SpawnOutcome } from "./spawn.ts";

/**
 * The stdout of a long-lived adapter call as it arrives: its complete lines, the outcome once the
 * call ended, and waits on either. One home for a spawned child and an in-process call, so both
 * answer `waitForLine` and `waitExit` alike.
 */
export class LineLog {
  /** Every complete stdout line so far (without the `\n`). */
  readonly lines: string[] = [];
  #partial = "";
  #outcome: SpawnOutcome | undefined;
  readonly #listeners = new Set<() => void>();

  /** The outcome, once {@link end} was called. */
  get outcome(): SpawnOutcome | undefined {
    return this.#outcome;
  }

  /** Adds stdout text; each completed line wakes the waits. */
  append(text: string): void {
    this.#partial += text;
    let nl = this.#partial.indexOf("\n");
    while (nl >= 0) {
      this.lines.push(this.#partial.slice(0, nl));
      this.#partial = this.#partial.slice(nl + 1);
      nl = this.#partial.indexOf("\n");
    }
    this.#notify();
  }

  /** Records the outcome (the first one counts) and wakes the waits. */
  end(outcome: SpawnOutcome): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = outcome;
    this.#notify();
  }

  /**
   * The index of the first line (from `from`) matching `predicate`; -1 when the call ended
   * without one or `timeoutMs` passed.
   */
  async waitForLine(
    predicate: (line: string) => boolean,
    timeoutMs: number,
    from = 0,
  ): Promise<number> {
    const found = await this.#waitUntil(() => {
      for (let i = from; i < this.lines.length; i++) {
        if (predicate(this.lines[i] as string)) return i;
      }
      return this.#outcome !== undefined ? -1 : undefined;
    }, timeoutMs);
    return found ?? -1;
  }

  /** The outcome once the call ended, or `undefined` after `timeoutMs` (Infinity: no bound). */
  waitExit(timeoutMs: number): Promise<SpawnOutcome | undefined> {
    return this.#waitUntil(() => this.#outcome, timeoutMs);
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  #waitUntil<T>(check: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    return new Promise((resolve) => {
      const first = check();
      if (first !== undefined) {
        resolve(first);
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onChange = (): void => {
        const value = check();
        if (value !== undefined) done(value);
      };
      const done = (value: T | undefined): void => {
        clearTimeout(timer);
        this.#listeners.delete(onChange);
        resolve(value);
      };
      if (Number.isFinite(timeoutMs)) timer = setTimeout(() => done(undefined), timeoutMs);
      this.#listeners.add(onChange);
    });
  }
}
