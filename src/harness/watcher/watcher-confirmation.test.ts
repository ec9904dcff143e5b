import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import {
  ClaudeCodeHost,
  type ClaudeCodeHostOptions,
  type PostRecording,
} from "../../../test/support/claude-code-host/index.ts";
import {
  fakeWatcherAdapter,
  fakeWatchHandle,
  senderEnvelope,
  watcherTestEnv,
} from "../../../test/support/fake-watcher-adapter.ts";
import { until } from "../../../test/support/until.ts";
import type { Adapter, MessageEnvelope, WatchEvent } from "../../protocol/index.ts";
import { type ByPidMap, stateLayout, writeByPidMap } from "../state/index.ts";
import {
  GATE_CLOSED_NOTICE,
  HELD_BY_DIALOG_NOTICE,
  UNCONFIRMED_NOTICE,
} from "./delivery-notices.ts";
import { type ProcessProbe, processStartToken } from "./process-probe.ts";
import { type RunWatcherOptions, runWatcher } from "./run-watcher.ts";

// Acked means in the conversation: the watcher against the stand-in host's socket and transcript,
// with a host that records a post at once, never (an admission drop) or late, and one whose gate
// holds; the clock is the test's, moved by hand.

const probe: ProcessProbe = { liveness: () => "alive", startToken: (p) => processStartToken(p) };
let base: string;
let host: ClaudeCodeHost;
const clock = { now: Date.parse("2026-12-03T10:00:00Z") };
const running: { controller: AbortController; exit: Promise<unknown> }[] = [];

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "brigade-confirm-"));
  clock.now = Date.parse("2026-12-03T10:00:00Z");
});
afterEach(async () => {
  for (const w of running.splice(0)) {
    w.controller.abort();
    await w.exit;
  }
  await host?.close();
  rmSync(base, { recursive: true, force: true });
});

const layout = () => stateLayout(join(base, "brigade"));
const log = () => readFileSync(layout().watcherLog(String(host.claudePid)), "utf8");
const notice = () => {
  try {
    return readFileSync(layout().notice(String(host.claudePid)), "utf8");
  } catch {
    return "";
  }
};
const postedIds = () =>
  host.posts.map((p) => /message-id="(m-\d+)"/.exec(p.content ?? "")?.[1] ?? "notice");

