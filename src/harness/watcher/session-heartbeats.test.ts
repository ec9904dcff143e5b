import { describe, expect, test } from "vitest";
import { fakeWatcherAdapter } from "../../../test/support/fake-watcher-adapter.ts";
import {
  BapError,
  type ErrorCode,
  type HeartbeatRequest,
  type LiveDelivery,
} from "../../protocol/index.ts";
import { SessionHeartbeats, type TranscriptValues } from "./session-heartbeats.ts";
import type { WatcherLog } from "./watcher-log.ts";

const MAP = { harness_version: "2.1.328", session_name: "api", workspace_label: "repo" };

/** Heartbeats over a fake adapter and a clock the test moves by hand; no timer anywhere. */
function setup(
  over: {
    heartbeat?: (request: HeartbeatRequest) => Promise<unknown>;
    transcript?: TranscriptValues;
    running?: () => boolean;
    liveDelivery?: () => LiveDelivery;
    harness?: string;
  } = {},
) {
  const clock = { now: 1_000 };
  const events: string[] = [];
  const log: WatcherLog = { write: (_level, event) => void events.push(event) };
  const { adapter, calls } = fakeWatcherAdapter(
    over.heartbeat === undefined ? {} : { heartbeat: over.heartbeat },
  );
  let resumed = 0;
  const heartbeats = new SessionHeartbeats({
    adapter,
    sessionId: "s-1",
    map: MAP,
    log,
    now: () => clock.now,
    random: () => 0.99,
    intervalMs: 30_000,
    backoff: { minMs: 1_000, maxMs: 60_000, failureLimit: 10, failureWindowMs: 1, slowMs: 1 },
    transcript: over.transcript ?? { model: undefined, contextUsedTokens: undefined },
    policy: () => "hold",
    running: over.running ?? (() => true),
    onResumed: () => {
      resumed += 1;
    },
    ...(over.liveDelivery === undefined ? {} : { liveDelivery: over.liveDelivery }),
    ...(over.harness === undefined ? {} : { harness: over.harness }),
  });
  /** Ticks at `at` (ms) with `activity` and waits for the heartbeat it started, if any. */
  const tickAt = async (at: number, activity: "idle" | "busy" = "idle"): Promise<void> => {
    clock.now = at;
    heartbeats.tick(at, activity);
    await heartbeats.task;
  };
  return { heartbeats, calls, events, tickAt, clock, resumed: () => resumed };
}

const fail = (code: ErrorCode) => async (): Promise<never> => {
  throw new BapError({ code, message: "x", retryable: code === "unavailable" });
};

