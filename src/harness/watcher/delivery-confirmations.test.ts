import { describe, expect, test } from "vitest";
import type { InboundMessage } from "../inbound/index.ts";
import {
  CONFIRMATION_LIMITS,
  DeliveryConfirmations,
  frameTag,
  type MessageItem,
} from "./delivery-confirmations.ts";

const tagOf = (id: string) => `<brigade-message team="core" message-id="${id}" hops="0">`;
const item = (id: string): MessageItem => ({
  kind: "message",
  message: { message_id: id } as InboundMessage,
  frame: `${tagOf(id)}\nbody\n</brigade-message>`,
  text: `wrapped ${id}`,
});
const conversation = (id: string) => ({ kind: "conversation", tags: [tagOf(id)] }) as const;
const ids = (items: readonly MessageItem[]) => items.map((i) => i.message.message_id);

describe("DeliveryConfirmations", () => {
  test("confirmed only when the frame's tag is in the conversation; admitted is not confirmed", () => {
    const c = new DeliveryConfirmations();
    c.posted(item("m-1"), 0);
    c.posted(item("m-2"), 0);
    c.observe({ kind: "enqueued", tags: [tagOf("m-1")] });
    expect(c.takeConfirmed()).toEqual([]);
    c.observe(conversation("m-2"));
    c.observe(conversation("m-1"));
    expect(ids(c.takeConfirmed())).toEqual(["m-2", "m-1"]);
    expect(c.pending).toBe(0);
    expect(frameTag(item("m-3").frame)).toBe(tagOf("m-3"));
  });

  test("missing after the wait once the session was idle: posted again, then given up", () => {
    const c = new DeliveryConfirmations();
    c.posted(item("m-1"), 0);
    const { waitMs, settleMs } = CONFIRMATION_LIMITS;
    expect(c.takeMissing(waitMs - 1, waitMs - 1)).toEqual({ repost: [], givenUp: [] });
    // busy since the post: not missing yet
    expect(c.takeMissing(waitMs, undefined)).toEqual({ repost: [], givenUp: [] });
    expect(c.takeMissing(waitMs, settleMs - 1)).toEqual({ repost: [], givenUp: [] });
    expect(ids(c.takeMissing(waitMs, settleMs).repost)).toEqual(["m-1"]);
    c.posted(item("m-1"), 100_000);
    c.posted(item("m-1"), 200_000);
    const last = c.takeMissing(200_000 + waitMs, 200_000 + settleMs);
    expect(ids(last.givenUp)).toEqual(["m-1"]);
    expect(c.pending).toBe(0);
  });

  test("a session that never turns idle: missing only after the long wait", () => {
    const c = new DeliveryConfirmations();
    c.posted(item("m-1"), 0);
    expect(c.takeMissing(CONFIRMATION_LIMITS.maxWaitMs - 1, undefined).repost).toEqual([]);
    expect(ids(c.takeMissing(CONFIRMATION_LIMITS.maxWaitMs, undefined).repost)).toEqual(["m-1"]);
  });

  test("admitted or held posts are waited for, never posted again; a held one confirmed late", () => {
    const c = new DeliveryConfirmations();
    c.posted(item("m-1"), 0);
    c.posted(item("m-10"), 0);
    c.observe({ kind: "enqueued", tags: [tagOf("m-1")] });
    c.observe({
      kind: "held",
      text: "Held peer message — preview: «<brigade-message team=core message-id=m-10 hops=0»",
    });
    expect(ids(c.takeNewlyHeld())).toEqual(["m-10"]);
    expect(c.held).toBe(1);
    const late = CONFIRMATION_LIMITS.maxWaitMs - 1;
    expect(c.takeMissing(late, late)).toEqual({ repost: [], givenUp: [] });
    c.observe(conversation("m-10"));
    expect(ids(c.takeConfirmed())).toEqual(["m-10"]);
    expect(c.held).toBe(0);
  });

  test("where a message already is: a successor's redrive posts nothing twice", () => {
    const c = new DeliveryConfirmations();
    c.observe(conversation("m-1"));
    c.observe({ kind: "enqueued", tags: [tagOf("m-2")] });
    expect(c.whereIs(item("m-1"))).toBe("conversation");
    expect(c.whereIs(item("m-2"))).toBe("enqueued");
    expect(c.whereIs(item("m-3"))).toBe("unknown");
    c.posted(item("m-1"), 0, { written: false });
    expect(ids(c.takeConfirmed())).toEqual(["m-1"]);
  });

  test("Claude Code's queue depth from the transcript, unknown after a gap", () => {
    const c = new DeliveryConfirmations();
    expect(c.queueDepth).toBe(0);
    c.observe({ kind: "enqueued", tags: [] });
    c.observe({ kind: "enqueued", tags: [] });
    c.observe({ kind: "dequeued" });
    expect(c.queueDepth).toBe(1);
    c.gap();
    expect(c.queueDepth).toBeUndefined();
    c.observe({ kind: "permission_mode", mode: "bypassPermissions" });
    expect(c.permissionMode).toBe("bypassPermissions");
  });

  test("the settled depth is unknown while a written post is not yet in the transcript", () => {
    const c = new DeliveryConfirmations();
    c.observe({ kind: "enqueued", tags: [tagOf("m-1")] });
    expect(c.settledQueueDepth).toBe(1);
    // m-2 written; the transcript read so far shows only m-1 queued: a depth of 1 is short by one.
    c.posted(item("m-2"), 0);
    expect(c.queueDepth).toBe(1);
    expect(c.settledQueueDepth).toBeUndefined();
    c.observe({ kind: "enqueued", tags: [tagOf("m-2")] });
    expect(c.settledQueueDepth).toBe(2);
    c.observe({ kind: "dequeued" });
    c.observe({ kind: "dequeued" });
    expect(c.settledQueueDepth).toBe(0);
  });

  test("a post a dialog holds is given up after the long wait (the dialog expired or was denied)", () => {
    const c = new DeliveryConfirmations();
    c.posted(item("m-10"), 0);
    c.observe({
      kind: "held",
      text: "Held peer message — preview: «<brigade-message team=core message-id=m-10 hops=0»",
    });
    expect(c.takeMissing(CONFIRMATION_LIMITS.maxWaitMs - 1, 0)).toEqual({
      repost: [],
      givenUp: [],
    });
    expect(ids(c.takeMissing(CONFIRMATION_LIMITS.maxWaitMs, 0).givenUp)).toEqual(["m-10"]);
    expect(c.held).toBe(0);
  });

  test("unadmitted counts written posts not yet admitted, held or confirmed", () => {
    const c = new DeliveryConfirmations();
    c.posted(item("m-1"), 0);
    c.posted(item("m-2"), 0, { written: false });
    expect(c.unadmitted).toBe(1);
    expect(c.tracks(item("m-1"))).toBe(true);
    c.observe({ kind: "enqueued", tags: [tagOf("m-1")] });
    expect(c.unadmitted).toBe(0);
    c.posted(item("m-3"), 0);
    expect(c.unadmitted).toBe(1);
    c.observe(conversation("m-3"));
    expect(c.unadmitted).toBe(0);
    expect(c.tracks(item("m-3"))).toBe(false);
  });
});

