import { describe, expect, test } from "vitest";
import type { InboxPostResult } from "../claude-code/index.ts";
import type { DoneResult, InboundItem, InboundMessage } from "../inbound/index.ts";
import type { MessageItem } from "./delivery-confirmations.ts";
import { InboxDelivery, successorPacer } from "./inbox-delivery.ts";
import { type WaitTimers, WakeableWait } from "./wakeable-wait.ts";
import type { WatcherLog } from "./watcher-log.ts";

const message = (id: string): InboundItem => ({
  kind: "message",
  message: { message_id: id } as InboundMessage,
  frame: `frame ${id}`,
  text: `text ${id}`,
});
const notice: InboundItem = { kind: "notice", notice: "drop", text: "Brigade: dropped" };

/**
 * A delivery loop over a queue of items, a post answered from `answers` (then ok), a pacer that
 * allows everything unless `holdUntil` says, and waits the test ends by hand: no timer runs.
 */
function setup(
  items: InboundItem[],
  answers: InboxPostResult[] = [],
  holdUntil = 0,
  extra: {
    where?: Record<string, "conversation" | "enqueued">;
    reposts?: MessageItem[];
    gate?: { open: boolean };
    admitted?: { yes: boolean };
    /** What settling a `files` head does: replace it with its framed message, or give it back. */
    files?: "ready" | "failed";
  } = {},
) {
  const clock = { now: 1_000 };
  const waits: number[] = [];
  const pending: (() => void)[] = [];
  const timers: WaitTimers = {
    setTimeout: (callback, ms) => {
      waits.push(ms);
      pending.push(callback);
      return pending.length;
    },
    clearTimeout: () => {},
  };
  const queue = [...items];
  const events: string[] = [];
  const posted: string[] = [];
  const recorded: string[] = [];
  const delivered: string[] = [];
  const done: string[] = [];
  let failedPosts = 0;
  let running = true;
  const pacer = {
    holdUntil,
    nextPostAt: (now: number) => Math.max(now, pacer.holdUntil),
    record: (_now: number, text: string) => void recorded.push(text),
  };
  const log: WatcherLog = { write: (_level, event) => void events.push(event) };
  const settled: string[] = [];
  const delivery = new InboxDelivery({
    ...(extra.files === undefined
      ? {}
      : {
          settleFiles: async () => {
            const head = queue[0];
            if (head?.kind !== "files") return "none" as const;
            settled.push(head.message.message_id);
            if (extra.files === "ready") {
              queue[0] = message(head.message.message_id);
              return "ready" as const;
            }
            queue.shift();
            return "failed" as const;
          },
        }),
    pipeline: {
      peek: () => queue[0],
      next: () => queue.shift(),
      done: (item, error): DoneResult => {
        done.push(item.kind === "files" ? "" : item.text);
        return item.kind === "message" && error === undefined
          ? { ack: true, messageId: item.message.message_id, persisted: true }
          : { ack: false };
      },
    },
    pacer,
    post: async (content) => {
      posted.push(content);
      return answers.shift() ?? { ok: true };
    },
    log,
    now: () => clock.now,
    tickMs: 2_000,
    work: new WakeableWait(timers),
    running: () => running,
    onPostFailed: () => {
      failedPosts += 1;
    },
    onPosted: (item, written) => {
      delivered.push(
        written ? item.message.message_id : `${item.message.message_id} (not written)`,
      );
    },
    whereIs: (item) => extra.where?.[item.message.message_id] ?? "unknown",
    reposts: {
      peek: () => extra.reposts?.[0],
      shift: () => extra.reposts?.shift(),
    },
    gateOpen: () => extra.gate?.open ?? true,
    admitted: () => extra.admitted?.yes ?? true,
  });
  const run = delivery.run();
  const settle = () => new Promise<void>((r) => setImmediate(r));
  /** Ends the pending wait (as its timer would) and lets the loop run on. */
  const fire = async (): Promise<void> => {
    pending.shift()?.();
    await settle();
  };
  const stop = async (): Promise<void> => {
    running = false;
    while (pending.length > 0) await fire();
    await run;
  };
  return {
    clock,
    pacer,
    queue,
    waits,
    events,
    posted,
    recorded,
    delivered,
    done,
    failed: () => failedPosts,
    settled,
    settle,
    fire,
    stop,
  };
}

const needsFiles = (id: string): InboundItem => ({
  kind: "files",
  message: { message_id: id } as InboundMessage,
});

