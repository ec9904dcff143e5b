import { describe, expect, test } from "vitest";
import { WatchSupervision } from "./watch-supervision.ts";
import { WATCHER_BACKOFF, type WatcherBackoff } from "./watcher-backoff.ts";

// With a jitter of 0.5: a fast delay is 0.75 of its base (never below minMs), a slow one slowMs.
const half = (): number => 0.5;
const small: WatcherBackoff = {
  minMs: 1_000,
  maxMs: 4_000,
  failureLimit: 3,
  failureWindowMs: 60_000,
  slowMs: 300_000,
};

describe("WatchSupervision", () => {
  test("backs off exponentially up to maxMs, then goes slow at the failure limit and says so once", () => {
    const s = new WatchSupervision({ ...small, failureLimit: 5 }, half);
    const retries = [0, 1, 2, 3, 4, 5].map((i) => s.failed(i * 1_000));
    expect(retries.map((r) => r.delayMs)).toEqual([1_000, 1_500, 3_000, 3_000, 300_000, 300_000]);
    expect(retries.map((r) => r.slow)).toEqual([false, false, false, false, true, true]);
    expect(retries.map((r) => r.announce)).toEqual([false, false, false, false, true, false]);
    expect(s.degraded).toBe(true);
  });

  test("with the defaults, ten failures within five minutes retry about every five minutes", () => {
    const s = new WatchSupervision(WATCHER_BACKOFF, () => 0.99);
    let retry = s.failed(0);
    for (let i = 1; i < 10; i += 1) retry = s.failed(i * 20_000);
    expect(retry.slow).toBe(true);
    expect(retry.announce).toBe(true);
    expect(retry.delayMs).toBeGreaterThanOrEqual(240_000);
    expect(retry.delayMs).toBeLessThanOrEqual(360_000);
  });

  test("failures further apart than the window never add up to slow mode", () => {
    const s = new WatchSupervision(small, half);
    const slow = [0, 60_000, 120_000, 180_000].map((t) => s.failed(t).slow);
    expect(slow).toEqual([false, false, false, false]);
  });

  test("slow mode lasts until live, even after the failure window empties", () => {
    const s = new WatchSupervision(small, half);
    for (const t of [0, 1, 2]) s.failed(t);
    const later = s.failed(10 * small.failureWindowMs);
    expect(later).toEqual({ delayMs: 300_000, slow: true, announce: false });
  });

  test("live after slow mode asks for the reconnected notice once and starts over", () => {
    const s = new WatchSupervision(small, half);
    for (const t of [0, 1, 2]) s.failed(t);
    expect(s.live()).toBe(true);
    expect(s.live()).toBe(false);
    expect(s.degraded).toBe(false);
    // The history is gone: two more failures at once stay fast, from the first step again.
    expect(s.failed(3)).toEqual({ delayMs: 1_000, slow: false, announce: false });
    expect(s.failed(4).slow).toBe(false);
  });

  test("live after a short outage is silent but resets the back-off", () => {
    const s = new WatchSupervision({ ...small, failureLimit: 4 }, half);
    s.failed(0);
    s.failed(1);
    expect(s.live()).toBe(false);
    expect(s.failed(2).delayMs).toBe(1_000);
    // The failures before the live one still count toward the limit within the window.
    expect(s.failed(3).slow).toBe(true);
  });
});
