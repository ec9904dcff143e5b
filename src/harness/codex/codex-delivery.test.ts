import { describe, expect, test } from "vitest";
import { standInDoorPipeline } from "../../../test/support/stand-in-door-pipeline.ts";
import type { DoorContext } from "../host-session/index.ts";
import type { InboundItem, InboundMessage } from "../inbound/index.ts";
import type { CodexCallResult, CodexNotification } from "./codex-app-server.ts";
import {
  CODEX_UNRECORDED_GIVE_BACK_MS,
  CodexDoor,
  type CodexThreadPort,
  codexClientId,
} from "./codex-delivery.ts";

const THREAD = "th-1";

const message = (id: string): InboundItem => ({
  kind: "message",
  message: { message_id: id, sender: { session_id: "s-a" } } as InboundMessage,
  frame: `<brigade-message message-id="${id}">`,
  text: `frame ${id}`,
});

interface Turn {
  id: string;
  status: string;
  items: { type: string; clientId: string | null; content: { type: string; text: string }[] }[];
}

/**
 * A fake app-server thread: turn/start opens a turn holding the input; turn/steer adds to the
 * running turn's pending input (recorded only when `take()` runs, as Codex records a steer when it
 * goes to the model); `finish()` ends the turn.
 */
class FakeThread implements CodexThreadPort {
  readonly calls: { method: string; params: Record<string, unknown> }[] = [];
  readonly turns: Turn[] = [];
  readonly pending: { clientId: string; text: string }[] = [];
  loaded = [THREAD];
  refuse: Record<string, CodexCallResult> = {};
  /** The running turn ends just before the next steer arrives (a race the door must survive). */
  endOnSteer = false;
  closed = false;
  #listener: ((note: CodexNotification) => void) | undefined;
  #n = 0;

  async call(method: string, params: Record<string, unknown>): Promise<CodexCallResult> {
    this.calls.push({ method, params });
    const refused = this.refuse[method];
    if (refused !== undefined) return refused;
    const input = params.input as { text: string }[] | undefined;
    const active = this.turns.find((t) => t.status === "inProgress");
    switch (method) {
      case "thread/loaded/list":
        return { ok: true, result: { data: this.loaded } };
      case "thread/turns/list":
        return {
          ok: true,
          result: { data: [...this.turns].reverse().slice(0, Number(params.limit)) },
        };
      case "turn/start": {
        const turn: Turn = { id: `turn-${++this.#n}`, status: "inProgress", items: [] };
        this.turns.push(turn);
        this.#record(turn, String(params.clientUserMessageId), input?.[0]?.text ?? "");
        this.#listener?.({
          method: "turn/started",
          params: { threadId: THREAD, turn: { id: turn.id } },
        });
        return { ok: true, result: { turn: { id: turn.id } } };
      }
      case "turn/steer":
        if (this.endOnSteer && active !== undefined) {
          this.endOnSteer = false;
          active.status = "completed";
          return { ok: false, reason: "rpc", code: -32600, message: "no active turn to steer" };
        }
        if (active === undefined)
          return { ok: false, reason: "rpc", code: -32600, message: "no active turn to steer" };
        if (active.id !== params.expectedTurnId)
          return { ok: false, reason: "rpc", code: -32600, message: "expected active turn id" };
        this.pending.push({
          clientId: String(params.clientUserMessageId),
          text: input?.[0]?.text ?? "",
        });
        return { ok: true, result: { turnId: active.id } };
      default:
        return { ok: false, reason: "rpc", code: -32601, message: "unknown" };
    }
  }

  #record(turn: Turn, clientId: string, text: string): void {
    turn.items.push({ type: "userMessage", clientId, content: [{ type: "text", text }] });
  }

  /** The model's next request: pending steers enter the record. */
  take(): void {
    const active = this.turns.find((t) => t.status === "inProgress");
    if (active === undefined) return;
    for (const p of this.pending.splice(0)) this.#record(active, p.clientId, p.text);
  }

  finish(): void {
    const active = this.turns.find((t) => t.status === "inProgress");
    if (active === undefined) return;
    active.status = "completed";
    this.#listener?.({
      method: "turn/completed",
      params: { threadId: THREAD, turn: { id: active.id } },
    });
  }

  emit(note: CodexNotification): void {
    this.#listener?.(note);
  }

  onNotification(listener: (note: CodexNotification) => void): () => void {
    this.#listener = listener;
    return () => {
      this.#listener = undefined;
    };
  }

  close(): void {
    this.closed = true;
  }
}

