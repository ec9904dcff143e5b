import { describe, expect, test } from "vitest";
import { standInDoorPipeline } from "../../../test/support/stand-in-door-pipeline.ts";
import type { InboundItem, InboundMessage } from "../inbound/index.ts";
import { QwenDelivery } from "./qwen-delivery.ts";
import type { QwenPostResult } from "./qwen-door.ts";
import type { QwenRecord, QwenSessionLookup } from "./qwen-registry.ts";

const message = (id: string, sender = "s-a"): InboundItem => ({
  kind: "message",
  message: { message_id: id, sender: { session_id: sender } } as InboundMessage,
  frame: `<brigade-message message-id="${id}">`,
  text: `socket wrap ${id}`,
});

const RECORD: QwenRecord = {
  pid: 7,
  procStart: "b:1",
  pidNs: 1,
  sessionId: "q-1",
  cwd: "/w",
  ipcPath: "/x.sock",
};

/** A delivery over a queue, a post that records what it wrote, and a record the test fills. */
function setup(
  items: InboundItem[],
  options: {
    token?: string;
    session?: QwenSessionLookup;
    post?: QwenPostResult;
    files?: "ready" | "failed";
    closeDoor?: () => Promise<void>;
  } = {},
) {
  const queue = [...items];
  const { pipeline, done } = standInDoorPipeline(queue);
  const posts: { token: string | undefined; msgId: string; content: string; to: string }[] = [];
  const reports: string[] = [];
  const acks: string[] = [];
  const inRecord = new Set<string>();
  const depths: number[] = [];
  let n = 0;
  const delivery = new QwenDelivery({
    pipeline,
    pacer: {
      nextPostAt: (now) => now,
      record: () => {},
      observeClaudeQueue: (_now, depth) => void depths.push(depth),
    },
    post: async (record, token, msgId, content) => {
      posts.push({ token, msgId, content, to: record.sessionId });
      return options.post ?? { ok: true };
    },
    session: () => options.session ?? { ok: true, record: RECORD },
    controllerToken: options.token,
    textOf: (item) => `<!-- lsp:agent-message-v1 {} -->\n${item.frame}`,
    inConversation: (content) => inRecord.has(content),
    report: (state, id) => void reports.push(`${state}:${id}`),
    ack: (id) => void acks.push(id),
    log: () => {},
    now: () => 1_000,
    newMsgId: () => `f-${++n}`,
    settleFiles: async () => {
      const head = queue[0];
      if (head?.kind !== "files" || options.files === undefined) return "none" as const;
      if (options.files === "ready") {
        queue[0] = message(head.message.message_id);
        return "ready" as const;
      }
      queue.shift();
      return "failed" as const;
    },
    ...(options.closeDoor === undefined ? {} : { closeDoor: options.closeDoor }),
  });
  return { delivery, done, posts, reports, acks, inRecord, depths };
}

const needsFiles = (id: string): InboundItem => ({
  kind: "files",
  message: { message_id: id, sender: { session_id: "s-a" } } as InboundMessage,
});

