// The official MCP client SDK drives the built `brigade mcp` over stdio, in both protocol
// generations (the 2025 initialize handshake, and 2026-07-28 pinned), against a real
// `brigade serve`: dana's session is bound the Claude Code way (CLAUDE_CODE_SESSION_ID and the
// by-pid map of the process above the server, this test's own), lee's the Codex way (a
// `_meta.threadId` on each call and the binding file Codex's session hook would write).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ProfileStore } from "../src/adapters/http/index.ts";
import { parse as parseSentinel } from "../src/formats/agent-message/index.ts";
import { build, parse as parseFrame } from "../src/formats/frame/index.ts";
import { sentinelFrame, writeHarnessBinding } from "../src/harness/mcp/index.ts";
import { writeByPidMap } from "../src/harness/state/index.ts";
import type { MessageEnvelope, MessageState } from "../src/protocol/index.ts";
import { type McpPerson, type McpWorld, startMcpWorld } from "./support/mcp-world.ts";
import { ReceiveTrap } from "./support/receive-trap.ts";
import { BUILT_CLI, REPO_ROOT } from "./support/server-process.ts";

const GOLDEN = join(REPO_ROOT, "src", "cli", "mcp", "testdata", "tools-list.json");

const GENERATIONS = [
  { name: "2025 (initialize)", era: "legacy", options: {} },
  {
    name: "2026-07-28",
    era: "modern",
    options: { versionNegotiation: { mode: { pin: "2026-07-28" as const } } },
  },
] as const;

type Generation = (typeof GENERATIONS)[number];

let world: McpWorld;
const THREAD = "th-bravo-5c1e";
const DANA_NATIVE = "cc-alpha-0d9b";

/** Every BRIGADE_* a repository's settings could plant: none may change who calls or where. */
const PLANTED = {
  BRIGADE_CONFIG_DIR: "/nonexistent/planted",
  BRIGADE_SERVER: "http://127.0.0.1:9",
  BRIGADE_PROFILE: "planted",
  BRIGADE_STATE_DIR: "/nonexistent/state",
};

interface Connected {
  readonly client: Client;
  readonly transport: StdioClientTransport;
}

const open: Connected[] = [];

async function connect(generation: Generation, env: Record<string, string>): Promise<Connected> {
  const client = new Client({ name: "brigade-test", version: "1" }, generation.options);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_CLI, "mcp"],
    env: world.env({ ...PLANTED, ...env }),
    stderr: "ignore",
  });
  await client.connect(transport);
  const connected = { client, transport };
  open.push(connected);
  return connected;
}

/** dana: Claude Code's session variable, bound through the by-pid map of this process. */
function asDana(generation: Generation): Promise<Connected> {
  return connect(generation, { CLAUDE_CODE_SESSION_ID: DANA_NATIVE });
}

/** lee: no variable; each call names Codex's thread in `_meta`. */
function asLee(generation: Generation): Promise<Connected> {
  return connect(generation, {});
}

interface ToolText {
  readonly texts: string[];
  readonly isError: boolean;
}

