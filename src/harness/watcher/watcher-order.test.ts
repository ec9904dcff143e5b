import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { ClaudeCodeHost } from "../../../test/support/claude-code-host/index.ts";
import {
  fakeWatcherAdapter,
  fakeWatchHandle,
  senderEnvelope,
  watcherTestEnv,
} from "../../../test/support/fake-watcher-adapter.ts";
import { until } from "../../../test/support/until.ts";
import type { Adapter, MessageEnvelope, WatchEvent } from "../../protocol/index.ts";
import { postToInbox } from "../claude-code/index.ts";
import { rateNotice } from "../inbound/index.ts";
import { stateLayout, writeByPidMap } from "../state/index.ts";
import { type ProcessProbe, processStartToken } from "./process-probe.ts";
import { runWatcher } from "./run-watcher.ts";

// One sender's burst through the whole watcher into the stand-in host: push, the set-aside
// refetches after each per-sender window, and a restart's redrive keep the sender's order; the
// rate notice counts what actually waits. A clock 50 times faster than real time (a post's
// confirmation wait of 10 s is 200 ms, a per-sender window 1.2 s).

const probe: ProcessProbe = { liveness: () => "alive", startToken: (p) => processStartToken(p) };
let base: string;
let host: ClaudeCodeHost;
const origin = Date.now();
const fast = () => origin + (Date.now() - origin) * 50;

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), "brigade-order-"));
  host = await ClaudeCodeHost.start({ now: fast });
  writeByPidMap(
    stateLayout(join(base, "brigade")),
    sampleByPidMap({
      claude_pid: host.claudePid,
      socket_path: host.socketPath,
      transcript_path: host.transcriptPath,
      config_dir: join(base, "config"),
    }),
  );
});
afterEach(async () => {
  await host.close();
  rmSync(base, { recursive: true, force: true });
});

const burst = (count: number): MessageEnvelope[] =>
  Array.from({ length: count }, (_, n) => ({
    ...senderEnvelope(n),
    sender: { principal_ref: "p-1", session_id: "s-chatty", session_name: "chatty" },
  }));

/**
 * Runs a watcher over `messages` (one watch burst, then `messageReceive` answers the unacked ones
 * oldest first) until `done` holds. The first post waits until the watch burst was offered whole.
 */
async function runUntil(
  messages: readonly MessageEnvelope[],
  acked: Set<string>,
  done: () => boolean,
  later?: { readonly after: Promise<void>; readonly messages: readonly MessageEnvelope[] },
): Promise<void> {
  const events: WatchEvent[] = [
    { event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" },
    ...messages.map((message): WatchEvent => ({ event: "message", message })),
  ];
  let drained: () => void = () => {};
  const offered = new Promise<void>((resolve) => {
    drained = resolve;
  });
  let pushedLater = later === undefined;
  const handle = fakeWatchHandle(events, { hold: later === undefined, drained });
  let close: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    close = resolve;
  });
  const stream = (async function* () {
    yield* handle.events;
    if (later === undefined) return;
    await later.after;
    yield* later.messages.map((message): WatchEvent => ({ event: "message", message }));
    pushedLater = true;
    await closed;
  })();
  const all = [...messages, ...(later?.messages ?? [])];
  const fake = fakeWatcherAdapter({
    handles: [
      {
        ...handle,
        events: stream,
        [Symbol.asyncIterator]: () => stream,
        close: async () => {
          close();
          await handle.close();
        },
      },
    ],
    receive: async () => {
      // Until the later push arrived, the server is slow to answer a fetch.
      if (!pushedLater) throw new Error("slow");
      return { messages: all.filter((m) => !acked.has(m.message_id)).slice(0, 50) };
    },
  });
  const adapter: Adapter = {
    ...fake.adapter,
    messageAck: async (_session, request) => {
      for (const id of request.message_ids) acked.add(id);
      return { acked: [...request.message_ids], unknown: [] };
    },
  };
  const claudePid = String(host.claudePid);
  const controller = new AbortController();
  const exit = runWatcher({
    claudePid,
    env: { ...watcherTestEnv(base, claudePid), ...host.env },
    probe,
    signal: controller.signal,
    now: fast,
    tickMs: 10,
    confirmPollMs: 10,
    openAdapter: () => adapter,
    post: async (options) => {
      await offered;
      const result = await postToInbox(options);
      host.settle(); // the model answers at once: each post is read in its own short turn
      return result;
    },
  });
  try {
    await until("done", done, 30_000);
  } finally {
    controller.abort();
    await exit;
  }
}

const readIds = () =>
  host.socketReads().flatMap((text) => {
    const id = /message-id="(m-\d+)"/.exec(text)?.[1];
    return id === undefined ? [] : [id];
  });
const readNotices = () => host.socketReads().filter((text) => text.startsWith("Brigade: "));

test("61 messages from one sender reach the model exactly once, in the order sent, and the rate notice counts what waits", async () => {
  const messages = burst(61);
  const acked = new Set<string>();
  await runUntil(messages, acked, () => acked.size === 61);
  expect(readIds()).toEqual(messages.map((m) => m.message_id));
  // 10 pass the per-sender window; the other 51 wait on the server when the notice is read.
  expect(readNotices()[0]).toBe(rateNotice("chatty", 51));
  for (const notice of readNotices()) expect(notice).toMatch(/ (\d+ messages were|1 message was) /);
}, 70_000);

test("a message pushed after the sender's window emptied never overtakes the ones set aside", async () => {
  const messages = burst(40);
  const acked = new Set<string>();
  let pushLater: () => void = () => {};
  const after = new Promise<void>((resolve) => {
    pushLater = resolve;
  });
  const run = runUntil(messages.slice(0, 15), acked, () => acked.size === 40, {
    after,
    messages: messages.slice(15),
  });
  await until("the first ten read", () => readIds().length === 10, 20_000);
  // The window empties 60 s (1.2 s here) after the first ten were accepted.
  await new Promise((r) => setTimeout(r, 1_500));
  pushLater();
  await run;
  expect(readIds()).toEqual(messages.map((m) => m.message_id));
  // The notice was read after the ten accepted ones, when five waited.
  expect(readNotices()[0]).toBe(rateNotice("chatty", 5));
}, 70_000);

test("a restart's redrive keeps the order: what the first watcher left waits, then goes first", async () => {
  const messages = burst(25);
  const acked = new Set<string>();
  await runUntil(messages, acked, () => acked.size >= 10);
  const first = readIds();
  expect(first).toEqual(messages.slice(0, first.length).map((m) => m.message_id));
  // A second watcher (a respawn): the server's watch sends every unacked message again.
  await runUntil(
    messages.filter((m) => !acked.has(m.message_id)),
    acked,
    () => acked.size === 25,
  );
  expect(readIds()).toEqual(messages.map((m) => m.message_id));
}, 70_000);