/** A server of `messages` (one watch burst; a fetch answers what is unacked) recording acks. */
function server(messages: readonly MessageEnvelope[]) {
  const acked: string[] = [];
  const events: WatchEvent[] = [
    { event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" },
    ...messages.map((message): WatchEvent => ({ event: "message", message })),
  ];
  const fake = fakeWatcherAdapter({
    handles: [fakeWatchHandle(events, { hold: true })],
    receive: async () => ({ messages: messages.filter((m) => !acked.includes(m.message_id)) }),
  });
  const adapter: Adapter = {
    ...fake.adapter,
    messageAck: async (_session, request) => {
      acked.push(...request.message_ids);
      return { acked: [...request.message_ids], unknown: [] };
    },
  };
  return { adapter, acked };
}

async function start(
  adapter: Adapter,
  hostOptions: ClaudeCodeHostOptions,
  over: Partial<ByPidMap> = {},
  options: Partial<RunWatcherOptions> = {},
): Promise<void> {
  host = await ClaudeCodeHost.start({ now: () => clock.now, ...hostOptions });
  writeByPidMap(
    layout(),
    sampleByPidMap({
      claude_pid: host.claudePid,
      socket_path: host.socketPath,
      transcript_path: host.transcriptPath,
      config_dir: join(base, "config"),
      ...over,
    }),
  );
  const claudePid = String(host.claudePid);
  const controller = new AbortController();
  const exit = runWatcher({
    claudePid,
    probe,
    signal: controller.signal,
    now: () => clock.now,
    tickMs: 10,
    confirmPollMs: 10,
    openAdapter: () => adapter,
    ...options,
    env: { ...watcherTestEnv(base, claudePid), ...host.env, ...(options.env ?? {}) },
  });
  running.push({ controller, exit });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Moves the test's clock and lets a few ticks see it. */
const advance = async (ms: number) => {
  clock.now += ms;
  await pause(80);
};

test("a post the host records is acked only once the transcript shows it in the conversation", async () => {
  const { adapter, acked } = server([senderEnvelope(0)]);
  const seen: string[] = [];
  await start(adapter, { recording: () => "late" }, {}, {});
  await until("posted", () => host.posts.length === 1);
  await pause(200);
  seen.push(...acked);
  host.deliverLate();
  await until("acked", () => acked.includes("m-0"));
  expect(seen).toEqual([]);
  // Recorded late, before its wait ran out: posted once, read once.
  await advance(60_000);
  await advance(60_000);
  expect(postedIds()).toEqual(["m-0"]);
  expect(host.socketReads()).toHaveLength(1);
});

test("a post the host accepts and never records is not acked, posted again within the limits, then reported", async () => {
  const { adapter, acked } = server([senderEnvelope(0)]);
  await start(adapter, { recording: () => "drop" });
  await until("posted", () => host.posts.length === 1);
  // Missing after 10 s with the session idle; the repeat rule spaces the posts 35 s apart.
  for (let i = 0; i < 6; i += 1) await advance(20_000);
  await until("three posts", () => host.posts.length >= 3);
  await advance(20_000);
  await until("given up", () => log().includes('"delivery_unconfirmed"'));
  expect(postedIds().slice(0, 3)).toEqual(["m-0", "m-0", "m-0"]);
  expect(host.posts.map((p) => p.outcome).slice(0, 3)).toEqual(["dropped", "dropped", "dropped"]);
  expect(acked).toEqual([]);
  expect(notice()).toContain(UNCONFIRMED_NOTICE);
  expect(log().match(/"post_missing"/g)).toHaveLength(2);
});

test("a dropped post is posted again and acked once the host records the second one", async () => {
  const { adapter, acked } = server([senderEnvelope(0)]);
  const recordings: PostRecording[] = ["drop"];
  await start(adapter, { recording: () => recordings.shift() ?? "record" });
  await until("posted", () => host.posts.length === 1);
  for (let i = 0; i < 3 && !acked.includes("m-0"); i += 1) await advance(20_000);
  await until("acked", () => acked.includes("m-0"));
  expect(postedIds()).toEqual(["m-0", "m-0"]);
  expect(host.posts.map((p) => p.outcome)).toEqual(["dropped", "delivered"]);
  expect(host.socketReads()).toHaveLength(1);
});

/** A Claude Code config folder whose user `settings.json` holds `settings`, written now. */
function configWith(settings: string): string {
  const dir = join(base, "claude-config");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, "settings.json"), settings, { mode: 0o600 });
  return dir;
}

test("a bypassing session whose user settings do not accept: nothing posted, the watcher stands aside and says so, the settings untouched", async () => {
  const fake = server([senderEnvelope(0)]);
  const heartbeats: unknown[] = [];
  const adapter: Adapter = {
    ...fake.adapter,
    describe: async () => ({
      ...(await fake.adapter.describe()),
      capabilities: ["session.live_delivery"],
    }),
    sessionHeartbeat: async (session, request, options) => {
      heartbeats.push(request);
      return fake.adapter.sessionHeartbeat(session, request, options);
    },
  };
  const original = '{\n  "model": "opus"\n}\n';
  const configDir = configWith(original);
  // The mode as the prompt hook writes it into the map.
  await start(
    adapter,
    { permissionMode: "bypassPermissions", configDir },
    { permission_mode: "bypassPermissions" },
  );
  const outcome = await running[0]?.exit;
  expect(outcome).toMatchObject({ reason: "inbound_gate", status: 0 });
  expect(log()).toContain('"gate_closed"');
  expect(notice()).toContain(GATE_CLOSED_NOTICE);
  expect(heartbeats).toContainEqual({ live_delivery: "no", live_delivery_reason: "inbound_gate" });
  expect(host.posts).toEqual([]);
  expect(fake.acked).toEqual([]);
  // The plugin changes no Claude Code setting: the user settings are byte for byte as they were.
  expect(readFileSync(join(configDir, "settings.json"), "utf8")).toBe(original);
});

