/**
 * Acked means the model has it, on the real Claude Code (the pinned version; docs/41-watcher.md
 * "Acked means in the conversation", "The gate rule"): the watcher acks a message only after the
 * real client recorded it in the conversation, and never posts into a gate that would hold it for
 * a dialog. The sender is a stand-in session (`brigade send` through its Bash tool); the recipient
 * is the real executable under tmux against a fake Messages API.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, wrap } from "../src/formats/frame/index.ts";
import { openHarnessAdapter } from "../src/harness/adapter/index.ts";
import type { MessageEnvelope } from "../src/protocol/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { type Person, type PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import {
  bash,
  DUMMY_API_KEY,
  FakeMessagesApi,
  type RealClaudeSession,
  RecipientWorld,
  reportOnFailure,
  type SessionOptions,
  say,
  storedMessageIds,
  writeClientConfig,
} from "./support/real-claude/index.ts";

const TEAM = "billing";

describe("acked means in the conversation, on the real Claude Code", () => {
  let pair: RecipientWorld;
  let executable: string;
  let world: PluginWorld;
  let eli: Person;
  let sender: ClaudeCodeHost;
  let danaId: string;

  beforeAll(async () => {
    pair = await RecipientWorld.start(TEAM);
    ({ executable, world, eli, sender, danaId } = pair);
  });

  afterAll(async () => {
    await pair?.close();
  });

  const start = (options: Partial<SessionOptions> = {}) => pair.start(options);
  const unacked = (session: RealClaudeSession) => pair.unacked(session);
  const send = async (to: string, body: string): Promise<MessageEnvelope> =>
    (await pair.send(to, body)).envelope;

  const watcherLog = (session: RealClaudeSession) =>
    readFileSync(join(eli.stateDir, "logs", `watcher-${session.claudePid}.log`), "utf8");

  it("the ack follows the frame into the real client's conversation, never the socket write alone", async () => {
    const eliCc = await start();
    reportOnFailure({ eli: eliCc });
    const to = eliCc.brigadeSessionId();
    const envelope = await send(to, "Column plan_tier is now NOT NULL.");
    const post = wrap(build(envelope, TEAM, { level: "open", custom: "" }), "api");
    await waitFor(async () => (await unacked(eliCc)).length === 0, 60_000, "the ack");
    expect(eliCc.api.requests.some((r) => r.raw.includes(JSON.stringify(post).slice(1, -1)))).toBe(
      true,
    );
    // The watcher saw it in the transcript before it acked.
    const events = watcherLog(eliCc)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; message_id?: string; item?: string })
      .filter((e) => e.message_id === envelope.message_id || e.item === envelope.message_id)
      .map((e) => e.event);
    expect(events).toEqual(["message_offered", "posted", "in_conversation", "ack_sent"]);
  });

  it("a bypassing session: nothing is posted into the dialog; once the person's own settings accept, the next prompt starts the watcher and the message is delivered live and acked", async () => {
    const eliCc = await start({ permissionMode: "bypassPermissions" });
    reportOnFailure({ eli: eliCc });
    const to = eliCc.brigadeSessionId();
    const envelope = await send(to, "Deploy window moved to 14:00.");
    await new Promise((r) => setTimeout(r, 5_000));
    expect(await unacked(eliCc)).toEqual([envelope.message_id]);
    expect(eliCc.claude.pane()).not.toContain("Held peer message");
    expect(eliCc.api.requests.some((r) => r.raw.includes(envelope.message_id))).toBe(false);
    // The person's own choice (as Claude Code's "always deliver" or brigade doctor --fix writes it).
    const settingsPath = join(eliCc.configDir, "settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as Record<string, unknown>;
    writeFileSync(settingsPath, JSON.stringify({ ...settings, crossSessionInbound: "accept" }));
    await eliCc.prompt("Carry on.");
    await waitFor(async () => (await unacked(eliCc)).length === 0, 60_000, "the ack");
    // The ack follows Claude Code's transcript record at once (a change event), which Claude Code
    // writes as it sends the model its request: the request may reach the fake a moment later.
    await waitFor(
      () => eliCc.api.requests.some((r) => r.raw.includes(envelope.message_id)),
      10_000,
      "the model's request with the message",
    );
    // Posted only once Claude Code had taken the setting in: never held.
    expect(eliCc.claude.pane()).not.toContain("Held peer message");
    const events = watcherLog(eliCc);
    expect(events).toContain('"posted"');
  });

  it("a burst over the per-sender window reaches the real model in the order sent, each once", async () => {
    const eliCc = await start();
    reportOnFailure({ eli: eliCc });
    const to = eliCc.brigadeSessionId();
    const before = storedMessageIds(world.dataFile, danaId, to).length;
    const bodies = Array.from({ length: 12 }, (_, n) => `Burst message ${n + 1} of 12.`);
    const script = bodies.map((body) => sendCommand(to, body)).join("\n");
    const run = await sender.runBash(script);
    expect(run.exitCode, run.stderr).toBe(0);
    const ids = storedMessageIds(world.dataFile, danaId, to).slice(before);
    expect(ids).toHaveLength(12);
    // Ten pass the window at once; the other two wait about a minute on the server.
    await waitFor(async () => (await unacked(eliCc)).length === 0, 150_000, "every ack");
    const last = eliCc.api.requests.at(-1)?.raw ?? "";
    const positions = ids.map((id) => last.indexOf(`message-id=\\"${id}\\"`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const id of ids) {
      expect(last.split(`message-id=\\"${id}\\"`).length - 1, id).toBe(1);
    }
    expect(last).toMatch(
      /api sent more than 10 messages within one minute; (\d+ messages were|1 message was) left on the server/,
    );
  }, 180_000);

  it("a headless -p run, busy from start to exit, receives a message between its tool calls; the ack follows it", async () => {
    const api = await FakeMessagesApi.start();
    const dir = mkdtempSync(join(world.root, "p-"));
    const tmp = join(dir, "tmp");
    mkdirSync(tmp, { mode: 0o700 });
    const configDir = join(dir, "config");
    writeClientConfig({
      configDir,
      projectDir: eli.checkout,
      apiKey: DUMMY_API_KEY,
      settings: { permissions: { allow: ["Bash(brigade:*)", "Bash(sleep:*)"] } },
    });
    // The run works through four tool calls of 3 s each, then answers and exits.
    api.script(
      bash("sleep 3", "wait"),
      bash("sleep 3", "wait"),
      bash("sleep 3", "wait"),
      bash("sleep 3", "wait"),
      say("Done."),
    );
    const child = spawn(executable, ["-p", "Work on the task.", "--plugin-dir", world.pluginRoot], {
      cwd: eli.checkout,
      env: {
        ...eli.env,
        TMPDIR: tmp,
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: DUMMY_API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
      },
      stdio: ["ignore", "ignore", "ignore"],
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      const pid = child.pid ?? 0;
      await waitFor(
        () => existsSync(join(eli.stateDir, "sessions", "by-pid", `${pid}.json`)),
        60_000,
        "the -p run's SessionStart",
      );
      const map = world.mapOf(eli, { claudePid: pid });
      const envelope = await send(map.brigade_session_id, "Headless hello.");
      await waitFor(
        () => api.requests.some((r) => r.conversation && r.raw.includes(envelope.message_id)),
        60_000,
        "the message in a model request of the busy run",
      );
      // Taken between tool calls: first read in a request that carries a tool result.
      const conversation = api.requests.filter((r) => r.conversation);
      const readAt = conversation.findIndex((r) => r.raw.includes(envelope.message_id));
      expect(readAt).toBeGreaterThan(0);
      expect(conversation[readAt]?.raw).toContain('"tool_result"');
      const adapter = openHarnessAdapter({ configDir: eli.configDir, teamKey: map.team_key });
      await waitFor(
        async () =>
          !(await adapter.messageReceive(map.brigade_session_id)).messages.some(
            (m) => m.message_id === envelope.message_id,
          ),
        30_000,
        "the ack",
      );
    } finally {
      await exited;
      await api.close();
    }
  }, 150_000);
});
