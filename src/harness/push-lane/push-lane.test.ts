import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import {
  fakeWatcherAdapter,
  fakeWatchHandle,
  senderEnvelope,
} from "../../../test/support/fake-watcher-adapter.ts";
import { until } from "../../../test/support/until.ts";
import type { Adapter, MessageEnvelope, WatchEvent } from "../../protocol/index.ts";
import type {
  DeliveryDoor,
  DoorContext,
  DoorMessageItem,
  DoorOpening,
  HostClient,
} from "../host-session/index.ts";
import { stateLayout, writeByPidMap } from "../state/index.ts";
import {
  deliveryOwned,
  type ProcessProbe,
  processStartToken,
  silentWatcherLog,
} from "../watcher/index.ts";
import { runPushLane } from "./run-push-lane.ts";

const HOST = "4242";
let base: string;
let alive: boolean;
const probe: ProcessProbe = {
  liveness: (pid) => (String(pid) === HOST && !alive ? "dead" : "alive"),
  startToken: (p) => processStartToken(p),
};

beforeEach(() => {
  alive = true;
  base = mkdtempSync(join(tmpdir(), "brigade-lane-"));
  writeByPidMap(
    stateLayout(join(base, "brigade")),
    sampleByPidMap({
      config_dir: join(base, "config"),
      options: { host: "fake", harness: "fake-code" },
    }),
  );
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const env = (): Record<string, string> => ({ HOME: base, XDG_STATE_HOME: base });

/**
 * A door that records what it posts (the text the model would read) and, when `inRecord` says
 * so, finds it "in the conversation" and acks it; `giveBack` returns a message unacked once.
 */
function recordingDoor(options: { giveBack?: string; heldForPerson?: boolean } = {}) {
  const posted: string[] = [];
  const texts: string[] = [];
  let ctx: DoorContext | undefined;
  let closed = false;
  const waiting: DoorMessageItem[] = [];
  let gaveBack = false;
  const door: DeliveryDoor = {
    async step() {
      if (ctx === undefined || closed) return "nothing";
      if ((await ctx.settleFiles()) === "failed") return "failed";
      const head = ctx.pipeline.peek();
      if (head === undefined || head.kind === "files") return "nothing";
      const text = head.kind === "message" ? ctx.textOf(head) : head.text;
      // The shared pacer, as a real door asks it.
      if (ctx.pacer.nextPostAt(ctx.now(), text) > ctx.now()) return "paced";
      const item = ctx.pipeline.next();
      if (item === undefined || item.kind === "files") return "nothing";
      if (item.kind === "notice") {
        ctx.pipeline.done(item);
        return "posted";
      }
      const id = item.message.message_id;
      if (id === options.giveBack && !gaveBack) {
        gaveBack = true;
        ctx.pipeline.done(item, "test_gave_back");
        return "failed";
      }
      ctx.pacer.record(ctx.now(), text);
      posted.push(id);
      texts.push(ctx.textOf(item));
      waiting.push(item);
      return "posted";
    },
    async confirm() {
      if (ctx === undefined) return;
      for (const item of waiting.splice(0)) {
        const done = ctx.pipeline.done(item);
        if (done.ack) ctx.ack(done.messageId);
      }
      ctx.pacer.observeClaudeQueue(ctx.now(), waiting.length);
    },
    get outstanding() {
      return waiting.length;
    },
    async close() {
      closed = true;
    },
  };
  const client: HostClient = {
    name: "fake",
    title: "Fake Code",
    hookEvents: [],
    runHook: async () => "{}",
    install: () => ({ ok: true, lines: [] }),
    uninstall: () => ({ ok: true, lines: [] }),
    dotenvFiles: [],
    insideSession: () => false,
    processSignature: { executables: ["fake-code"], folders: [] },
    openDoor: async (_session, context): Promise<DoorOpening> => {
      ctx = context;
      return { ok: true, door, heldForPerson: options.heldForPerson === true };
    },
  };
  return { client, posted, texts, isClosed: () => closed };
}

/** A fake adapter over one watch burst of `messages` that records acks. */
function adapterOver(
  messages: readonly MessageEnvelope[],
  receive?: () => MessageEnvelope[],
  heartbeat?: () => Promise<unknown>,
) {
  const events: WatchEvent[] = [
    { event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" },
    ...messages.map((message): WatchEvent => ({ event: "message", message })),
  ];
  const fake = fakeWatcherAdapter({
    handles: [fakeWatchHandle(events, { hold: true })],
    capabilities: ["session.live_delivery"],
    ...(receive === undefined ? {} : { receive: async () => ({ messages: receive() }) }),
    ...(heartbeat === undefined ? {} : { heartbeat }),
  });
  const acked: string[] = [];
  const adapter: Adapter = {
    ...fake.adapter,
    messageAck: async (_session, request) => {
      acked.push(...request.message_ids);
      return { acked: [...request.message_ids], unknown: [] };
    },
  };
  return { adapter, acked, calls: fake.calls };
}

/** The same sender's messages m-1…m-n (one sender: the pipeline keeps their order). */
function fromOneSender(n: number): MessageEnvelope[] {
  return Array.from({ length: n }, (_, i) => ({
    ...senderEnvelope(i + 1),
    sender: { principal_ref: "p-1", session_id: "s-dana", session_name: "dana" },
    created_at: `2026-12-02T10:00:${String(i).padStart(2, "0")}Z`,
  }));
}

/** `perSender` messages from each of `senders` senders, interleaved (m-1, m-2, …). */
function fromSenders(senders: number, perSender: number): MessageEnvelope[] {
  return Array.from({ length: senders * perSender }, (_, i) => ({
    ...senderEnvelope(i + 1),
    sender: { principal_ref: "p-1", session_id: `s-${i % senders}`, session_name: "dana" },
    created_at: `2026-12-02T10:00:${String(i).padStart(2, "0")}Z`,
  }));
}

function start(
  client: HostClient,
  adapter: Adapter,
  extra: { tickMs?: number; heartbeatMs?: number; now?: () => number } = {},
) {
  const controller = new AbortController();
  const exit = runPushLane({
    ...(extra.now === undefined ? {} : { now: extra.now }),
    client,
    hostPid: HOST,
    env: env(),
    probe,
    signal: controller.signal,
    log: silentWatcherLog,
    openAdapter: () => adapter,
    confirmMs: 20,
    tickMs: extra.tickMs ?? 50,
    ...(extra.heartbeatMs === undefined ? {} : { heartbeatMs: extra.heartbeatMs }),
    closeTimeoutMs: 500,
  });
  return { exit, stop: () => controller.abort() };
}

describe("the push lane", () => {
  test("messages reach the door in server order as sentinel + frame, each acked once the door confirms it", async () => {
    const door = recordingDoor();
    const server = adapterOver(fromOneSender(5));
    const lane = start(door.client, server.adapter);
    await until("five acks", () => server.acked.length === 5, 10_000);
    expect(door.posted).toEqual(["m-1", "m-2", "m-3", "m-4", "m-5"]);
    expect(server.acked).toEqual(["m-1", "m-2", "m-3", "m-4", "m-5"]);
    for (const text of door.texts) {
      expect(text.startsWith("<!-- lsp:agent-message-v1 ")).toBe(true);
      expect(text).toContain("<brigade-message ");
    }
    lane.stop();
    expect((await lane.exit).reason).toBe("signal");
    expect(door.isClosed()).toBe(true);
  });

  test("a door that confirms each post within a second goes on past the pacer's cap of 20 outstanding", async () => {
    // A clock 10 times faster than the real one: the lane's confirm every 20 ms is 200 ms of its
    // time, the pacer's 2 s settle 200 ms, its refill one post per 250 ms. One message per sender
    // keeps Brigade's ten a minute per sender out of it.
    const origin = Date.now();
    const now = (): number => origin + (Date.now() - origin) * 10;
    const door = recordingDoor();
    const server = adapterOver(fromSenders(25, 1));
    const lane = start(door.client, server.adapter, { now });
    await until("25 acks", () => server.acked.length === 25, 10_000);
    expect(server.acked).toEqual(door.posted);
    lane.stop();
    await lane.exit;
  });

  test("heartbeats say live delivery yes; a client that holds every message for its person says person_review", async () => {
    for (const held of [false, true]) {
      const door = recordingDoor({ heldForPerson: held });
      const server = adapterOver([]);
      const lane = start(door.client, server.adapter);
      await until("a heartbeat", () => server.calls.heartbeats.length > 0, 10_000);
      expect(server.calls.heartbeats[0]).toEqual(
        held
          ? { live_delivery: "no", live_delivery_reason: "person_review" }
          : { live_delivery: "yes" },
      );
      // The lane cannot tell a busy turn from an idle one: it never says an activity.
      expect(server.calls.heartbeats[0]).not.toHaveProperty("activity");
      lane.stop();
      await lane.exit;
    }
  });

  test("while it runs it owns the session (the pull paths stand aside), and a second start makes no second lane", async () => {
    const layout = stateLayout(join(base, "brigade"));
    const door = recordingDoor();
    const server = adapterOver([]);
    const lane = start(door.client, server.adapter);
    await until("the lane's pidfile", () => deliveryOwned(layout, 4242, "s-1"), 10_000);
    expect(deliveryOwned(layout, 4242, "s-other")).toBe(false);
    const second = start(recordingDoor().client, adapterOver([]).adapter);
    expect(await second.exit).toEqual({ reason: "already_running", status: 0 });
    lane.stop();
    await lane.exit;
    expect(deliveryOwned(layout, 4242, "s-1")).toBe(false);
  });

  test("a held message waits; released on the dashboard (a heartbeat's released ids), it reaches the door and is acked", async () => {
    writeByPidMap(
      stateLayout(join(base, "brigade")),
      sampleByPidMap({
        config_dir: join(base, "config"),
        inbound: "hold",
        options: { host: "fake", harness: "fake-code" },
      }),
    );
    const door = recordingDoor();
    let released = false;
    const server = adapterOver(fromOneSender(1), undefined, async () =>
      released ? { released_message_ids: ["m-1"] } : {},
    );
    const lane = start(door.client, server.adapter, { heartbeatMs: 100 });
    await until("a heartbeat", () => server.calls.heartbeats.length > 0, 10_000);
    expect(door.posted).toEqual([]);
    expect(server.acked).toEqual([]);
    released = true;
    await until("the released message acked", () => server.acked.length === 1, 10_000);
    expect(door.posted).toEqual(["m-1"]);
    lane.stop();
    await lane.exit;
  });

  test("a message the door gives back unacked is fetched again and delivered once", async () => {
    const messages = fromOneSender(2);
    const door = recordingDoor({ giveBack: "m-1" });
    const server = adapterOver(messages, () =>
      messages.filter((m) => !server.acked.includes(m.message_id)),
    );
    const lane = start(door.client, server.adapter, { tickMs: 20 });
    await until("both acked", () => server.acked.length === 2, 15_000);
    expect(door.posted).toEqual(["m-1", "m-2"]);
    expect(server.calls.receives).toBeGreaterThan(0);
    lane.stop();
    await lane.exit;
  });

  test("the client process gone: the lane stops and closes the session", async () => {
    const door = recordingDoor();
    const server = adapterOver([]);
    const lane = start(door.client, server.adapter);
    await until("a heartbeat", () => server.calls.heartbeats.length > 0, 10_000);
    alive = false;
    expect((await lane.exit).reason).toBe("host_gone");
    expect(server.calls.closes).toBe(1);
  });

  test("no door for the session: the lane ends at once and gives the pidfile back (the pull lane stays)", async () => {
    const door = recordingDoor();
    const client: HostClient = {
      ...door.client,
      openDoor: async () => ({ ok: false, reason: "qwen_no_record" }),
    };
    const lane = start(client, adapterOver([]).adapter);
    expect(await lane.exit).toEqual({ reason: "no_door", status: 0 });
    expect(deliveryOwned(stateLayout(join(base, "brigade")), 4242, "s-1")).toBe(false);
  });

  test("a by-pid map of another client, or a client without a door, starts nothing", async () => {
    const door = recordingDoor();
    const other = start({ ...door.client, name: "other" }, adapterOver([]).adapter);
    expect((await other.exit).reason).toBe("not_in_session");
    const { openDoor: _none, ...doorless } = door.client;
    const none = start(doorless, adapterOver([]).adapter);
    expect((await none.exit).reason).toBe("unknown_client");
  });
});
