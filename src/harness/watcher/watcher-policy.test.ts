import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import {
  fakeWatcherAdapter,
  fakeWatchHandle,
  senderEnvelope,
  watcherTestEnv,
} from "../../../test/support/fake-watcher-adapter.ts";
import { transcribedPost } from "../../../test/support/transcribed-post.ts";
import { until } from "../../../test/support/until.ts";
import {
  type Adapter,
  BapError,
  type MessageEnvelope,
  type MessageReportRequest,
  type WatchEvent,
} from "../../protocol/index.ts";
import type { InboxPostOptions, InboxPostResult } from "../claude-code/index.ts";
import {
  type ByPidMap,
  FileSeenStore,
  requestRelease,
  stateLayout,
  writeByPidMap,
} from "../state/index.ts";
import { type ProcessProbe, processStartToken } from "./process-probe.ts";
import { type RunWatcherOptions, runWatcher } from "./run-watcher.ts";

// The watcher's answers to a policy change, a failed ack, a failing heartbeat and a tick that
// throws, over a scripted adapter and a recording inbox post.

const CLAUDE = "4242";
const alive: ProcessProbe = { liveness: () => "alive", startToken: (p) => processStartToken(p) };
let base: string;

const layout = () => stateLayout(join(base, "brigade"));
const writeMap = (over: Partial<ByPidMap> = {}) =>
  writeByPidMap(
    layout(),
    sampleByPidMap({
      socket_path: join(base, "inbox.sock"),
      config_dir: join(base, "config"),
      transcript_path: join(base, "transcript.jsonl"),
      ...over,
    }),
  );

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-policy-"));
  mkdirSync(join(base, "claude", "sessions"), { recursive: true });
  writeMap();
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/**
 * A server of `messages` (one watch burst, then `messageReceive` answers what is unacked) that
 * records acks; `failAck` makes the ack of those ids fail once.
 */
