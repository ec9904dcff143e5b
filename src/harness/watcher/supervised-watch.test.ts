import { describe, expect, test } from "vitest";
import { fakeWatcherAdapter, fakeWatchHandle } from "../../../test/support/fake-watcher-adapter.ts";
import type { WatchEvent, WatchHandle } from "../../protocol/index.ts";
import { SupervisedWatch } from "./supervised-watch.ts";
import { type WaitTimers, WakeableWait } from "./wakeable-wait.ts";
import { DEGRADED_NOTICE, RECONNECTED_NOTICE, WatchSupervision } from "./watch-supervision.ts";
import type { WatcherLog } from "./watcher-log.ts";

const READY: WatchEvent = {
  event: "ready",
  protocol_version: "1",
  session_id: "s-1",
  mode: "push",
} as WatchEvent;
const error = (code: string, retryable: boolean): WatchEvent =>
  ({ event: "error", error: { code, message: "x", retryable } }) as WatchEvent;

/**
 * A supervised watch over scripted handles; its retry waits are recorded and ended by the test
 * (`retries`, `next()`), never by a timer.
 */
function setup(handles: readonly WatchHandle[], failureLimit = 2) {
  const pending: (() => void)[] = [];
  const retries: number[] = [];
  const timers: WaitTimers = {
    setTimeout: (callback, ms) => {
      retries.push(ms);
      pending.push(callback);
      return pending.length;
    },
    clearTimeout: () => {},
  };
  const { adapter, calls } = fakeWatcherAdapter({ handles });
  const events: string[] = [];
  const notices: string[] = [];
  const states: string[] = [];
  const messages: unknown[] = [];
  let running = true;
  const log: WatcherLog = { write: (_level, event) => void events.push(event) };
  const watch = new SupervisedWatch({
    adapter,
    sessionId: "s-1",
    log,
    now: () => 0,
    supervision: new WatchSupervision(
      { minMs: 100, maxMs: 400, failureLimit, failureWindowMs: 60_000, slowMs: 5_000 },
      () => 0.5,
    ),
    running: () => running,
    retryWait: new WakeableWait(timers),
    notice: (line) => void notices.push(line),
    onMessage: (envelope) => void messages.push(envelope),
    onLive: () => void states.push("live"),
    onRetrying: () => void states.push("retrying"),
  });
  const settle = () => new Promise<void>((r) => setImmediate(r));
  const next = async (): Promise<void> => {
    pending.shift()?.();
    await settle();
  };
  const stop = (): void => {
    running = false;
    watch.stop();
  };
  return { watch, calls, events, notices, states, messages, retries, settle, next, stop };
}

describe("SupervisedWatch", () => {
  test("reopens an ended watch after the back-off, goes slow once, and reconnects with a notice", async () => {
    const w = setup([
      fakeWatchHandle([]),
      fakeWatchHandle([]),
      fakeWatchHandle([]),
      fakeWatchHandle([READY], { hold: true }),
    ]);
    const run = w.watch.run();
    await w.settle();
    expect(w.retries).toEqual([100]);
    await w.next();
    expect(w.retries).toEqual([100, 5_000]);
    expect(w.notices).toEqual([DEGRADED_NOTICE]);
    await w.next();
    expect(w.retries).toEqual([100, 5_000, 5_000]);
    expect(w.notices).toEqual([DEGRADED_NOTICE]);
    await w.next();
    expect(w.notices).toEqual([DEGRADED_NOTICE, RECONNECTED_NOTICE]);
    expect(w.states).toEqual(["retrying", "retrying", "retrying", "live"]);
    expect(w.calls.opened).toBe(4);
    w.stop();
    expect(await run).toBeUndefined();
    expect(w.events.filter((e) => e === "watch_restart")).toHaveLength(3);
  });

  test("a non-retryable credential error ends the supervision with its code", async () => {
    const w = setup([fakeWatchHandle([error("unauthorized", false)])]);
    expect(await w.watch.run()).toBe("unauthorized");
    expect(w.retries).toEqual([]);
    expect(w.events).toEqual(["watch_error"]);
  });

  test("a retryable error or another code restarts; messages reach onMessage", async () => {
    const message = { event: "message", message: { message_id: "m-1" } } as unknown as WatchEvent;
    const w = setup(
      [fakeWatchHandle([message, error("unauthorized", true), error("not_found", false)])],
      10,
    );
    const run = w.watch.run();
    await w.settle();
    expect(w.messages).toEqual([{ message_id: "m-1" }]);
    expect(w.retries).toEqual([100]);
    w.stop();
    expect(await run).toBeUndefined();
  });

  test("retryNow ends a retry wait at once; after stop no watch is opened", async () => {
    const w = setup([fakeWatchHandle([]), fakeWatchHandle([READY], { hold: true })], 10);
    const run = w.watch.run();
    await w.settle();
    w.watch.retryNow();
    await w.settle();
    expect(w.calls.opened).toBe(2);
    expect(w.states).toEqual(["retrying", "live"]);
    w.stop();
    expect(await run).toBeUndefined();
    expect(w.calls.opened).toBe(2);
  });
});