async function call(
  { client }: Connected,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<ToolText> {
  const result = await client.callTool({
    name,
    arguments: args,
    ...(meta === undefined ? {} : { _meta: meta }),
  });
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return {
    texts: content.map((block) => (block.type === "text" ? (block.text ?? "") : `<${block.type}>`)),
    isError: result.isError === true,
  };
}

const lee = (c: Connected, name: string, args: Record<string, unknown> = {}) =>
  call(c, name, args, { threadId: THREAD });

async function stateOf(from: McpPerson, id: string): Promise<MessageState | undefined> {
  const result = await from.adapter.messageState?.(from.sessionId, { message_ids: [id] });
  return result?.messages[0]?.state;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (done(value) || i >= 100) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The one unacknowledged message to lee with this id, as the server stamped it (not acked). */
async function stamped(id: string): Promise<MessageEnvelope> {
  const got = await world.lee.adapter.messageReceive(world.lee.sessionId, { limit: 200 });
  const envelope = got.messages.find((m) => m.message_id === id);
  if (envelope === undefined) throw new Error(`message ${id} is not waiting for lee`);
  return envelope;
}

/** What lee's model must read for `envelope`, byte for byte. */
function expectedText(envelope: MessageEnvelope, server: string): string {
  const map = world.lee.map();
  const frame = build(envelope, map.team_name, { level: map.frame_level, custom: map.frame_text });
  const workspace = `brigade:${world.teamRef}@${new URL(server).host}`;
  return sentinelFrame(frame, envelope.sender.session_id, workspace);
}

function sentId(text: string): string {
  const match = /Sent message (m-[0-9a-f]+) to /.exec(text);
  if (match === null) throw new Error(text);
  return match[1] as string;
}

beforeAll(async () => {
  world = await startMcpWorld();
  // What Claude Code's SessionStart hook writes for the Claude Code process above the server:
  // here, this test process is that process.
  writeByPidMap(
    world.layout,
    world.dana.map({ claude_pid: process.pid, claude_session_id: DANA_NATIVE }),
  );
  // What Codex's session hook would write for its thread.
  writeHarnessBinding(world.layout, "codex", world.lee.map({ claude_session_id: THREAD }));
}, 120_000);

afterAll(async () => {
  for (const { client } of open) await client.close().catch(() => {});
  await world?.close();
});

describe.each(GENERATIONS)("brigade mcp, MCP $name", (generation) => {
  test("tools/list answers the golden's three tools", async () => {
    const dana = await asDana(generation);
    expect(dana.client.getProtocolEra()).toBe(generation.era);
    const listed = await dana.client.listTools();
    const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as { tools: unknown[] };
    expect(listed.tools).toEqual(golden.tools);
  });

  test("who is the session the host names; a forged or unbound identity is refused", async () => {
    const dana = await asDana(generation);
    const roster = await call(dana, "who", { all: true });
    expect(roster.isError).toBe(false);
    const mine = roster.texts[0]?.split("\n").filter((line) => line.endsWith("(this session)"));
    expect(mine).toHaveLength(1);
    expect(mine?.[0]).toContain(world.dana.sessionId);

    const leeClient = await asLee(generation);
    const leeRoster = await lee(leeClient, "who", { all: true });
    const leeMine = leeRoster.texts[0]?.split("\n").filter((l) => l.endsWith("(this session)"));
    expect(leeMine?.[0]).toContain(world.lee.sessionId);

    // The model can only add arguments: a session argument is refused, never read.
    const forged = await call(dana, "inbox", { session_id: world.lee.sessionId });
    expect(forged).toEqual({
      isError: true,
      texts: [expect.stringMatching(/^usage: inbox takes /)],
    });
    const forgedSend = await call(dana, "send", {
      to: world.lee.sessionId,
      body: "hi",
      from: world.lee.sessionId,
    });
    expect(forgedSend.isError).toBe(true);
    expect(forgedSend.texts[0]).toMatch(/^usage: send takes /);

    // A host id without a binding does not fall back to the environment's session.
    const unknown = await call(dana, "who", {}, { threadId: "th-nobody" });
    expect(unknown.isError).toBe(true);
    expect(unknown.texts[0]).toMatch(/^config: host_session_unbound: /);
    const stranger = await connect(generation, { CLAUDE_CODE_SESSION_ID: "cc-nobody" });
    const refused = await call(stranger, "who", {});
    expect(refused.texts[0]).toMatch(/^config: claude_session_unbound: /);
    // No id at all: the map a session hook wrote for the nearest process above the server (this
    // test process) binds, which is dana's.
    const tree = await connect(generation, {});
    const treeRoster = (await call(tree, "who", {})).texts[0] ?? "";
    expect(treeRoster.split("\n").filter((l) => l.endsWith("(this session)"))[0]).toContain(
      world.dana.sessionId,
    );
  });

  test("send → inbox: lee's model reads the server's sentinel and the frame, byte for byte", async () => {
    const dana = await asDana(generation);
    const leeClient = await asLee(generation);
    const body = `Schema bumped (${generation.name}).\nRun the backfill first.`;
    const sent = await call(dana, "send", { to: world.lee.sessionId, body, summary: "Schema" });
    expect(sent.isError).toBe(false);
    const id = sentId(sent.texts[0] as string);
    expect(sent.texts[0]).toContain(`to bravo (${world.lee.sessionId})`);
    expect(sent.texts[0]).toMatch(/State: accepted by the server; /);
    const envelope = await stamped(id);
    expect(await stateOf(world.dana, id)).toBe("accepted");

    const read = await lee(leeClient, "inbox");
    expect(read).toEqual({ isError: false, texts: [expectedText(envelope, world.server.url)] });
    const origin = parseSentinel(read.texts[0] as string);
    expect(origin.origin).toEqual({
      fromSession: world.dana.sessionId,
      workspace: `brigade:${world.teamRef}@${new URL(world.server.url).host}`,
      mode: "injected",
    });
    const frame = parseFrame(origin.text);
    expect(frame.ok && frame.frame.body).toBe(body);
    expect(
      await until(
        () => stateOf(world.dana, id),
        (s) => s === "acked",
      ),
    ).toBe("acked");

    const empty = await lee(leeClient, "inbox");
    expect(empty.texts).toEqual(["Brigade: no new messages for this session."]);
  });

  test("the sender's send reads the state its message reached once the recipient's inbox took it", async () => {
    const dana = await asDana(generation);
    const leeClient = await asLee(generation);
    const waiting = lee(leeClient, "inbox", { wait_s: 30 });
    const sent = await call(dana, "send", {
      to: world.lee.sessionId,
      body: `read while you wait (${generation.name})`,
    });
    const read = await waiting;
    expect(read.texts).toHaveLength(1);
    expect(read.texts[0]).toContain(`read while you wait (${generation.name})`);
    // send waits 3 s for the state: the inbox takes the message within milliseconds, but a
    // loaded machine may stretch that past the wait, and then the sender reads the rest later.
    const id = sentId(sent.texts[0] as string);
    const line = /\nState: (.*)\.\n$/.exec(sent.texts[0] as string)?.[1];
    expect(line).toMatch(/^(in the recipient session's context|accepted by the server; .*)$/);
    expect(
      await until(
        () => stateOf(world.dana, id),
        (s) => s === "acked",
      ),
    ).toBe("acked");
  });

  test("at least once: a crash between fetch and tool result delivers the message again", async () => {
    const trap = await ReceiveTrap.start(world.server.url);
    const profiles = new ProfileStore(world.lee.map().config_dir, world.lee.map().team_key);
    const profile = profiles.readProfile();
    if (profile.kind !== "ok") throw new Error("lee's profile");
    profiles.writeProfile({ ...profile.value, server: trap.url });
    try {
      const dana = await asDana(generation);
      const body = `survives a crash (${generation.name})`;
      const id = sentId(
        (await call(dana, "send", { to: world.lee.sessionId, body })).texts[0] ?? "",
      );
      const doomed = await asLee(generation);
      const pid = doomed.transport.pid;
      const sprung = trap.arm(id, async () => {
        if (pid !== null) process.kill(pid, "SIGKILL");
        await until(
          async () => doomed.transport.pid,
          (p) => p === null,
        );
      });
      await expect(lee(doomed, "inbox")).rejects.toThrow();
      await sprung;
      // Fetched by the server, never returned to a model: not acknowledged.
      expect(await stateOf(world.dana, id)).toBe("accepted");

      const envelope = await stamped(id);
      const again = await asLee(generation);
      const read = await lee(again, "inbox");
      expect(read.texts).toEqual([expectedText(envelope, trap.url)]);
      expect(
        await until(
          () => stateOf(world.dana, id),
          (s) => s === "acked",
        ),
      ).toBe("acked");
    } finally {
      profiles.writeProfile(profile.value);
      await trap.stop();
    }
  });
});
