import { describe, expect, test } from "vitest";
import { SlidingWindowLimiter } from "./sliding-window-limiter.ts";

describe("SlidingWindowLimiter", () => {
  test("counts at most `limit` events per window and key, then says how long to wait", () => {
    let now = 1_000;
    const limiter = new SlidingWindowLimiter(2, 60_000, () => now);
    expect(limiter.take("a")).toBe(0);
    now += 10_000;
    expect(limiter.take("a")).toBe(0);
    expect(limiter.take("a")).toBe(50_000);
    expect(limiter.take("b")).toBe(0);
    now += 50_000;
    expect(limiter.wait("a")).toBe(0);
  });

  test("keys that are only asked about, or whose events left the window, hold no memory", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(1, 60_000, () => now);
    for (let i = 0; i < 1_000; i++) expect(limiter.wait(`2001:db8::${i.toString(16)}`)).toBe(0);
    expect(limiter.keys).toBe(0);
    limiter.take("a");
    expect(limiter.keys).toBe(1);
    now += 60_000;
    expect(limiter.wait("a")).toBe(0);
    expect(limiter.keys).toBe(0);
  });
});