describe("DeliveryConfirmations against a hostile transcript", () => {
  test("held lines keep only the ids they name: a flood of held lines without one forgets no hold", () => {
    const c = new DeliveryConfirmations();
    c.observe({ kind: "held", text: "Held peer message message-id=m-1 from core" });
    const filler = `Held peer message ${"x".repeat(4_096)}`;
    for (let i = 0; i <= CONFIRMATION_LIMITS.seenCap; i += 1) {
      c.observe({ kind: "held", text: filler });
    }
    // a successor watcher posts what its predecessor's post was held for; the next held line
    // (another message's) matches again
    c.posted(item("m-1"), 0);
    c.posted(item("m-2"), 0);
    c.observe({ kind: "held", text: "Held peer message message-id=m-9 from core" });
    expect(ids(c.takeNewlyHeld())).toEqual(["m-1"]);
  });

  test("an open tag longer than any frame's is not remembered", () => {
    const long = `<brigade-message team="core" message-id="m-1" pad="${"p".repeat(CONFIRMATION_LIMITS.tagMaxChars)}">`;
    const c = new DeliveryConfirmations();
    c.observe({ kind: "conversation", tags: [long] });
    c.observe({ kind: "enqueued", tags: [long] });
    const hostile: MessageItem = { ...item("m-1"), frame: `${long}\nbody\n</brigade-message>` };
    expect(c.whereIs(hostile)).toBe("unknown");
    expect(c.whereIs(item("m-1"))).toBe("unknown");
  });
});
