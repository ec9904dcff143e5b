import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
import type { Adapter, MessageEnvelope, WatchEvent } from "../../protocol/index.ts";
import type { InboxPostOptions, InboxPostResult } from "../claude-code/index.ts";
import { stateLayout, writeByPidMap } from "../state/index.ts";
import { type ProcessProbe, processStartToken } from "./process-probe.ts";
import { runWatcher } from "./run-watcher.ts";

const CLAUDE = "4242";
const probe: ProcessProbe = { liveness: () => "alive", startToken: (p) => processStartToken(p) };
let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-redrive-"));
  mkdirSync(join(base, "claude", "sessions"), { recursive: true });
  writeByPidMap(
    stateLayout(join(base, "brigade")),
    sampleByPidMap({
      socket_path: join(base, "inbox.sock"),
      config_dir: join(base, "config"),
      transcript_path: join(base, "transcript.jsonl"),
    }),
  );
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Runs a watcher over `messages` (one watch burst) until every one is acknowledged. */
async function deliver(
  messages: readonly MessageEnvelope[],
): Promise<{ posted: string[]; receives: number }> {
  const events: WatchEvent[] = [
    { event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" },
    ...messages.map((message): WatchEvent => ({ event: "message", message })),
  ];
  const acked = new Set<string>();
  let drained: () => void = () => {};
  // The first post waits until the watcher has taken the whole burst off the watch, as when
  // Claude Code's socket is slow to accept: the pipeline then sees every message before any is
  // posted.
  const burstOffered = new Promise<void>((resolve) => {
    drained = resolve;
  });
  const fake = fakeWatcherAdapter({
    handles: [fakeWatchHandle(events, { hold: true, drained })],
    receive: async () => ({ messages: messages.filter((m) => !acked.has(m.message_id)) }),
  });
  const adapter: Adapter = {
    ...fake.adapter,
    messageAck: async (_session, request) => {
      for (const id of request.message_ids) acked.add(id);
      return { acked: [...request.message_ids], unknown: [] };
    },
  };
  const posted: string[] = [];
  const post = async (options: InboxPostOptions): Promise<InboxPostResult> => {
    await burstOffered;
    posted.push(/--reply-to (m-\d+)/.exec(options.content)?.[1] ?? `notice:${options.content}`);
    return { ok: true };
  };
  // A clock 200 times faster than real time: the pacer's 2.5 s per post takes 12.5 ms, the
  // pipeline's 60 s windows 0.3 s.
  const origin = Date.now();
  const controller = new AbortController();
  const exit = runWatcher({
    claudePid: CLAUDE,
    env: watcherTestEnv(base, CLAUDE),
    probe,
    signal: controller.signal,
    now: () => origin + (Date.now() - origin) * 200,
    tickMs: 10,
    openAdapter: () => adapter,
    post: transcribedPost(join(base, "transcript.jsonl"), post),
  });
  try {
    await until("every message acknowledged", () => acked.size === messages.length, 15_000);
    return { posted, receives: fake.calls.receives };
  } finally {
    controller.abort();
    await exit;
  }
}

const ids = (posted: readonly string[]) => posted.filter((id) => !id.startsWith("notice:"));
const notices = (posted: readonly string[]) => posted.filter((id) => id.startsWith("notice:"));

test("messages the full queue evicted are fetched again once it drains, and posted once each", async () => {
  // 60 messages at once (our server's unacked cap per recipient): the queue holds 50 and evicts
  // the 10 oldest. The server sends each only once per connection, so only a fetch (message
  // receive) brings the evicted ones back.
  const { posted, receives } = await deliver(
    Array.from({ length: 60 }, (_, n) => senderEnvelope(n)),
  );
  expect(ids(posted)).toHaveLength(60);
  expect(new Set(ids(posted)).size).toBe(60);
  expect(notices(posted)).toEqual([expect.stringContaining("set aside")]);
  expect(receives).toBeGreaterThanOrEqual(1);
});

test("messages over a sender's bucket are fetched again after its window, and posted once each", async () => {
  const burst = Array.from({ length: 13 }, (_, n) => ({
    ...senderEnvelope(n),
    sender: { principal_ref: "p-1", session_id: "s-chatty", session_name: "chatty" },
  }));
  const { posted } = await deliver(burst);
  expect(ids(posted)).toHaveLength(13);
  expect(new Set(ids(posted)).size).toBe(13);
  expect(notices(posted)).toEqual([expect.stringContaining("more than 10 messages")]);
});