test("a bypassing session whose user settings accept (the person's own choice): delivered once the setting settled", async () => {
  const { adapter, acked } = server([senderEnvelope(0)]);
  const configDir = configWith('{"crossSessionInbound": "accept"}\n');
  await start(
    adapter,
    { permissionMode: "bypassPermissions", configDir },
    { permission_mode: "unknown" },
  );
  // Claude Code takes a settings change in after a moment: not posted at once.
  await pause(1_000);
  expect(host.posts).toEqual([]);
  await until("acked", () => acked.includes("m-0"), 15_000);
  expect(host.posts.map((p) => p.outcome)).toEqual(["delivered"]);
});

test("a post Claude Code holds for its dialog is not acked, is reported, and nothing more is posted", async () => {
  const { adapter, acked } = server([senderEnvelope(0), senderEnvelope(1)]);
  // The watcher is told the mode is `default` (as when Claude Code was started through
  // `--settings`, invisible to it), but the host's gate holds.
  await start(
    adapter,
    { permissionMode: "bypassPermissions" },
    { permission_mode: "default" },
    { claudeArgv: ["claude"] },
  );
  await until("held detected", () => log().includes('"post_held"'));
  expect(notice()).toContain(HELD_BY_DIALOG_NOTICE);
  // What was posted before the hold showed up in the transcript is held too; nothing is posted
  // again, however long the dialog stays open.
  for (let i = 0; i < 4; i += 1) await advance(40_000);
  expect(new Set(postedIds()).size).toBe(host.posts.length);
  expect(host.posts.length).toBeLessThanOrEqual(2);
  expect(host.posts.every((p) => p.outcome === "held")).toBe(true);
  expect(acked).toEqual([]);
});

test("a sender's order holds through a repost: a later message waits until the dropped one is admitted", async () => {
  const first = senderEnvelope(0);
  const second = { ...senderEnvelope(1), sender: first.sender };
  const { adapter, acked } = server([first, second]);
  const recordings: PostRecording[] = ["drop"];
  await start(adapter, { recording: () => recordings.shift() ?? "record" });
  await until("posted", () => host.posts.length === 1);
  await pause(200);
  // Nothing new goes while the first post is neither admitted nor in the conversation.
  expect(postedIds()).toEqual(["m-0"]);
  for (let i = 0; i < 4 && acked.length < 2; i += 1) {
    await advance(20_000);
    host.settle();
  }
  await until("both acked", () => acked.length === 2);
  expect(postedIds()).toEqual(["m-0", "m-0", "m-1"]);
  const read = host.socketReads().map((text) => /message-id=\\?"(m-\d+)/.exec(text)?.[1]);
  expect(read).toEqual(["m-0", "m-1"]);
});

test("a post recorded only after its wait is acked once and never posted again", async () => {
  const { adapter, acked } = server([senderEnvelope(0)]);
  await start(adapter, { recording: () => "late" });
  await until("posted", () => host.posts.length === 1);
  // Missing after 10 s with the session idle; the repost waits for the pacer's repeat window.
  await advance(20_000);
  await until("missing", () => log().includes('"post_missing"'));
  host.deliverLate();
  await advance(20_000);
  await advance(20_000);
  await until("acked", () => acked.includes("m-0"));
  await advance(40_000);
  expect(postedIds()).toEqual(["m-0"]);
  expect(host.socketReads()).toHaveLength(1);
  expect(acked).toEqual(["m-0"]);
});

test("a post recorded in the transcript is acked at once, not at the next poll or tick", async () => {
  const { adapter, acked } = server([senderEnvelope(0)]);
  // The tick and the poll are an hour apart: only the transcript's change event can confirm.
  await start(
    adapter,
    { recording: () => "late" },
    {},
    { tickMs: 3_600_000, confirmPollMs: 3_600_000 },
  );
  await until("posted", () => host.posts.length === 1);
  await pause(100);
  expect(acked).toEqual([]);
  host.deliverLate();
  await until("acked", () => acked.includes("m-0"), 5_000);
});
