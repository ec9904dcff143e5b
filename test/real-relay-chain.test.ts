/**
 * Issue 22 (section 4)'s cross-harness case on the real clients (pinned versions), through one
 * `brigade serve`: Claude Code → Qwen Code → Codex → OpenCode → Claude Code, one message each
 * hop, each sent with `reply_to` naming the message that hop received. Each client runs with its live push
 * lane, started as a teammate starts it (docs/49-qwen.md, docs/49-codex.md, docs/49-opencode.md
 * "The push lane"); Claude Code is the stand-in session (`ClaudeCodeHost`) whose Bash tool runs
 * the real `brigade send`. Each model's reply is its client's own call of the `send` tool of the
 * `brigade` MCP server, with `to` the next hop and `reply_to` the message-id it just read.
 *
 * The server takes `reply_to` only from the session the replied message was addressed to (its
 * recipient), and lets the reply go to any session of the team (docs/spec/protocol.md §6.12): so
 * every hop forwards to the next session with `reply_to` = the message it received, and the hop
 * count climbs by one a hop. The first hop answers a person's message to Claude Code (hop 0), so
 * every hop of the chain is a reply: hops 1, 2, 3, 4.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { parse as parseSentinel } from "../src/formats/agent-message/index.ts";
import { build } from "../src/formats/frame/index.ts";
import { CodexAppServer, codexClientId } from "../src/harness/codex/index.ts";
import { sentinelFrame } from "../src/harness/mcp/index.ts";
import {
  envelopeHolds,
  QWEN_MCP_BRIDGE,
  qwenConversationFile,
  qwenDeliveredTexts,
  qwenEscapedContent,
} from "../src/harness/qwen/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { type HarnessBinding, harnessBinding } from "./support/harness-binding.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import { storedEnvelope, TmuxClaude } from "./support/real-claude/index.ts";
import { codexExecutable, PINNED_CODEX_VERSION } from "./support/real-codex/codex-executable.ts";
import { type CodexLive, startCodexLive } from "./support/real-codex/codex-person-live.ts";
import {
  decide,
  FakeResponsesApi,
  mcpCall,
  type RecordedResponsesRequest,
  say,
} from "./support/real-codex/fake-responses-api.ts";
import { terminal } from "./support/real-gemini/gemini-person.ts";
import {
  FakeOpenCodeModel,
  type ChatRequest as OpenCodeRequest,
  messageText as openCodeText,
} from "./support/real-opencode/fake-opencode-model.ts";
import {
  openCodeExecutable,
  PINNED_OPENCODE_VERSION,
} from "./support/real-opencode/opencode-executable.ts";
import { type OpenCodeTui, startOpenCodeTui } from "./support/real-opencode/opencode-tui.ts";
import {
  FakeChatApi,
  offeredTools,
  type ChatRequest as QwenRequest,
  messageText as qwenText,
} from "./support/real-qwen/fake-chat-api.ts";
import { lanesGone } from "./support/real-qwen/lanes-gone.ts";
import { PINNED_QWEN_VERSION, qwenScript } from "./support/real-qwen/qwen-executable.ts";
import { closeQwenTui, type QwenTui, startQwenTui } from "./support/real-qwen/qwen-tui.ts";
import { BUILT_CLI } from "./support/server-process.ts";
import { until } from "./support/until.ts";

const TEAM = "billing";
/** The name Qwen Code gives the `send` tool of the MCP server `brigade`. */
const QWEN_SEND = `${QWEN_MCP_BRIDGE.toolPrefix}brigade__send`;
const SEED = "Dana to her Claude Code session: start the relay, pass it round the team.";
const TO_QWEN = "relay hop 1, Claude Code to Qwen Code: the <billing> migration is merged & live.";
const TO_CODEX = "relay hop 2, Qwen Code to Codex: rerun the billing backfill.";
const TO_OPENCODE = "relay hop 3, Codex to OpenCode: the backfill is done, check the report.";
const TO_CLAUDE = "relay hop 4, OpenCode to Claude Code: the report checks out.";