describe("QwenDelivery", () => {
  test("a message's files are received before it is posted; without them nothing is posted", async () => {
    const ready = setup([needsFiles("m-1")], { files: "ready" });
    expect(await ready.delivery.step()).toBe("posted");
    expect(ready.posts.map((p) => p.content)).toEqual([
      '<!-- lsp:agent-message-v1 {} -->\n<brigade-message message-id="m-1">',
    ]);
    const failed = setup([needsFiles("m-1")], { files: "failed" });
    expect(await failed.delivery.step()).toBe("failed");
    expect(failed.posts).toEqual([]);
    const none = setup([needsFiles("m-1")]);
    expect(await none.delivery.step()).toBe("nothing");
    expect(none.posts).toEqual([]);
  });

  test("as the push lane's door: close lets go of the door's inbox and posts nothing after", async () => {
    let closed = 0;
    const w = setup([message("m-1")], {
      token: "qpc_x",
      closeDoor: async () => {
        closed += 1;
      },
    });
    await w.delivery.close();
    expect(closed).toBe(1);
    expect(await w.delivery.step()).toBe("nothing");
    expect(w.posts).toEqual([]);
  });

  test("server order, the sentinel + frame as the text, addressed to the record's session with the person's token", async () => {
    const w = setup([message("m-1"), message("m-2")], { token: "qpc_x" });
    expect(await w.delivery.step()).toBe("posted");
    expect(await w.delivery.step()).toBe("posted");
    expect(await w.delivery.step()).toBe("nothing");
    expect(w.posts).toEqual([
      {
        token: "qpc_x",
        msgId: "f-1",
        content: '<!-- lsp:agent-message-v1 {} -->\n<brigade-message message-id="m-1">',
        to: "q-1",
      },
      {
        token: "qpc_x",
        msgId: "f-2",
        content: '<!-- lsp:agent-message-v1 {} -->\n<brigade-message message-id="m-2">',
        to: "q-1",
      },
    ]);
    expect(w.done).toEqual([]);
  });

  test("delivered is acked only once Qwen Code's record holds it", async () => {
    const w = setup([message("m-1")], { token: "qpc_x" });
    await w.delivery.step();
    w.delivery.onTransition({ msgId: "f-1", status: "delivered" });
    expect(w.acks).toEqual([]);
    expect(w.delivery.outstanding).toBe(1);
    w.inRecord.add(w.posts[0]?.content ?? "");
    await w.delivery.confirm();
    expect(w.acks).toEqual(["m-1"]);
    expect(w.done).toEqual(["m-1"]);
    expect(w.depths.at(-1)).toBe(0);
  });

  test("held is shown to the sender as held and never acked; a later delivered still needs the record", async () => {
    const w = setup([message("m-1")]);
    await w.delivery.step();
    expect(w.posts[0]?.token).toBeUndefined();
    w.delivery.onTransition({ msgId: "f-1", status: "held" });
    expect(w.reports).toEqual(["held:m-1"]);
    expect(w.acks).toEqual([]);
    expect(w.done).toEqual([]);
    w.delivery.onTransition({ msgId: "f-1", status: "delivered" });
    expect(w.acks).toEqual([]);
  });

  test("denied and refused are reported refused; expired, misaddressed and dropped go back unacked", async () => {
    const w = setup(["m-1", "m-2", "m-3", "m-4", "m-5"].map((id) => message(id)));
    for (let i = 0; i < 5; i += 1) await w.delivery.step();
    w.delivery.onTransition({ msgId: "f-1", status: "denied" });
    w.delivery.onTransition({ msgId: "f-2", status: "refused" });
    w.delivery.onTransition({ msgId: "f-3", status: "expired" });
    w.delivery.onTransition({ msgId: "f-4", status: "misaddressed" });
    w.delivery.onTransition({ msgId: "f-5", status: "dropped", dropReason: "rate-limited" });
    w.delivery.onTransition({ msgId: "f-9", status: "delivered" });
    expect(w.reports).toEqual(["refused:m-1", "refused:m-2"]);
    expect(w.done).toEqual([
      "m-1:qwen_denied",
      "m-2:qwen_refused",
      "m-3:qwen_expired",
      "m-4:qwen_misaddressed",
      "m-5:qwen_dropped",
    ]);
    expect(w.acks).toEqual([]);
    expect(w.delivery.outstanding).toBe(0);
  });

  test("no trusted record, or a failed post: nothing acked, the message goes back", async () => {
    const none = setup([message("m-1")], { session: { ok: false, reason: "not_trusted" } });
    expect(await none.delivery.step()).toBe("failed");
    expect(none.posts).toEqual([]);
    expect(none.done).toEqual(["m-1:not_trusted"]);
    const failing = setup([message("m-2")], {
      post: { ok: false, reason: "connect_failed", connected: false },
    });
    expect(await failing.delivery.step()).toBe("failed");
    expect(failing.done).toEqual(["m-2:connect_failed"]);
    failing.delivery.onTransition({ msgId: "f-1", status: "delivered" });
    expect(failing.acks).toEqual([]);
  });
});
