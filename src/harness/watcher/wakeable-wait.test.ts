import { describe, expect, test } from "vitest";
import { type WaitTimers, WakeableWait } from "./wakeable-wait.ts";

/** Timers the test fires by hand: `fire()` runs every pending callback. */
function handTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: WaitTimers = {
    setTimeout: (callback, ms) => {
      next += 1;
      pending.set(next, { callback, ms });
      return next;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  const fire = (): void => {
    for (const [id, { callback }] of [...pending]) {
      pending.delete(id);
      callback();
    }
  };
  return { timers, pending, fire };
}

const settled = async (p: Promise<void>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe("WakeableWait", () => {
  test("ends when its timer fires, with a negative wait clamped to 0", async () => {
    const { timers, pending, fire } = handTimers();
    const wait = new WakeableWait(timers).wait(-5);
    expect([...pending.values()].map((t) => t.ms)).toEqual([0]);
    expect(await settled(wait)).toBe(false);
    fire();
    expect(await settled(wait)).toBe(true);
  });

  test("wake ends the latest wait early and clears its timer", async () => {
    const { timers, pending } = handTimers();
    const w = new WakeableWait(timers);
    const wait = w.wait(2_000);
    w.wake();
    expect(await settled(wait)).toBe(true);
    expect(pending.size).toBe(0);
  });

  test("a wake with no wait pending is not remembered", async () => {
    const { timers, fire } = handTimers();
    const w = new WakeableWait(timers);
    w.wake();
    const wait = w.wait(1_000);
    expect(await settled(wait)).toBe(false);
    fire();
    expect(await settled(wait)).toBe(true);
  });
});