/** The frame's attributes a model read (the first `<brigade-message …>` line of `text`). */
function frameAttributes(text: string): Record<string, string> {
  const line = /<brigade-message ([^\n]*)>\n/.exec(text.replaceAll("&lt;", "<"))?.[1] ?? "";
  return Object.fromEntries([...line.matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/** The message-id of the frame in `text` (what a model answers with `reply_to`). */
const messageIdIn = (text: string): string | undefined => frameAttributes(text)["message-id"];

/** The message id `brigade send` (CLI or the MCP tool) reported in `text`. */
const sentId = (text: string): string | undefined => /Sent message (m-[0-9a-f]+)/.exec(text)?.[1];

describe.sequential("the relay: Claude Code → Qwen Code → Codex → OpenCode → Claude Code", () => {
  let world: PluginWorld;
  let dana: Person;
  let lee: Person;
  let eli: Person;
  let kim: Person;
  let danaCc: ClaudeCodeHost;
  let qwenApi: FakeChatApi;
  let codexApi: FakeResponsesApi;
  let openCodeModel: FakeOpenCodeModel;
  let qwen: QwenTui | undefined;
  let codex: CodexLive | undefined;
  let openCode: OpenCodeTui | undefined;
  let dir: string;
  let ccId: string;
  let qwenBinding: HarnessBinding;
  let codexId: string;
  let openCodeBinding: HarnessBinding;

  beforeAll(async () => {
    const [qwenCli, codexCli, openCodeCli] = await Promise.all([
      qwenScript(PINNED_QWEN_VERSION),
      codexExecutable(PINNED_CODEX_VERSION),
      openCodeExecutable(PINNED_OPENCODE_VERSION),
    ]);
    world = await PluginWorld.start("dana", TEAM);
    dana = world.founder;
    lee = await world.join("lee");
    eli = await world.join("eli");
    kim = await world.join("kim");
    danaCc = await world.session(dana, "api");
    ccId = world.mapOf(dana, danaCc).brigade_session_id;
    for (const [who, harness] of [
      [lee, "qwen"],
      [kim, "opencode"],
    ] as const) {
      const installed = await terminal(who, ["install", harness]);
      if (installed.code !== 0) throw new Error(`brigade install ${harness}: ${installed.stderr}`);
    }
    [qwenApi, codexApi, openCodeModel] = await Promise.all([
      FakeChatApi.start(),
      FakeResponsesApi.start(),
      FakeOpenCodeModel.start(),
    ]);
    dir = mkdtempSync(join(tmpdir(), "relay-"));
    for (const name of ["dana", "qwen", "codex", "opencode"]) mkdirSync(join(dir, name));
    // Lee's Qwen Code: the controller token handed to Brigade the documented way; Lee lets the
    // model run tools without asking (the approval prompt is Qwen Code's, not under test).
    qwen = await startQwenTui(qwenCli, join(dir, "qwen"), qwenApi, {
      home: lee.home,
      project: lee.checkout,
      env: lee.env,
      approvalMode: "yolo",
      beforeStart: async (token) => {
        const kept = await terminal(lee, ["qwen", "token"], `${token}\n`);
        if (kept.code !== 0) throw new Error(`brigade qwen token: ${kept.stderr}`);
      },
    });
    codex = await startCodexLive(codexCli, eli, codexApi, join(dir, "codex"));
    codexId = codex.binding.brigade;
    // Kim's OpenCode with --port: its first message binds the session and opens the push lane.
    openCode = await startOpenCodeTui(openCodeCli, join(dir, "opencode"), openCodeModel, {
      home: kim.home,
      project: kim.checkout,
      env: kim.env,
    });
    await openCode.tmux.type("hello");
    await openCode.tmux.keys("Enter");
    await waitFor(() => openCodeModel.requests().length > 0, 60_000, "OpenCode's first request");
    await waitFor(() => harnessBinding(lee, "qwen") !== undefined, 30_000, "Lee's binding");
    await waitFor(() => harnessBinding(kim, "opencode") !== undefined, 60_000, "Kim's binding");
    qwenBinding = harnessBinding(lee, "qwen") as HarnessBinding;
    openCodeBinding = harnessBinding(kim, "opencode") as HarnessBinding;
    const tui = openCode;
    await until(
      "OpenCode idle",
      async () => JSON.stringify(await tui.get("/session/status")) === "{}",
      60_000,
      500,
    );
    // Every door is open before the relay starts: teammates see each session as push.
    const pushed = [qwenBinding.brigade_session_id, codexId, openCodeBinding.brigade_session_id];
    await until(
      "the three lanes push",
      async () => {
        const json = JSON.parse((await danaCc.runBash("brigade sessions --json")).stdout) as {
          sessions: { session_id: string; lane: string }[];
        };
        const lanes = new Map(json.sessions.map((s) => [s.session_id, s.lane]));
        return pushed.every((id) => lanes.get(id) === "push");
      },
      60_000,
      500,
    );
  }, 600_000);

  afterAll(async () => {
    await closeQwenTui(qwen);
    await codex?.close();
    await openCode?.tmux.close();
    for (const who of [lee, eli, kim]) if (who !== undefined) await lanesGone(who.stateDir);
    await qwenApi?.close();
    await codexApi?.close();
    await openCodeModel?.close();
    await world?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach((context) => {
    context.onTestFailed(() => {
      const lastQwen = qwenApi?.requests().at(-1);
      console.error(
        [
          `Qwen Code:\n${qwen?.tmux.pane() ?? ""}`,
          `Qwen Code's last request offered: ${lastQwen === undefined ? "-" : offeredTools(lastQwen).join(", ")}; its last message: ${JSON.stringify(lastQwen?.messages.at(-1) ?? null).slice(0, 2000)}`,
          `Codex:\n${codex?.tmux.pane() ?? ""}`,
          `OpenCode:\n${openCode?.tmux.pane() ?? ""}`,
        ].join("\n"),
      );
    });
  });

  /** The sentinel + frame a model of this team reads for stored message `id`. */
  function expectedText(id: string): string {
    const envelope = storedEnvelope(world.dataFile, id);
    if (envelope === undefined) throw new Error(`no stored message ${id}`);
    const frame = build(envelope, TEAM, { level: "open", custom: "" });
    const workspace = `brigade:${qwenBinding.team_ref}@${new URL(world.server.url).host}`;
    return sentinelFrame(frame, envelope.sender.session_id, workspace);
  }

  /** The state of message `id` in its sender's own `brigade sent` (a session's, or a person's). */
  async function sentState(sender: Person | ClaudeCodeHost, id: string): Promise<string> {
    const run =
      "runBash" in sender
        ? await sender.runBash("brigade sent --json --limit 50").then((r) => r.stdout)
        : (await terminal(sender, ["sent", "--json", "--limit", "50"])).stdout;
    const rows = (JSON.parse(run) as { messages: { message_id: string; state: string }[] })
      .messages;
    return rows.find((row) => row.message_id === id)?.state ?? "(not listed)";
  }

  async function acked(sender: Person | ClaudeCodeHost, id: string, what: string): Promise<void> {
    await until(what, async () => (await sentState(sender, id)) === "acked", 30_000, 500);
  }

  /** The hop's frame as the server stored it: sender, hop count and the message it answers. */
  function expectHop(text: string, id: string, from: string, hops: number, inReplyTo: string) {
    expect(frameAttributes(text)).toMatchObject({
      "message-id": id,
      "reply-to-session-id": from,
      hops: String(hops),
      "in-reply-to": inReplyTo,
    });
    expect(storedEnvelope(world.dataFile, id)).toMatchObject({
      sender: { session_id: from },
      hop_count: hops,
      reply_to: inReplyTo,
    });
  }

  test("one message a hop, each a reply to the one received: the sentinel, frame, hops and in-reply-to right at every hop, each acked once in the recipient's own record", async () => {
    const qwenId = qwenBinding.brigade_session_id;
    const openCodeId = openCodeBinding.brigade_session_id;
    // Each model answers what it reads by calling its client's `send` tool of the `brigade` MCP
    // server, naming the message-id of the frame it read as `reply_to`.
    // Qwen Code 0.24.4 offers MCP tools only behind its deferred-tool bridge: the model reviews the
    // schema with `tool_search`, then calls the tool through `tool_call`.
    let qwenStep: "idle" | "searched" | "called" = "idle";
    let replyTo: string | undefined;
    qwenApi.callTool = (request: QwenRequest) => {
      const last = request.messages.at(-1);
      const read = qwenText(last);
      if (qwenStep === "idle" && last?.role === "user" && read.includes("relay hop 1")) {
        replyTo = messageIdIn(read);
        qwenStep = "searched";
        return { name: QWEN_MCP_BRIDGE.search, args: { query: `select:${QWEN_SEND}` } };
      }
      if (qwenStep === "searched" && last?.role === "tool") {
        qwenStep = "called";
        const args = { to: codexId, body: TO_CODEX, reply_to: replyTo };
        return { name: QWEN_MCP_BRIDGE.call, args: { name: QWEN_SEND, arguments: args } };
      }
      return undefined;
    };
    const userTexts = (r: RecordedResponsesRequest): string[] =>
      r.texts.filter((t) => t.place === "user").map((t) => t.text);
    codexApi.script(
      decide((request) =>
        mcpCall("brigade", "send", {
          to: openCodeId,
          body: TO_OPENCODE,
          reply_to: messageIdIn(userTexts(request).at(-1) ?? ""),
        }),
      ),
      say("Sent."),
    );
    openCodeModel.callTool = "brigade_send";
    openCodeModel.callArgs = (request: OpenCodeRequest) => ({
      to: ccId,
      body: TO_CLAUDE,
      reply_to: messageIdIn(openCodeText(request.messages.at(-1))),
    });

    // Hop 0: Dana, in her own terminal (`--as-me` wants one), writes to her Claude Code session.
    const danaTerminal = await TmuxClaude.start({
      executable: process.execPath,
      args: [BUILT_CLI, "send", "--as-me", ccId, SEED],
      cwd: dana.checkout,
      env: dana.env,
      dir: join(dir, "dana"),
    });
    try {
      // The last line `brigade send --as-me` prints once the server took the message.
      await danaTerminal.waitForPane(
        "brigade sent shows what becomes of it.",
        30_000,
        "Dana's send",
      );
    } finally {
      await danaTerminal.close();
    }
    const readByCc = (needle: string): string[] => {
      danaCc.settle();
      return danaCc.socketReads().filter((read) => read.includes(needle));
    };
    await waitFor(() => readByCc(SEED).length > 0, 30_000, "Dana's message in Claude Code");
    const seedId = messageIdIn(readByCc(SEED)[0] ?? "") ?? "";
    expect(storedEnvelope(world.dataFile, seedId)?.hop_count).toBe(0);

    // Hop 1: Claude Code → Qwen Code, `brigade send --reply-to` in its Bash tool.
    const qwenFrom = qwenApi.requests().length;
    const run = await danaCc.runBash(sendCommand(qwenId, TO_QWEN, ` --reply-to ${seedId}`));
    expect(run.exitCode, run.stderr).toBe(0);
    const m1 = sentId(run.stdout) ?? "";
    const qwenRead = (): string | undefined =>
      qwenApi
        .requests()
        .slice(qwenFrom)
        .map((r) => qwenText(r.messages.at(-1)))
        .find((t) => t.includes(`message-id="${m1}"`));
    await waitFor(() => qwenRead() !== undefined, 60_000, "Qwen Code's model reading hop 1");
    const hop1 = qwenRead() ?? "";
    const expected1 = expectedText(m1);
    const opening = /<cross_session_message [^\n]*>\n/.exec(hop1);
    const start = (opening?.index ?? 0) + (opening?.[0].length ?? 0);
    const inside = hop1.slice(start, hop1.indexOf("\n</cross_session_message>", start));
    // Byte for byte under Qwen Code's one substitution (every `<` written `&lt;`).
    expect(inside).toBe(qwenEscapedContent(expected1));
    expect(parseSentinel(inside.replaceAll("&lt;", "<")).origin).toMatchObject({
      fromSession: ccId,
    });
    expectHop(hop1, m1, ccId, 1, seedId);
    await acked(danaCc, m1, "Claude Code sees hop 1 acked");
    const qwenFile = qwenConversationFile(qwen?.qwenHome ?? "", qwen?.record.sessionId ?? "");
    const qwenRecord = qwenFile === undefined ? [] : qwenDeliveredTexts(qwenFile);
    expect(qwenRecord.filter((t) => envelopeHolds(t, expected1))).toHaveLength(1);

    // Hop 2: Qwen Code's model → Codex, through its `send` tool; the tool's answer names the id.
    const sentByQwen = (): boolean =>
      qwenApi
        .requests()
        .some(
          (r) =>
            r.messages.at(-1)?.role === "tool" && sentId(qwenText(r.messages.at(-1))) !== undefined,
        );
    await waitFor(sentByQwen, 60_000, "Qwen Code's request after its send tool");
    // The request offered the bridge, not the MCP tool; the schema it returned names the tool.
    const woken = qwenApi
      .requests()
      .find((r) => qwenText(r.messages.at(-1)).includes(`message-id="${m1}"`));
    expect(offeredTools(woken as QwenRequest)).toEqual(
      expect.arrayContaining([QWEN_MCP_BRIDGE.search, QWEN_MCP_BRIDGE.call]),
    );
    expect(offeredTools(woken as QwenRequest)).not.toContain(QWEN_SEND);
    expect(
      qwenApi
        .requests()
        .map((r) => qwenText(r.messages.at(-1)))
        .some((t) => t.includes(`"${QWEN_SEND}"`) || t.includes(`<name>${QWEN_SEND}</name>`)),
    ).toBe(true);
    const toolResult = qwenApi
      .requests()
      .map((r) => r.messages.at(-1))
      .find((m) => m?.role === "tool" && sentId(qwenText(m)) !== undefined);
    const m2 = sentId(qwenText(toolResult)) ?? "";
    expect(m2, qwenText(toolResult)).toMatch(/^m-/);
    const expected2 = expectedText(m2);
    const codexRequest = await codexApi.waitForRequest(
      (r) => userTexts(r).includes(expected2),
      60_000,
      "Codex's model reading hop 2",
    );
    expect(userTexts(codexRequest).at(-1)).toBe(expected2);
    expect(parseSentinel(expected2).origin).toMatchObject({ fromSession: qwenId });
    expectHop(expected2, m2, qwenId, 2, m1);
    await acked(lee, m2, "Qwen Code's person sees hop 2 acked");
    const opened = await CodexAppServer.open(codex?.socketPath ?? "", "brigade-test-observer");
    if (!opened.ok) throw new Error(opened.reason);
    try {
      const turns = await opened.server.call("thread/turns/list", {
        threadId: codex?.binding.thread,
        limit: 10,
        itemsView: "full",
      });
      if (!turns.ok) throw new Error(turns.reason);
      const record = JSON.stringify(turns.result.data);
      expect(record.split(JSON.stringify(codexClientId(m2))).length - 1).toBe(1);
    } finally {
      opened.server.close();
    }

    // Hop 3: Codex's model → OpenCode, through its `send` tool.
    const codexOutput = await codexApi.waitForRequest(
      (r) => r.texts.some((t) => t.place === "output" && sentId(t.text) !== undefined),
      60_000,
      "Codex's request after its send tool",
    );
    const m3 =
      sentId(codexOutput.texts.find((t) => t.place === "output" && sentId(t.text))?.text ?? "") ??
      "";
    const expected3 = expectedText(m3);
    const openCodeRead = (): string | undefined =>
      openCodeModel
        .requests()
        .map((r) => openCodeText([...r.messages].reverse().find((m) => m.role === "user")))
        .find((t) => t.includes(`message-id="${m3}"`));
    await waitFor(() => openCodeRead() !== undefined, 60_000, "OpenCode's model reading hop 3");
    expect(openCodeRead()).toBe(expected3);
    expect(parseSentinel(expected3).origin).toMatchObject({ fromSession: codexId });
    expectHop(expected3, m3, codexId, 3, m2);
    await acked(eli, m3, "Codex's person sees hop 3 acked");
    const tui = openCode as OpenCodeTui;
    const stored = (await tui.get(`/session/${openCodeBinding.claude_session_id}/message`)) as {
      info: { role: string };
      parts: { type: string; text?: string }[];
    }[];
    const copies = stored
      .filter((m) => m.info.role === "user")
      .flatMap((m) => m.parts)
      .filter((p) => p.type === "text" && p.text === expected3);
    expect(copies).toHaveLength(1);

    // Hop 4: OpenCode's model → Claude Code, through its `brigade_send` tool.
    await waitFor(() => readByCc(TO_CLAUDE).length > 0, 60_000, "Claude Code reading hop 4");
    const hop4 = readByCc(TO_CLAUDE);
    expect(hop4).toHaveLength(1);
    const m4 = messageIdIn(hop4[0] ?? "") ?? "";
    const envelope4 = storedEnvelope(world.dataFile, m4);
    expect(envelope4?.body).toBe(TO_CLAUDE);
    // Claude Code reads the frame itself (no sentinel): the session the server stamped is its
    // reply-to-session-id.
    expect(hop4[0]).toContain(
      build(envelope4 as NonNullable<typeof envelope4>, TEAM, { level: "open", custom: "" }),
    );
    expectHop(hop4[0] ?? "", m4, openCodeId, 4, m3);
    await acked(kim, m4, "OpenCode's person sees hop 4 acked");
    // Every message of the relay was read once by its recipient's model.
    expect(readByCc(SEED)).toHaveLength(1);
  }, 300_000);
});
