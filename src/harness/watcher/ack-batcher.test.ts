import { describe, expect, test } from "vitest";
import { ACK_LIMITS, AckBatcher } from "./ack-batcher.ts";

function batcher() {
  const calls: string[][] = [];
  const sent: string[] = [];
  const failed: string[] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let fail = false;
  const acks = new AckBatcher({
    send: async (ids) => {
      calls.push([...ids]);
      await gate;
      if (fail) throw new Error("unavailable");
    },
    onSent: (ids) => sent.push(...ids),
    onFailed: (ids) => failed.push(...ids),
  });
  return {
    acks,
    calls,
    sent,
    failed,
    open: () => release(),
    failing: () => {
      fail = true;
    },
    closeAgain: () => {
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
  };
}

describe("AckBatcher", () => {
  test("a flood of repeated and new ids: one call in flight, each id once, the waiting set capped", async () => {
    const b = batcher();
    expect(b.acks.add("m-0")).toBe(true);
    await Promise.resolve();
    await Promise.resolve();
    expect(b.calls).toEqual([["m-0"]]);
    // the server repeats m-0 and floods new ids while the first ack hangs
    for (let i = 0; i < 2_000; i += 1) b.acks.add("m-0");
    const accepted: boolean[] = [];
    for (let i = 1; i <= ACK_LIMITS.waiting + 50; i += 1) accepted.push(b.acks.add(`m-${i}`));
    expect(accepted.filter((a) => !a)).toHaveLength(50);
    expect(b.calls).toHaveLength(1);
    expect(b.acks.pending).toBe(ACK_LIMITS.waiting + 1);
    b.open();
    await b.acks.settled();
    expect(b.calls.map((c) => c.length)).toEqual([1, 100, 100, 100, 100, 100]);
    expect(b.sent).toEqual(Array.from({ length: ACK_LIMITS.waiting + 1 }, (_, i) => `m-${i}`));
    expect(b.acks.pending).toBe(0);
  });

  test("a failed call reports its ids as failed, never as sent", async () => {
    const b = batcher();
    b.failing();
    b.acks.add("m-1");
    b.acks.add("m-2");
    b.open();
    await b.acks.settled();
    expect(b.calls).toEqual([["m-1", "m-2"]]);
    expect(b.failed).toEqual(["m-1", "m-2"]);
    expect(b.sent).toEqual([]);
  });

  test("an id added in the job right after the last call's outcome still gets its ack", async () => {
    const calls: string[][] = [];
    let acks: AckBatcher | undefined;
    let queued = false;
    acks = new AckBatcher({
      send: async (ids) => {
        calls.push([...ids]);
      },
      // The next job after this outcome: the pump has just seen nothing waiting and is ending.
      onSent: () => {
        if (queued) return;
        queued = true;
        queueMicrotask(() => acks?.add("m-2"));
      },
      onFailed: () => {},
    });
    acks.add("m-1");
    await acks.settled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await acks.settled();
    expect(calls).toEqual([["m-1"], ["m-2"]]);
    expect(acks.pending).toBe(0);
  });
});
