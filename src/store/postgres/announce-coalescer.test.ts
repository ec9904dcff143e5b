import { describe, expect, test } from "vitest";
import { AnnounceCoalescer, type CoalescerClock } from "./announce-coalescer.ts";

/** A clock whose time moves only when the test says so. */
class FakeClock implements CoalescerClock {
  time = 1000;
  readonly #timers: { at: number; run: () => void }[] = [];
  now(): number {
    return this.time;
  }
  schedule(run: () => void, delayMs: number): void {
    this.#timers.push({ at: this.time + delayMs, run });
  }
  get pending(): number {
    return this.#timers.length;
  }
  /** Moves time forward by `ms`, running each timer that falls due, in time order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at);
      const next = this.#timers[0];
      if (next === undefined || next.at > end) break;
      this.#timers.shift();
      this.time = next.at;
      next.run();
    }
    this.time = end;
  }
}

function setup(maxBatchChars = 1000) {
  const clock = new FakeClock();
  const batches: { at: number; items: readonly string[] }[] = [];
  const coalescer = new AnnounceCoalescer({
    intervalMs: 5,
    maxBatchChars,
    clock,
    flush: (items) => batches.push({ at: clock.time, items }),
  });
  return { clock, batches, coalescer };
}

describe("AnnounceCoalescer", () => {
  test("items added in one turn leave together, once each, on the next timer turn", () => {
    const { clock, batches, coalescer } = setup();
    coalescer.add("s-1");
    coalescer.add("s-2");
    coalescer.add("s-1");
    expect(batches).toEqual([]);
    clock.advance(0);
    expect(batches).toEqual([{ at: 1000, items: ["s-1", "s-2"] }]);
    expect(coalescer.waiting).toBe(0);
    expect(clock.pending).toBe(0);
  });

  test("at most one batch per interval however often items arrive", () => {
    const { clock, batches, coalescer } = setup();
    for (let t = 0; t < 20; t++) {
      coalescer.add(`s-${t}`);
      clock.advance(1);
    }
    clock.advance(10);
    const times = batches.map((b) => b.at);
    for (let i = 1; i < times.length; i++) {
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(5);
    }
    expect(batches.length).toBeLessThanOrEqual(5);
    expect(batches.flatMap((b) => b.items)).toEqual(Array.from({ length: 20 }, (_, t) => `s-${t}`));
  });

  test("an item added after a quiet spell leaves at once, not an interval late", () => {
    const { clock, batches, coalescer } = setup();
    coalescer.add("s-1");
    clock.advance(0);
    clock.advance(100);
    coalescer.add("s-2");
    clock.advance(0);
    expect(batches.map((b) => b.at)).toEqual([1000, 1100]);
  });

  test("a batch never exceeds its size; the rest follow in order one interval later", () => {
    const { clock, batches, coalescer } = setup(11);
    for (const id of ["s-1", "s-2", "s-3", "s-4", "s-5"]) coalescer.add(id);
    clock.advance(0);
    expect(batches).toEqual([{ at: 1000, items: ["s-1", "s-2", "s-3"] }]);
    clock.advance(4);
    expect(batches).toHaveLength(1);
    clock.advance(1);
    expect(batches[1]).toEqual({ at: 1005, items: ["s-4", "s-5"] });
    for (const b of batches) expect(b.items.join(",").length).toBeLessThanOrEqual(11);
  });

  test("an item that can never fit is dropped and blocks nothing", () => {
    const { clock, batches, coalescer } = setup(5);
    coalescer.add("way-too-long");
    coalescer.add("s-1");
    clock.advance(0);
    expect(batches).toEqual([{ at: 1000, items: ["s-1"] }]);
  });

  test("an item re-added while waiting is not sent twice; after its flush it is sent again", () => {
    const { clock, batches, coalescer } = setup();
    coalescer.add("s-1");
    clock.advance(0);
    coalescer.add("s-1");
    coalescer.add("s-1");
    clock.advance(5);
    expect(batches.map((b) => b.items)).toEqual([["s-1"], ["s-1"]]);
  });
});
