/**
 * Pacing end to end (issue 4 item 6, docs/spec/claude-code.md §0 item 4): bursts of 100 messages to
 * an idle and to a busy session, through the installed plugin's watcher and the stand-in host's
 * receiver rules (per-sender bucket 30 + 0.5/s, 30 s duplicate filter, 50-post busy queue). Claude
 * Code drops a post it does not admit *after* the write succeeded, when the watcher may already
 * have acked: every post must be admitted, and every message read exactly once.
 *
 * The bucket sets the pace, so this runs in real time: about 25 posts at once, then one every
 * 2.5 s — some four minutes for 100 messages. The two bursts run side by side.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HttpAdapter } from "../src/adapters/http/index.ts";
import { openHarnessAdapter } from "../src/harness/adapter/index.ts";
import { BapError } from "../src/protocol/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { messageIdsIn, type Person, PluginWorld, waitFor } from "./support/plugin-world.ts";

const BURST = 100;
const PRINCIPALS = 4;
const SESSIONS_PER_PRINCIPAL = 6;
/** How long the simulated model takes for one turn. */
const TURN_MS = 1_500;
/** How long the busy session stays in its first turn before it starts taking queued posts. */
const FIRST_TURN_MS = 30_000;

interface Sender {
  readonly adapter: HttpAdapter;
  readonly sessionId: string;
}

let world: PluginWorld;
let eli: Person;
const senders: Sender[] = [];

beforeAll(async () => {
  world = await PluginWorld.start("dana");
  eli = await world.join("eli");
  // The secret file's first line is the secret (the second names the server).
  const secret = (readFileSync(world.secretFile, "utf8").split("\n")[0] ?? "").trim();
  // The server's own limits (20 sends a minute per session, 60 per principal, 15 unacked from one
  // session to one recipient) and the watcher's per-sender bucket (10 a minute) mean a burst of
  // 100 needs many senders: 24 sessions of 4 principals, 12 per recipient.
  for (let p = 0; p < PRINCIPALS; p += 1) {
    const configDir = join(world.root, `sender-${p}`);
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const adapter = new HttpAdapter({
      env: { BRIGADE_CONFIG_DIR: configDir, BRIGADE_SERVER: world.server.url },
    });
    await adapter.teamJoin({ join_secret: secret });
    for (let s = 0; s < SESSIONS_PER_PRINCIPAL; s += 1) {
      const session = await adapter.sessionRegister({
        harness: "burst",
        harness_version: "1",
        session_name: `burst-${p}-${s}`,
        activity: "idle",
        inbound: "accept",
        lease_seconds: 600,
      });
      senders.push({ adapter, sessionId: session.session_id });
    }
  }
}, 120_000);

afterAll(async () => {
  await world?.close();
});

/** Sends `BURST` distinct messages to `recipient` as fast as the server admits them. */
async function burst(recipient: string, from: readonly Sender[]): Promise<string[]> {
  const ids: string[] = [];
  await Promise.all(
    from.map(async (sender, k) => {
      for (let i = k; i < BURST; i += from.length) {
        for (;;) {
          try {
            const sent = await sender.adapter.messageSend({
              sender_session_id: sender.sessionId,
              recipient_session_id: recipient,
              body: `Burst message ${i} of ${BURST}.`,
            });
            ids.push(sent.message_id);
            break;
          } catch (error) {
            if (!(error instanceof BapError) || error.code !== "rate_limited") throw error;
            await new Promise((resolve) =>
              setTimeout(resolve, Math.min(error.retryAfterMs ?? 1_000, 2_000)),
            );
          }
        }
      }
    }),
  );
  return ids;
}

/** A model that ends its turn every `TURN_MS` once `busyUntil` has passed. */
function simulateModel(host: ClaudeCodeHost, busyUntil: number): () => void {
  const timer = setInterval(() => {
    if (Date.now() >= busyUntil && host.status === "busy") host.endTurn();
  }, TURN_MS);
  return () => clearInterval(timer);
}

async function deliverBurst(host: ClaudeCodeHost, from: readonly Sender[]): Promise<void> {
  const recipient = world.mapOf(eli, host).brigade_session_id;
  const sent = await burst(recipient, from);
  expect(new Set(sent).size).toBe(BURST);
  const read = (): string[] => messageIdsIn(host.socketReads());
  await waitFor(() => sent.every((id) => read().includes(id)), 480_000, "every message read");
  // Nothing the host refused, and nothing read twice.
  const outcomes = host.posts.map((post) => post.outcome);
  expect(outcomes.filter((o) => o !== "delivered" && o !== "queued")).toEqual([]);
  expect(host.posts.every((post) => post.authOk)).toBe(true);
  const ids = read();
  expect(ids.length).toBe(new Set(ids).size);
  expect([...ids].sort()).toEqual([...sent].sort());
  // And all of it acknowledged on the server.
  const map = world.mapOf(eli, host);
  const adapter = openHarnessAdapter({ configDir: map.config_dir, teamKey: map.team_key });
  await waitFor(
    async () => (await adapter.messageReceive(recipient)).messages.length === 0,
    15_000,
    "every message acknowledged",
  );
}

it("bursts of 100 to an idle and to a busy session: every post admitted, every message read once", async () => {
  const idle = await world.session(eli, "billing-idle");
  // The deepest the busy turn's queue got: the watcher keeps ≤ 20 posts outstanding while busy.
  // (The bucket alone would allow 12 + 0.4/s × 30 s = 24 in the first turn: this catches a pacer
  // without its outstanding cap, which no drop would show at these timings.)
  let deepest = 0;
  const holder: { host?: ClaudeCodeHost } = {};
  const busy = await world.session(eli, "billing-busy", {
    status: "busy",
    onPost: () => {
      deepest = Math.max(deepest, holder.host?.queued ?? 0);
    },
  });
  holder.host = busy;
  const stopIdle = simulateModel(idle, 0);
  const stopBusy = simulateModel(busy, Date.now() + FIRST_TURN_MS);
  try {
    const half = senders.length / 2;
    await Promise.all([
      deliverBurst(idle, senders.slice(0, half)),
      deliverBurst(busy, senders.slice(half)),
    ]);
  } finally {
    stopIdle();
    stopBusy();
  }
  expect(deepest).toBeGreaterThan(0);
  expect(deepest).toBeLessThanOrEqual(20);
}, 600_000);
