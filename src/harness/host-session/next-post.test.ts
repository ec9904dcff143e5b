import { describe, expect, test } from "vitest";
import type { HeadFiles } from "../attachments/index.ts";
import type { InboundItem, InboundMessage } from "../inbound/index.ts";
import { takeNextPost } from "./next-post.ts";

const message = { message_id: "m-1" } as InboundMessage;
const framed: InboundItem = { kind: "message", message, frame: "<frame>", text: "wrapped" };
const files: InboundItem = { kind: "files", message };

/** A pipeline whose head is `queue[0]`; `done` calls are recorded. */
function world(queue: InboundItem[], settle: HeadFiles = "ready", waitMs = 0) {
  const done: [string, string | undefined][] = [];
  const ctx = {
    pipeline: {
      peek: () => queue[0],
      next: () => queue.shift(),
      done: (item: InboundItem, error?: string) => {
        done.push([item.kind, error]);
        return { ack: false } as never;
      },
    },
    settleFiles: async () => {
      if (settle === "ready" && queue[0]?.kind === "files") queue[0] = framed;
      return settle;
    },
    pacer: {
      nextPostAt: (now: number) => now + waitMs,
      record: () => {},
      observeClaudeQueue: () => {},
    },
    textOf: () => "sentinel + frame",
    now: () => 1_000,
  };
  return { ctx, done, queue };
}

describe("takeNextPost", () => {
  test("a message is taken with the text the model reads; a notice with its own", async () => {
    expect(await takeNextPost(world([framed]).ctx)).toEqual({
      item: framed,
      content: "sentinel + frame",
    });
    const notice: InboundItem = { kind: "notice", notice: "rate", text: "slow down" };
    expect(await takeNextPost(world([notice]).ctx)).toEqual({ item: notice, content: "slow down" });
    expect(await takeNextPost(world([]).ctx)).toEqual({ step: "nothing" });
  });

  test("files first: taken once received, nothing while they wait, failed when they failed", async () => {
    expect(await takeNextPost(world([files], "ready").ctx)).toMatchObject({ item: framed });
    const waiting = world([files], "none");
    expect(await takeNextPost(waiting.ctx)).toEqual({ step: "nothing" });
    expect(waiting.queue).toEqual([files]);
    expect(await takeNextPost(world([files], "failed").ctx)).toEqual({ step: "failed" });
  });

  test("the pacer's wait takes nothing", async () => {
    const paced = world([framed], "ready", 500);
    expect(await takeNextPost(paced.ctx)).toEqual({ step: "paced" });
    expect(paced.queue).toEqual([framed]);
  });

  test("a head whose files went missing between the peek and the take is done, not posted", async () => {
    const w = world([framed]);
    w.ctx.pipeline.next = () => files;
    expect(await takeNextPost(w.ctx)).toEqual({ step: "nothing" });
    expect(w.done).toEqual([["files", "files_missing"]]);
  });
});