function server(
  messages: readonly MessageEnvelope[],
  failAck: readonly string[] = [],
  capabilities: readonly string[] = [],
) {
  const acked: string[] = [];
  const failing = new Set(failAck);
  const events: WatchEvent[] = [
    { event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" },
    ...messages.map((message): WatchEvent => ({ event: "message", message })),
  ];
  const fake = fakeWatcherAdapter({
    capabilities,
    handles: [fakeWatchHandle(events, { hold: true })],
    receive: async () => ({ messages: messages.filter((m) => !acked.includes(m.message_id)) }),
  });
  const adapter: Adapter = {
    ...fake.adapter,
    messageAck: async (_session, request) => {
      for (const id of request.message_ids) {
        if (failing.delete(id)) {
          throw new BapError({ code: "unavailable", message: "x", retryable: true });
        }
        acked.push(id);
      }
      return { acked: [...request.message_ids], unknown: [] };
    },
  };
  return { adapter, acked, calls: fake.calls };
}

const running: { controller: AbortController; exit: Promise<unknown> }[] = [];
afterEach(async () => {
  for (const w of running.splice(0)) {
    w.controller.abort();
    await w.exit;
  }
});

function start(adapter: Adapter, options: Partial<RunWatcherOptions> = {}): void {
  const controller = new AbortController();
  const exit = runWatcher({
    claudePid: CLAUDE,
    env: watcherTestEnv(base, CLAUDE),
    probe: alive,
    signal: controller.signal,
    tickMs: 10,
    openAdapter: () => adapter,
    ...options,
    ...(options.post === undefined
      ? {}
      : { post: transcribedPost(join(base, "transcript.jsonl"), options.post) }),
  });
  running.push({ controller, exit });
}

const idOf = (options: InboxPostOptions) =>
  /--reply-to (m-\d+)/.exec(options.content)?.[1] ?? "notice";
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = () => readFileSync(layout().watcherLog(CLAUDE), "utf8");

test("a turn to refuse takes the queued messages back unacked; back to accept they are fetched again and posted once each", async () => {
  const { adapter, acked, calls } = server([
    senderEnvelope(0),
    senderEnvelope(1),
    senderEnvelope(2),
  ]);
  const posted: string[] = [];
  let openGate: () => void = () => {};
  const gate = new Promise<void>((r) => {
    openGate = r;
  });
  let started = 0;
  const post = async (options: InboxPostOptions): Promise<InboxPostResult> => {
    started += 1;
    await gate; // the first post is in flight while the policy changes
    posted.push(idOf(options));
    return { ok: true };
  };
  start(adapter, { post });
  await until("the first post in flight", () => started === 1);
  writeMap({ inbound: "refuse" });
  await until("the policy change", () => log().includes('"policy_changed"'));
  openGate();
  await until("the post in flight acked", () => acked.length === 1);
  await pause(300);
  // The one already handed out completes; the two still queued are neither posted nor acked.
  expect(posted).toEqual(["m-0"]);
  expect(acked).toEqual(["m-0"]);
  expect(log()).toContain('"withdrawn":2');

  writeMap({ inbound: "accept" });
  await until("all acked", () => acked.length === 3);
  await pause(200);
  expect(posted).toEqual(["m-0", "m-1", "m-2"]);
  expect(calls.receives).toBeGreaterThanOrEqual(1);
});

test("a turn to hold keeps the queued messages as held records, posted only after a release", async () => {
  const served = server([senderEnvelope(0), senderEnvelope(1)], [], ["message.state"]);
  const { acked } = served;
  const reports: MessageReportRequest[] = [];
  const adapter: Adapter = {
    ...served.adapter,
    messageReport: async (_session, request) => {
      reports.push(request);
      return { reported: [...request.message_ids], unknown: [] };
    },
  };
  const posted: string[] = [];
  let openGate: () => void = () => {};
  const gate = new Promise<void>((r) => {
    openGate = r;
  });
  const post = async (options: InboxPostOptions): Promise<InboxPostResult> => {
    await gate;
    posted.push(idOf(options));
    return { ok: true };
  };
  start(adapter, { post });
  await until("the policy can change", () => log().includes('"watch_live"'));
  writeMap({ inbound: "hold" });
  await until("the policy change", () => log().includes('"policy_changed"'));
  openGate();
  await until("the one in flight acked", () => acked.length === 1);
  await pause(300);
  expect(posted).toEqual(["m-0"]);
  const pending = readFileSync(layout().pending("s-1"), "utf8");
  expect(pending).toContain("m-1");
  expect(pending).not.toContain("message 1");
  // The sender reads the withdrawn one as held.
  await until("reported", () => reports.length === 1);
  expect(reports).toEqual([{ message_ids: ["m-1"], state: "held" }]);
  requestRelease(layout(), "s-1", ["m-1"], process.getuid?.() ?? -1);
  await until("the released one acked", () => acked.length === 2);
  expect(posted).toEqual(["m-0", "m-1"]);
});

test("an ack that fails is fetched again and acked as a duplicate, never posted twice", async () => {
  // With the watch's stdin commands on offer too: a command's failure would only be a later
  // error event, so acks always go through message ack, whose failure is the call's own.
  const { adapter, acked, calls } = server(
    [senderEnvelope(0)],
    ["m-0"],
    ["message.watch.stdin_commands"],
  );
  const posted: string[] = [];
  const post = async (options: InboxPostOptions): Promise<InboxPostResult> => {
    posted.push(idOf(options));
    return { ok: true };
  };
  start(adapter, { post });
  await until("acked on the second try", () => acked.includes("m-0"));
  expect(calls.receives).toBeGreaterThanOrEqual(1);
  await pause(200);
  expect(posted).toEqual(["m-0"]);
  expect(log()).toContain('"ack_failed"');
});

test("heartbeats back off while the server fails them, and resume their pace once one succeeds", async () => {
  // The clock moves only when the test moves it; ticks still come every 10 ms of real time and
  // are counted through the probe, so every wait is for an event, not for a time.
  let clock = Date.now();
  let ticks = 0;
  let fail = true;
  const fake = fakeWatcherAdapter({
    heartbeat: async () => {
      if (fail) throw new BapError({ code: "unavailable", message: "x", retryable: true });
      return {};
    },
  });
  start(fake.adapter, {
    now: () => clock,
    probe: {
      ...alive,
      liveness: (pid) => {
        ticks += 1;
        return alive.liveness(pid);
      },
    },
    heartbeatMs: 60_000,
    backoff: { minMs: 100, maxMs: 1_000, failureLimit: 10, failureWindowMs: 60_000, slowMs: 5_000 },
  });
  const heartbeats = () => fake.calls.heartbeats.length;
  const someTicks = async () => {
    const from = ticks;
    await until("20 more ticks", () => ticks >= from + 20);
  };
  await until("the first heartbeat", () => heartbeats() === 1);
  // Without the back-off, an unsent activity makes every tick try again.
  await someTicks();
  expect(heartbeats()).toBe(1);
  clock += 1_000; // the back-off is at most 1 s
  await until("the retry once the back-off has passed", () => heartbeats() === 2);
  await someTicks();
  expect(heartbeats()).toBe(2);
  fail = false;
  clock += 1_000;
  await until("a heartbeat accepted", () => heartbeats() === 3);
  // Accepted and nothing changed: the next one waits for the 60 s interval.
  clock += 59_000;
  await someTicks();
  expect(heartbeats()).toBe(3);
  clock += 1_000;
  await until("the interval's heartbeat", () => heartbeats() === 4);
});

test("a tick that throws is logged and the watcher goes on delivering", async () => {
  const { adapter, acked } = server([senderEnvelope(0)]);
  let calls = 0;
  const probe: ProcessProbe = {
    liveness: (pid) => {
      calls += 1;
      if (calls === 2) throw new Error("EAGAIN");
      return alive.liveness(pid);
    },
    startToken: alive.startToken,
  };
  start(adapter, { probe, post: async () => ({ ok: true }) });
  await until("the failed tick logged", () => log().includes('"tick_failed"'));
  await until("delivered", () => acked.includes("m-0"));
  await until("ticking again", () => calls >= 5);
});

test("a (re)started watcher posts nothing while the transcript shows a full queue in a busy turn; once taken, it posts though still busy", async () => {
  const registry = join(base, "claude", "sessions", `${CLAUDE}.json`);
  const transcript = join(base, "transcript.jsonl");
  writeFileSync(registry, JSON.stringify({ status: "busy" }));
  // A predecessor's 20 posts, admitted and not yet taken by the busy turn.
  const queued = Array.from({ length: 20 }, (_, n) =>
    JSON.stringify({ type: "queue-operation", operation: "enqueue", content: `earlier ${n}` }),
  );
  writeFileSync(transcript, `${queued.join("\n")}\n`);
  const { adapter, acked } = server([senderEnvelope(0)]);
  const posted: string[] = [];
  start(adapter, {
    post: async (options) => {
      posted.push(idOf(options));
      return { ok: true };
    },
  });
  await until("live", () => log().includes('"watch_live"'));
  await pause(400);
  expect(posted).toEqual([]);
  expect(acked).toEqual([]);
  // The turn takes them between two tool calls (a headless run stays busy to its end).
  const taken = Array.from({ length: 20 }, () =>
    JSON.stringify({ type: "queue-operation", operation: "remove" }),
  );
  appendFileSync(transcript, `${taken.join("\n")}\n`);
  await until("posted while busy", () => acked.includes("m-0"));
  expect(posted).toEqual(["m-0"]);
});

test("a (re)started watcher with no transcript to read posts nothing into a busy turn until idle", async () => {
  writeByPidMap(
    layout(),
    sampleByPidMap({ socket_path: join(base, "inbox.sock"), config_dir: join(base, "config") }),
  );
  const registry = join(base, "claude", "sessions", `${CLAUDE}.json`);
  writeFileSync(registry, JSON.stringify({ status: "busy" }));
  const { adapter, acked } = server([senderEnvelope(0)]);
  const posted: string[] = [];
  start(adapter, {
    post: async (options) => {
      posted.push(idOf(options));
      return { ok: true };
    },
  });
  await until("live", () => log().includes('"watch_live"'));
  await pause(400);
  expect(posted).toEqual([]);
  expect(acked).toEqual([]);
});

test("a server repeating an injected message without end gets one ack call at a time, not a pile of them", async () => {
  const uid = process.getuid?.() ?? 0;
  FileSeenStore.open(layout(), "s-1", uid).add("m-0");
  const repeats = Array.from(
    { length: 1_000 },
    (): WatchEvent => ({ event: "message", message: senderEnvelope(0) }),
  );
  const fake = fakeWatcherAdapter({
    handles: [
      fakeWatchHandle(
        [{ event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" }, ...repeats],
        { hold: true },
      ),
    ],
  });
  let calls = 0;
  let release: () => void = () => {};
  const hang = new Promise<void>((r) => {
    release = r;
  });
  const adapter: Adapter = {
    ...fake.adapter,
    messageAck: async (_session, request) => {
      calls += 1;
      await hang;
      return { acked: [...request.message_ids], unknown: [] };
    },
  };
  start(adapter, { post: async () => ({ ok: true }) });
  await until(
    "every repeat offered",
    () => (log().match(/"duplicate"/g) ?? []).length === 1_000,
    30_000,
  );
  expect(calls).toBe(1);
  release();
  await until("the ack sent", () => log().includes('"ack_sent"'));
  expect(calls).toBe(1);
});
