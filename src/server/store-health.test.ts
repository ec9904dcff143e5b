import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { StoreHealth, type StoreHealthVerdict } from "./store-health.ts";

/** A probe the test answers by hand, counting how often it was asked. */
function manualProbe() {
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  return {
    calls: () => pending.length,
    probe: (_timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
    answer(index: number, error?: Error) {
      const call = pending[index];
      if (call === undefined) throw new Error(`no probe call ${index}`);
      if (error === undefined) call.resolve();
      else call.reject(error);
    },
  };
}

let clock = 0;
beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

function health(probe: (ms: number) => Promise<void>, changes: StoreHealthVerdict[] = []) {
  return new StoreHealth(probe, {
    timeoutMs: 2000,
    freshMs: 1000,
    now: () => clock,
    onChange: (verdict) => changes.push(verdict),
  });
}

describe("StoreHealth", () => {
  test("concurrent checks share one probe, and its verdict is reused while fresh", async () => {
    const m = manualProbe();
    const h = health(m.probe);
    const checks = Array.from({ length: 50 }, () => h.check());
    await vi.advanceTimersByTimeAsync(0);
    expect(m.calls()).toBe(1);
    m.answer(0);
    expect(await Promise.all(checks)).toEqual(Array.from({ length: 50 }, () => ({ ok: true })));
    clock = 999;
    expect(await h.check()).toEqual({ ok: true });
    expect(m.calls()).toBe(1);
    clock = 1000;
    const again = h.check();
    await vi.advanceTimersByTimeAsync(0);
    expect(m.calls()).toBe(2);
    m.answer(1);
    expect(await again).toEqual({ ok: true });
  });

  test("a failed probe is store_unreachable, never the error's text; recovery is reported", async () => {
    const m = manualProbe();
    const changes: StoreHealthVerdict[] = [];
    const h = health(m.probe, changes);
    const first = h.check();
    await vi.advanceTimersByTimeAsync(0);
    m.answer(0, new Error("connect ECONNREFUSED postgres://u:hunter2@db/x"));
    const verdict = await first;
    expect(verdict).toEqual({ ok: false, reason: "store_unreachable" });
    expect(JSON.stringify(verdict)).not.toContain("hunter2");
    clock = 5000;
    const second = h.check();
    await vi.advanceTimersByTimeAsync(0);
    m.answer(1);
    expect(await second).toEqual({ ok: true });
    expect(changes).toEqual([{ ok: false, reason: "store_unreachable" }, { ok: true }]);
  });

  test("a probe that hangs is store_timeout at the bound, and no second probe starts while it hangs", async () => {
    const m = manualProbe();
    const h = health(m.probe);
    const first = h.check();
    await vi.advanceTimersByTimeAsync(2000);
    expect(await first).toEqual({ ok: false, reason: "store_timeout" });
    for (let i = 0; i < 20; i += 1) {
      clock += 1500;
      expect(await h.check()).toEqual({ ok: false, reason: "store_timeout" });
    }
    expect(m.calls()).toBe(1);
    m.answer(0);
    await vi.advanceTimersByTimeAsync(0);
    clock += 1500;
    const next = h.check();
    await vi.advanceTimersByTimeAsync(0);
    expect(m.calls()).toBe(2);
    m.answer(1);
    expect(await next).toEqual({ ok: true });
  });

  test("only changes are reported: not a first success, once per run of failures, once on recovery", async () => {
    const m = manualProbe();
    const changes: StoreHealthVerdict[] = [];
    const h = health(m.probe, changes);
    const answered = async (index: number, error?: Error) => {
      const check = h.check();
      await vi.advanceTimersByTimeAsync(0);
      m.answer(index, error);
      await check;
      clock += 1000;
    };
    await answered(0);
    expect(changes).toEqual([]);
    await answered(1, new Error("refused"));
    const hung = h.check();
    await vi.advanceTimersByTimeAsync(2000);
    expect(await hung).toEqual({ ok: false, reason: "store_timeout" });
    m.answer(2);
    await vi.advanceTimersByTimeAsync(0);
    clock += 1000;
    await answered(3);
    await answered(4);
    expect(changes).toEqual([{ ok: false, reason: "store_unreachable" }, { ok: true }]);
  });

  test("a probe that throws at once is a verdict, not a rejection", async () => {
    const h = health(() => {
      throw new Error("closed");
    });
    expect(await h.check()).toEqual({ ok: false, reason: "store_unreachable" });
  });
});