describe("SessionHeartbeats", () => {
  test("live delivery: sent only with the capability, at once when it changes, once per change", async () => {
    let live: LiveDelivery = { live_delivery: "yes" };
    const { heartbeats, calls, tickAt } = setup({ liveDelivery: () => live });
    await tickAt(1_000);
    expect(calls.heartbeats).toEqual([{ activity: "idle" }]);
    heartbeats.enable({ model: false, contextUsedTokens: false, liveDelivery: true });
    await tickAt(2_000);
    await tickAt(3_000);
    live = { live_delivery: "no", live_delivery_reason: "inbound_gate" };
    await tickAt(4_000);
    await tickAt(5_000);
    live = { live_delivery: "yes" };
    await tickAt(6_000);
    expect(calls.heartbeats).toEqual([
      { activity: "idle" },
      { activity: "idle", live_delivery: "yes" },
      { activity: "idle", live_delivery: "no", live_delivery_reason: "inbound_gate" },
      { activity: "idle", live_delivery: "yes" },
    ]);
  });

  test("reportStopped: watcher_stopped after the heartbeat still running, only with the capability", async () => {
    let release: () => void = () => {};
    const order: string[] = [];
    const { heartbeats, calls, tickAt, events } = setup({
      liveDelivery: () => ({ live_delivery: "yes" }),
      heartbeat: async (request) => {
        if (request.live_delivery === "yes") await new Promise<void>((r) => (release = r));
        order.push(String(request.live_delivery_reason ?? request.live_delivery));
      },
    });
    await heartbeats.reportStopped(1_000);
    expect(calls.heartbeats).toEqual([]);
    heartbeats.enable({ model: false, contextUsedTokens: false, liveDelivery: true });
    void tickAt(2_000);
    const stopped = heartbeats.reportStopped(5_000);
    release();
    await stopped;
    expect(order).toEqual(["yes", "watcher_stopped"]);
    expect(calls.heartbeats.at(-1)).toEqual({
      live_delivery: "no",
      live_delivery_reason: "watcher_stopped",
    });
    expect(events).toContain("live_stop_reported");
  });

  test("sends at the first tick, then every interval after the last one, and at once on a flip", async () => {
    const { calls, tickAt } = setup();
    await tickAt(1_000);
    await tickAt(30_999);
    expect(calls.heartbeats).toEqual([{ activity: "idle" }]);
    await tickAt(31_000);
    await tickAt(32_000, "busy");
    expect(calls.heartbeats.map((h) => h.activity)).toEqual(["idle", "idle", "busy"]);
  });

  test("at most one outstanding: ticks during a heartbeat start none", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const { heartbeats, calls } = setup({ heartbeat: () => gate });
    heartbeats.tick(1_000, "idle");
    heartbeats.tick(2_000, "busy");
    heartbeats.tick(40_000, "idle");
    expect(calls.heartbeats).toHaveLength(1);
    release();
    await heartbeats.task;
    heartbeats.tick(40_001, "busy");
    expect(calls.heartbeats).toHaveLength(2);
  });

  test("backs off while failing, capped at the interval, and sends the flip when it succeeds", async () => {
    let down = true;
    const { calls, events, tickAt } = setup({
      heartbeat: async () => {
        if (down) await fail("unavailable")();
      },
    });
    await tickAt(0, "busy"); // fails: next try not before 0 + ~1 s
    await tickAt(500, "busy");
    expect(calls.heartbeats).toHaveLength(1);
    await tickAt(1_000, "busy"); // fails again: ~2 s
    await tickAt(2_500, "busy");
    expect(calls.heartbeats).toHaveLength(2);
    await tickAt(2_990, "busy");
    expect(calls.heartbeats).toHaveLength(3);
    // Many failures later, the wait never exceeds the heartbeat interval.
    let at = 2_990;
    for (let i = 0; i < 8; i += 1) {
      at += 30_000;
      await tickAt(at, "busy");
    }
    expect(calls.heartbeats).toHaveLength(11);
    down = false;
    await tickAt(at + 30_000, "busy");
    await tickAt(at + 30_001, "busy");
    expect(calls.heartbeats).toHaveLength(12);
    expect(events.filter((e) => e === "heartbeat_failed")).toHaveLength(11);
  });

  test("transcript values only with the capability, only when changed, again after a failure", async () => {
    const transcript = { model: "claude-x" as string | undefined, contextUsedTokens: 10 };
    let down = false;
    const { heartbeats, calls, tickAt } = setup({
      transcript,
      heartbeat: async () => {
        if (down) await fail("unavailable")();
      },
    });
    await tickAt(0);
    heartbeats.enable({ model: true, contextUsedTokens: false });
    expect(heartbeats.wantsTranscript).toBe(true);
    await tickAt(30_000);
    await tickAt(60_000);
    transcript.model = "claude-y";
    down = true;
    await tickAt(90_000);
    down = false;
    await tickAt(120_000);
    expect(calls.heartbeats).toEqual([
      { activity: "idle" },
      { activity: "idle", model: "claude-x" },
      { activity: "idle" },
      { activity: "idle", model: "claude-y" },
      { activity: "idle", model: "claude-y" },
    ]);
  });

  test("not_found or conflict re-opens the session in place with the map's members", async () => {
    for (const code of ["not_found", "conflict"] as const) {
      const { heartbeats, calls, events, tickAt, resumed } = setup({
        heartbeat: fail(code),
        transcript: { model: "claude-x", contextUsedTokens: 42 },
      });
      heartbeats.enable({ model: true, contextUsedTokens: true });
      await tickAt(0, "busy");
      expect(calls.registrations).toEqual([
        {
          harness: "claude-code",
          harness_version: "2.1.328",
          session_name: "api",
          activity: "busy",
          inbound: "hold",
          workspace_label: "repo",
          model: "claude-x",
          context_used_tokens: 42,
          resume: { session_id: "s-1" },
        },
      ]);
      expect(events).toEqual(["heartbeat_failed", "session_resumed"]);
      expect(resumed()).toBe(1);
    }
  });

  test("a push lane's heartbeats carry no activity, and its resume names its client's harness, idle", async () => {
    const { heartbeats, calls, clock } = setup({
      heartbeat: fail("not_found"),
      harness: "qwen-code",
      liveDelivery: () => ({ live_delivery: "yes" }),
    });
    heartbeats.enable({ model: false, contextUsedTokens: false, liveDelivery: true });
    clock.now = 0;
    heartbeats.tick(0);
    await heartbeats.task;
    expect(calls.heartbeats).toEqual([{ live_delivery: "yes" }]);
    expect(calls.registrations).toEqual([
      {
        harness: "qwen-code",
        harness_version: "2.1.328",
        session_name: "api",
        activity: "idle",
        inbound: "hold",
        workspace_label: "repo",
        live_delivery: "yes",
        resume: { session_id: "s-1" },
      },
    ]);
  });

  test("no heartbeat and no resume once the watcher stops", async () => {
    let running = true;
    const { heartbeats, calls, tickAt } = setup({
      running: () => running,
      heartbeat: async () => {
        running = false;
        await fail("not_found")();
      },
    });
    await tickAt(0);
    expect(calls.registrations).toHaveLength(0);
    heartbeats.tick(60_000, "busy");
    expect(calls.heartbeats).toHaveLength(1);
  });

  test("another failure is logged and neither resumes nor throws", async () => {
    const { calls, events, tickAt, resumed } = setup({ heartbeat: fail("internal") });
    await tickAt(0);
    expect(calls.registrations).toHaveLength(0);
    expect(events).toEqual(["heartbeat_failed"]);
    expect(resumed()).toBe(0);
  });
});