function setup(items: InboundItem[], options: { paced?: boolean } = {}) {
  const queue = [...items];
  const { pipeline, done } = standInDoorPipeline(queue);
  const acks: string[] = [];
  const logs: string[] = [];
  const depths: number[] = [];
  let clock = 1_000;
  const ctx: DoorContext = {
    settleFiles: async () => "ready",
    pipeline,
    pacer: {
      nextPostAt: (now) => (options.paced === true ? now + 1 : now),
      record: () => {},
      observeClaudeQueue: (_now, depth) => void depths.push(depth),
    },
    textOf: (item) => `<!-- lsp:agent-message-v1 {} -->\n${item.frame}`,
    report: () => {},
    ack: (id) => void acks.push(id),
    log: (_level, event, fields) => void logs.push(`${event}:${Object.values(fields).join(",")}`),
    now: () => clock,
  };
  const advance = (ms: number): void => {
    clock += ms;
  };
  return { queue, ctx, done, acks, logs, depths, advance };
}

async function attach(thread: FakeThread, ctx: DoorContext): Promise<CodexDoor> {
  const attached = await CodexDoor.attach(ctx, thread, THREAD);
  if (!attached.ok) throw new Error(attached.reason);
  return attached.door;
}

describe("CodexDoor", () => {
  test("an idle thread gets turn/start with the sentinel + frame and the message's client id; acked once the record holds it", async () => {
    const thread = new FakeThread();
    const w = setup([message("m-1")]);
    const door = await attach(thread, w.ctx);
    expect(await door.step()).toBe("posted");
    const start = thread.calls.find((c) => c.method === "turn/start");
    expect(start?.params).toEqual({
      threadId: THREAD,
      input: [
        {
          type: "text",
          text: '<!-- lsp:agent-message-v1 {} -->\n<brigade-message message-id="m-1">',
          text_elements: [],
        },
      ],
      clientUserMessageId: "brigade:m-1",
    });
    expect(w.acks).toEqual([]);
    await door.confirm();
    expect(w.acks).toEqual(["m-1"]);
    expect(w.done).toEqual(["m-1"]);
    expect(door.outstanding).toBe(0);
  });

  test("while a turn runs, turn/steer with its id; no ack until the steer is in the record", async () => {
    const thread = new FakeThread();
    const w = setup([message("m-1"), message("m-2")]);
    const door = await attach(thread, w.ctx);
    expect(await door.step()).toBe("posted");
    expect(await door.step()).toBe("posted");
    const steer = thread.calls.find((c) => c.method === "turn/steer");
    expect(steer?.params.expectedTurnId).toBe("turn-1");
    expect(steer?.params.clientUserMessageId).toBe("brigade:m-2");
    await door.confirm();
    expect(w.acks).toEqual(["m-1"]);
    expect(w.depths.at(-1)).toBe(1);
    thread.take();
    await door.confirm();
    expect(w.acks).toEqual(["m-1", "m-2"]);
    expect(w.depths.at(-1)).toBe(0);
  });

  test("the running turn is read from the record before each post: a turn that ended gets a start", async () => {
    const thread = new FakeThread();
    const w = setup([message("m-1"), message("m-2")]);
    const door = await attach(thread, w.ctx);
    await door.step();
    thread.finish();
    expect(await door.step()).toBe("posted");
    expect(thread.calls.map((c) => c.method).slice(-2)).toEqual([
      "thread/turns/list",
      "turn/start",
    ]);
    await door.confirm();
    expect(w.acks).toEqual(["m-1", "m-2"]);
  });

  test("a steer that finds the turn ended meanwhile reads the record and starts a turn instead", async () => {
    const thread = new FakeThread();
    const w = setup([message("m-1"), message("m-2")]);
    const door = await attach(thread, w.ctx);
    await door.step();
    thread.endOnSteer = true;
    expect(await door.step()).toBe("posted");
    expect(thread.calls.map((c) => c.method).slice(-3)).toEqual([
      "turn/steer",
      "thread/turns/list",
      "turn/start",
    ]);
    await door.confirm();
    expect(w.acks).toEqual(["m-1", "m-2"]);
  });

  test("a message the record already holds is acked and never posted again", async () => {
    const thread = new FakeThread();
    thread.turns.push({
      id: "turn-0",
      status: "completed",
      items: [{ type: "userMessage", clientId: codexClientId("m-1"), content: [] }],
    });
    const w = setup([message("m-1")]);
    const door = await attach(thread, w.ctx);
    expect(await door.step()).toBe("nothing");
    expect(thread.calls.some((c) => c.method.startsWith("turn/"))).toBe(false);
    expect(w.acks).toEqual(["m-1"]);
  });

  test("a post Codex refuses goes back to the server unacked", async () => {
    const thread = new FakeThread();
    thread.refuse["turn/start"] = { ok: false, reason: "rpc", code: -32603, message: "boom" };
    const w = setup([message("m-1")]);
    const door = await attach(thread, w.ctx);
    expect(await door.step()).toBe("failed");
    expect(w.done).toEqual(["m-1:codex_rpc"]);
    expect(w.acks).toEqual([]);
    expect(w.logs).toContain("codex_post_failed:m-1,rpc_-32603");
  });

  test("a steer never recorded goes back unacked once the thread has been idle long enough", async () => {
    const thread = new FakeThread();
    const w = setup([message("m-1"), message("m-2")]);
    const door = await attach(thread, w.ctx);
    await door.step();
    await door.step();
    thread.pending.splice(0);
    thread.finish();
    await door.confirm();
    expect(w.acks).toEqual(["m-1"]);
    expect(door.outstanding).toBe(1);
    w.advance(CODEX_UNRECORDED_GIVE_BACK_MS);
    await door.confirm();
    expect(w.done).toEqual(["m-1", "m-2:codex_not_recorded"]);
    expect(w.acks).toEqual(["m-1"]);
    expect(door.outstanding).toBe(0);
  });

  test("paced: nothing taken from the pipeline", async () => {
    const thread = new FakeThread();
    const w = setup([message("m-1")], { paced: true });
    const door = await attach(thread, w.ctx);
    expect(await door.step()).toBe("paced");
    expect(w.queue).toHaveLength(1);
  });

  test("a notice is posted as its own input and done, never acked", async () => {
    const thread = new FakeThread();
    const w = setup([{ kind: "notice", notice: "rate", text: "Brigade: slow down" }]);
    const door = await attach(thread, w.ctx);
    expect(await door.step()).toBe("posted");
    const start = thread.calls.find((c) => c.method === "turn/start");
    expect(String(start?.params.clientUserMessageId)).toMatch(/^brigade:notice:/);
    expect(w.done).toEqual(["rate"]);
    expect(w.acks).toEqual([]);
    expect(door.outstanding).toBe(0);
  });

  test("a thread the app-server has not loaded has no door; the door never subscribes; close lets go", async () => {
    const thread = new FakeThread();
    thread.loaded = [];
    expect(await CodexDoor.attach(setup([]).ctx, thread, THREAD)).toEqual({
      ok: false,
      reason: "not_loaded",
    });
    expect(thread.calls.map((c) => c.method)).toEqual(["thread/loaded/list"]);
    const live = new FakeThread();
    const door = await attach(live, setup([]).ctx);
    await door.close();
    expect(live.calls.map((c) => c.method)).toEqual(["thread/loaded/list", "thread/turns/list"]);
    expect(live.closed).toBe(true);
    expect(await door.step()).toBe("nothing");
  });

  test("once Codex closes the thread (the session ended) nothing more is posted", async () => {
    const thread = new FakeThread();
    const w = setup([message("m-1")]);
    const door = await attach(thread, w.ctx);
    thread.emit({ method: "thread/closed", params: { threadId: "other" } });
    expect(door.threadClosed).toBe(false);
    thread.emit({ method: "thread/closed", params: { threadId: THREAD } });
    expect(door.threadClosed).toBe(true);
    expect(await door.step()).toBe("nothing");
    expect(w.queue).toHaveLength(1);
  });

  test("a post whose answer timed out waits for the record, and nothing goes behind it", async () => {
    const thread = new FakeThread();
    const w = setup([message("m-1"), message("m-2")]);
    const door = await attach(thread, w.ctx);
    thread.refuse["turn/start"] = { ok: false, reason: "timeout" };
    expect(await door.step()).toBe("posted");
    expect(door.outstanding).toBe(1);
    expect(w.logs).toContain("codex_post_unknown:m-1,timeout");
    expect(await door.step()).toBe("nothing");
    expect(w.queue).toHaveLength(1);
    // Codex did take it after all: the record settles it, then the next goes.
    thread.turns.push({
      id: "turn-x",
      status: "completed",
      items: [{ type: "userMessage", clientId: codexClientId("m-1"), content: [] }],
    });
    await door.confirm();
    expect(w.acks).toEqual(["m-1"]);
    delete thread.refuse["turn/start"];
    expect(await door.step()).toBe("posted");
    await door.confirm();
    expect(w.acks).toEqual(["m-1", "m-2"]);
  });

  test("a message waits for its files: nothing is posted until they are received", async () => {
    const thread = new FakeThread();
    const files: InboundItem = {
      kind: "files",
      message: { message_id: "m-1", sender: { session_id: "s-a" } } as InboundMessage,
    };
    const w = setup([files]);
    let settled: "none" | "ready" | "failed" = "none";
    const door = await attach(thread, { ...w.ctx, settleFiles: async () => settled });
    expect(await door.step()).toBe("nothing");
    settled = "failed";
    expect(await door.step()).toBe("failed");
    expect(thread.calls.some((c) => c.method.startsWith("turn/"))).toBe(false);
    // Received: the pipeline's head is now the message itself.
    settled = "ready";
    w.queue.splice(0, 1, message("m-1"));
    expect(await door.step()).toBe("posted");
  });
});