describe("InboxDelivery", () => {
  test("a message's files are received before it is posted", async () => {
    const d = setup([needsFiles("m-1"), message("m-2")], [], 0, { files: "ready" });
    await d.settle();
    await d.settle();
    expect(d.settled).toEqual(["m-1"]);
    expect(d.posted).toEqual(["text m-1", "text m-2"]);
    await d.stop();
  });

  test("files that fail leave the message unposted and plan a fetch; the next one goes on", async () => {
    const d = setup([needsFiles("m-1"), message("m-2")], [], 0, { files: "failed" });
    await d.settle();
    expect(d.posted).toEqual([]);
    expect(d.failed()).toBe(1);
    await d.fire();
    expect(d.posted).toEqual(["text m-2"]);
    await d.stop();
  });

  test("without a receiver, a message naming files is never posted", async () => {
    const d = setup([needsFiles("m-1")]);
    await d.settle();
    await d.fire();
    expect(d.posted).toEqual([]);
    expect(d.queue.length).toBe(1);
    await d.stop();
  });

  test("posts in order, records each post, and delivers only messages", async () => {
    const d = setup([notice, message("m-1"), message("m-2")]);
    await d.settle();
    expect(d.posted).toEqual(["Brigade: dropped", "text m-1", "text m-2"]);
    expect(d.recorded).toEqual(d.posted);
    expect(d.delivered).toEqual(["m-1", "m-2"]);
    expect(d.events).toEqual(["posted", "posted", "posted"]);
    expect(d.waits).toEqual([2_000]);
    await d.stop();
  });

  test("a posted message stays handed out: done is reported only for notices", async () => {
    const d = setup([notice, message("m-1")]);
    await d.settle();
    expect(d.done).toEqual(["Brigade: dropped"]);
    expect(d.delivered).toEqual(["m-1"]);
    await d.stop();
  });

  test("a message the transcript already shows is handed on without a post", async () => {
    const d = setup([message("m-1"), message("m-2"), message("m-3")], [], 0, {
      where: { "m-1": "conversation", "m-2": "enqueued" },
    });
    await d.settle();
    expect(d.posted).toEqual(["text m-3"]);
    expect(d.delivered).toEqual(["m-1 (not written)", "m-2 (not written)", "m-3"]);
    await d.stop();
  });

  test("a repost goes before the pipeline's head, and a failed repost stays tracked", async () => {
    const again = message("m-0") as MessageItem;
    const d = setup(
      [message("m-1")],
      [{ ok: false, stage: "failed", reason: "connect_failed", connected: false }],
      0,
      {
        reposts: [again],
      },
    );
    await d.settle();
    expect(d.posted).toEqual(["text m-0"]);
    expect(d.delivered).toEqual(["m-0"]);
    expect(d.failed()).toBe(0);
    expect(d.done).toEqual([]);
    await d.fire();
    expect(d.posted).toEqual(["text m-0", "text m-1"]);
    expect(d.events).toEqual(["post_failed", "posted"]);
    await d.stop();
  });

  test("nothing is posted while the gate is closed", async () => {
    const gate = { open: false };
    const d = setup([message("m-1")], [], 0, { gate });
    await d.settle();
    await d.fire();
    expect(d.posted).toEqual([]);
    gate.open = true;
    await d.fire();
    expect(d.posted).toEqual(["text m-1"]);
    await d.stop();
  });

  test("nothing new is posted while an earlier post is not admitted; a repost still goes", async () => {
    const admitted = { yes: false };
    const reposts = [message("m-0") as MessageItem];
    const d = setup([message("m-1")], [], 0, { admitted, reposts });
    await d.settle();
    await d.fire();
    expect(d.posted).toEqual(["text m-0"]);
    admitted.yes = true;
    await d.fire();
    expect(d.posted).toEqual(["text m-0", "text m-1"]);
    await d.stop();
  });

  test("waits for the pacer, at most a tick at a time", async () => {
    const d = setup([message("m-1")], [], 6_000);
    await d.settle();
    expect(d.waits).toEqual([2_000]);
    d.clock.now = 5_500;
    await d.fire();
    expect(d.waits).toEqual([2_000, 500]);
    expect(d.posted).toEqual([]);
    d.clock.now = 6_000;
    await d.fire();
    expect(d.posted).toEqual(["text m-1"]);
    await d.stop();
  });

  test("a failed post stays undelivered, asks for a fetch, and waits a tick", async () => {
    const d = setup(
      [message("m-1"), notice, message("m-2")],
      [
        { ok: false, stage: "refused", reason: "path_invalid" },
        { ok: false, stage: "failed", reason: "connect_failed", connected: false },
      ],
    );
    await d.settle();
    expect(d.posted).toEqual(["text m-1"]);
    expect(d.failed()).toBe(1);
    expect(d.waits).toEqual([2_000]);
    await d.fire();
    expect(d.failed()).toBe(1); // a notice's failure asks for no fetch
    await d.fire();
    expect(d.posted).toEqual(["text m-1", "Brigade: dropped", "text m-2"]);
    expect(d.delivered).toEqual(["m-2"]);
    expect(d.recorded).toEqual(["text m-2"]);
    expect(d.events).toEqual(["post_failed", "post_failed", "posted"]);
    await d.stop();
  });

  test("a failed post that connected is recorded in the pacer (it may have arrived)", async () => {
    const d = setup(
      [message("m-1")],
      [{ ok: false, stage: "failed", reason: "write_timeout", connected: true }],
    );
    await d.settle();
    expect(d.recorded).toEqual(["text m-1"]);
    expect(d.delivered).toEqual([]);
    expect(d.done).toEqual(["text m-1"]);
    await d.stop();
  });

  test("a successor's pacer posts nothing until an idle observation", () => {
    const pacer = successorPacer(0);
    expect(pacer.nextPostAt(0, "x")).toBe(Number.POSITIVE_INFINITY);
    pacer.observeActivity(0, "idle");
    expect(pacer.nextPostAt(0, "x")).toBe(0);
  });
});
