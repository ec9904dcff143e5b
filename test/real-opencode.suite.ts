// The real OpenCode (docs/49-opencode.md "Proof on the real client"), one version per test file:
// its TUI under tmux with --port, against a loopback fake of the OpenAI-compatible chat API.
// The door suite drives Brigade's OpenCodeDoor over the shared pipeline and pacer into a live
// session; the pull-lane suite runs `brigade install opencode` in a teammate's terminal and a real
// `brigade serve`, with a stand-in Claude Code session of dana's as the sender.

import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { build } from "../src/formats/frame/index.ts";
import { InboundPipeline } from "../src/harness/inbound/index.ts";
import { sentinelFrame } from "../src/harness/mcp/index.ts";
import {
  type OpenCodeDoor,
  openCodeDoorAddress,
  openOpenCodeDoor,
  readOpenCodeDoorAddress,
} from "../src/harness/opencode/index.ts";
import { InjectionPacer, PACER_LIMITS } from "../src/harness/pacing/index.ts";
import { asMeProbe, sentAsPerson } from "./support/as-me-probe.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { doorEnvelope } from "./support/door-envelope.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import { storedEnvelope } from "./support/real-claude/stored-envelope.ts";
import { terminal } from "./support/real-gemini/gemini-person.ts";
import {
  type ChatRequest,
  FakeOpenCodeModel,
  messageText,
} from "./support/real-opencode/fake-opencode-model.ts";
import { openCodeExecutable } from "./support/real-opencode/opencode-executable.ts";
import { type OpenCodeTui, startOpenCodeTui } from "./support/real-opencode/opencode-tui.ts";
import { until } from "./support/until.ts";

/** Which OpenCode a test file runs: its label and how its version is found. */
export interface OpenCodeChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

const WORKSPACE = "brigade:t-opencode@127.0.0.1";

/** One stored message of `GET /session/{id}/message`. */
interface StoredMessage {
  readonly info: { readonly id: string; readonly role: string };
  readonly parts: readonly { readonly type: string; readonly text?: string }[];
}

/** The last user message's text of a request (what the model reads last). */
const lastUser = (r: ChatRequest): string =>
  messageText([...r.messages].reverse().find((m) => m.role === "user"));

/**
 * Waits on a check that calls OpenCode's server (or spawns a command) every half second, not
 * every 50 ms: each poll costs both processes CPU on a shared machine.
 */
async function poll(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  await until(what, check, ms, 500);
}

/** The text of a request's system messages, joined. */
const systemText = (r: ChatRequest): string =>
  r.messages
    .filter((m) => m.role === "system")
    .map((m) => messageText(m))
    .join("\n");

/** Registers the door suite for one OpenCode version (a test file per version). */
export function openCodeDoorSuite({ which, version: resolveVersion }: OpenCodeChoice): void {
  describe(`the real OpenCode, ${which} version: Brigade's door into a live TUI session`, () => {
    let dir: string;
    let model: FakeOpenCodeModel;
    let tui: OpenCodeTui;
    let sessionId: string;
    /** Every message acked, with the text posted: what OpenCode's record must hold once. */
    const acked = new Map<string, string>();

    beforeAll(async () => {
      const executable = await openCodeExecutable(await resolveVersion());
      dir = mkdtempSync(join(tmpdir(), "oc-door-"));
      model = await FakeOpenCodeModel.start();
      tui = await startOpenCodeTui(executable, dir, model);
      // The person's first prompt makes the session.
      await tui.tmux.type("hello");
      await tui.tmux.keys("Enter");
      await waitFor(() => model.requests().length >= 1, 60_000, "the first request");
      const sessions = (await tui.get("/session")) as { id: string }[];
      sessionId = sessions[0]?.id ?? "";
      await poll(
        "idle",
        async () => JSON.stringify(await tui.get("/session/status")) === "{}",
        30_000,
      );
    }, 600_000);

    afterAll(async () => {
      await tui?.tmux.close();
      await model?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    beforeEach((context) => {
      context.onTestFailed(() => console.error(`OpenCode's screen:\n${tui?.tmux.pane() ?? ""}`));
    });

    async function stored(): Promise<StoredMessage[]> {
      return (await tui.get(`/session/${sessionId}/message`)) as StoredMessage[];
    }

    /** How many text parts of OpenCode's stored user messages are exactly `text`. */
    async function timesStored(text: string): Promise<number> {
      return (await stored())
        .filter((m) => m.info.role === "user")
        .flatMap((m) => m.parts)
        .filter((p) => p.type === "text" && p.text === text).length;
    }

    afterEach(async () => {
      // After every case: each message acked is in OpenCode's own record, exactly once.
      for (const text of acked.values()) expect(await timesStored(text)).toBe(1);
    });

    /** Brigade's door into the TUI's session: the shared pipeline and pacer, sentinel + frame. */
    function brigadeDoor(clock: () => number = Date.now) {
      const pipeline = new InboundPipeline({
        now: clock,
        hashBody: (body) => createHash("sha256").update(body, "utf8").digest("hex"),
        seen: { has: () => false, add: () => {} },
        policy: "accept",
        teamName: "billing",
        instruction: { level: "open", custom: "" },
        delivery: "poll",
      });
      const acks: string[] = [];
      const texts = new Map<string, string>();
      const address = openCodeDoorAddress(sessionId, `${tui.origin}/`, tui.tmux.pid);
      if (address === undefined) throw new Error("the TUI's server is not its own process's");
      const door = openOpenCodeDoor(
        {
          pipeline,
          // These messages carry no files.
          settleFiles: async () => "none",
          pacer: new InjectionPacer({ now: Date.now(), limits: PACER_LIMITS }),
          textOf: (item) => {
            const text = sentinelFrame(item.frame, item.message.sender.session_id, WORKSPACE);
            texts.set(item.message.message_id, text);
            return text;
          },
          report: () => {
            throw new Error("OpenCode holds nothing for review");
          },
          ack: (id) => {
            acks.push(id);
            acked.set(id, texts.get(id) ?? "");
          },
          log: () => {},
          now: Date.now,
        },
        address,
        {},
      ) as OpenCodeDoor;
      return { pipeline, door, acks, texts };
    }

    test("the door trusts the server URL only for the OpenCode process listening there", () => {
      expect(openCodeDoorAddress(sessionId, `${tui.origin}/`, tui.tmux.pid)).toEqual({
        session_id: sessionId,
        server_url: tui.origin,
        host_pid: tui.tmux.pid,
      });
      expect(openCodeDoorAddress(sessionId, `${tui.origin}/`, process.pid)).toBeUndefined();
      // The placeholder a TUI without --port hands its plugins.
      expect(
        openCodeDoorAddress(sessionId, "http://localhost:4096/", tui.tmux.pid),
      ).toBeUndefined();
    });

    test("an idle session is woken: the model's next request holds the sentinel + frame byte for byte, acked once stored", async () => {
      const b = brigadeDoor();
      const id = `m-${which}-wake`;
      b.pipeline.offer(doorEnvelope(id, `wake ${which}: run <the backfill> & report`));
      const before = model.requests().length;
      expect(await b.door.step()).toBe("posted");
      const text = b.texts.get(id) ?? "";
      expect(text.startsWith("<!-- lsp:agent-message-v1 ")).toBe(true);
      await waitFor(() => model.requests().length > before, 60_000, "the woken turn's request");
      expect(lastUser(model.requests()[before] as ChatRequest)).toBe(text);
      await poll(
        "the ack",
        async () => {
          await b.door.confirm();
          return b.acks.length === 1;
        },
        30_000,
      );
      expect(b.acks).toEqual([id]);
      expect(await timesStored(text)).toBe(1);
    }, 120_000);

    test("a message during a busy turn arrives after the turn, once", async () => {
      const b = brigadeDoor();
      model.hold = true;
      const before = model.requests().length;
      await tui.tmux.type(`busy turn ${which}`);
      await tui.tmux.keys("Enter");
      await waitFor(() => model.heldCount() === 1, 60_000, "the busy turn's request");
      const id = `m-${which}-busy`;
      b.pipeline.offer(doorEnvelope(id, `during the turn ${which}`));
      expect(await b.door.step()).toBe("posted");
      const text = b.texts.get(id) ?? "";
      await poll(
        "the ack",
        async () => {
          await b.door.confirm();
          return b.acks.length === 1;
        },
        30_000,
      );
      expect(JSON.stringify(model.requests()[before]?.messages)).not.toContain(
        `during the turn ${which}`,
      );
      model.release();
      await waitFor(
        () =>
          model
            .requests()
            .slice(before + 1)
            .some((r) => lastUser(r) === text),
        60_000,
        "the request after the turn",
      );
      const after = model
        .requests()
        .slice(before + 1)
        .find((r) => lastUser(r) === text);
      const held = JSON.stringify(after?.messages ?? []);
      expect(held.indexOf(`busy turn ${which}`)).toBeGreaterThan(-1);
      expect(held.indexOf(`busy turn ${which}`)).toBeLessThan(
        held.indexOf(`during the turn ${which}`),
      );
      expect(held.split(`during the turn ${which}`).length - 1).toBe(1);
    }, 120_000);

    test("a burst of 15 from one sender: stored and read in order, each once, each acked once stored", async () => {
      // Brigade's own inbound rule admits 10 per sender a minute (INBOUND_LIMITS.senderLimit):
      // the pipeline's clock moves past that window before the last five, so all 15 are a burst
      // at the door, which is what is under test.
      let skew = 0;
      const b = brigadeDoor(() => Date.now() + skew);
      const ids = Array.from(
        { length: 15 },
        (_, i) => `m-${which}-b${String(i + 1).padStart(2, "0")}`,
      );
      for (const [i, id] of ids.entries()) {
        if (i === 10) skew = 61_000;
        expect(b.pipeline.offer(doorEnvelope(id, `burst ${which} ${i + 1} of 15`)).outcome).toBe(
          "queued",
        );
      }
      const before = model.requests().length;
      for (let i = 0; i < 15; i += 1) expect(await b.door.step()).toBe("posted");
      await poll(
        "fifteen acks",
        async () => {
          await b.door.confirm();
          return b.acks.length === 15;
        },
        60_000,
      );
      expect(b.acks).toEqual(ids);
      const order = (await stored())
        .filter((m) => m.info.role === "user")
        .flatMap((m) => m.parts.map((p) => /burst \S+ (\d+) of 15/.exec(p.text ?? "")?.[1]))
        .filter((n): n is string => n !== undefined);
      expect(order).toEqual(Array.from({ length: 15 }, (_, i) => String(i + 1)));
      await poll(
        "the model's request with the fifteenth",
        async () =>
          JSON.stringify(await tui.get("/session/status")) === "{}" &&
          model
            .requests()
            .slice(before)
            .some((r) => lastUser(r).includes(`burst ${which} 15 of 15`)),
        90_000,
      );
      const last = model.requests().at(-1) as ChatRequest;
      const read = last.messages
        .filter((m) => m.role === "user")
        .map((m) => /burst \S+ (\d+) of 15/.exec(messageText(m))?.[1])
        .filter((n): n is string => n !== undefined);
      expect(read).toEqual(Array.from({ length: 15 }, (_, i) => String(i + 1)));
    }, 180_000);
  });
}

/**
 * Registers the plugin suite for one OpenCode version: `brigade install opencode` in a teammate's
 * terminal and a real `brigade serve`, then the real TUI in the team's checkout twice: started
 * plainly (it listens nowhere: the pull lane, the model reads with `brigade_inbox`), then with
 * `--port` (the session start writes the door address and starts the push lane: a teammate's
 * message reaches the idle session's model with no prompt).
 */
export function openCodePluginSuite({ which, version: resolveVersion }: OpenCodeChoice): void {
  describe(`the real OpenCode, ${which} version: brigade install opencode`, () => {
    let world: PluginWorld;
    let lee: Person;
    let danaCc: ClaudeCodeHost;
    let model: FakeOpenCodeModel;
    let executable: string;
    let version: string;
    const tuis: OpenCodeTui[] = [];
    const dirs: string[] = [];
    /** The push lane's TUI, left open by its case for the next. */
    let pushTui: OpenCodeTui | undefined;

    beforeAll(async () => {
      version = await resolveVersion();
      executable = await openCodeExecutable(version);
      world = await PluginWorld.start("dana", "billing");
      lee = await world.join("lee");
      danaCc = await world.session(world.founder, "api");
      const installed = await terminal(lee, ["install", "opencode"]);
      if (installed.code !== 0) throw new Error(`brigade install opencode: ${installed.stderr}`);
      model = await FakeOpenCodeModel.start();
    }, 600_000);

    afterAll(async () => {
      for (const tui of tuis) await tui.tmux.close();
      await model?.close();
      await world?.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    beforeEach((context) => {
      context.onTestFailed(() =>
        console.error(`OpenCode's screen:\n${tuis.at(-1)?.tmux.pane() ?? ""}`),
      );
    });

    /** Lee's TUI in his checkout; `unreachable`: without `--port`. */
    async function leeTui(unreachable: boolean): Promise<OpenCodeTui> {
      const dir = mkdtempSync(join(tmpdir(), "oc-plugin-"));
      dirs.push(dir);
      const tui = await startOpenCodeTui(executable, dir, model, {
        home: lee.home,
        project: lee.checkout,
        env: lee.env,
        unreachable,
      });
      tuis.push(tui);
      return tui;
    }

    interface Binding {
      readonly claude_pid: number;
      readonly claude_session_id: string;
      readonly brigade_session_id: string;
      readonly team_name: string;
      readonly team_ref: string;
      readonly harness_version: string;
      readonly session_name: string;
    }

    /** The binding file the session start of OpenCode process `pid` wrote. */
    async function bindingOf(pid: number): Promise<Binding> {
      const folder = join(lee.stateDir, "sessions", "by-harness", "opencode");
      let found: Binding | undefined;
      await waitFor(
        () => {
          try {
            for (const name of readdirSync(folder)) {
              const b = JSON.parse(readFileSync(join(folder, name), "utf8")) as Binding;
              if (b.claude_pid === pid) found = b;
            }
          } catch {
            // not written yet
          }
          return found !== undefined;
        },
        30_000,
        "the binding file",
      );
      return found as Binding;
    }

    /** What lee's model must read for a stored message: the sentinel, then the frame. */
    function expectedText(messageId: string, binding: Binding): string {
      const stored = storedEnvelope(world.dataFile, messageId);
      if (stored === undefined) throw new Error(`no stored message ${messageId}`);
      const frame = build(stored, binding.team_name, { level: "open", custom: "" });
      const workspace = `brigade:${binding.team_ref}@${new URL(world.server.url).host}`;
      return sentinelFrame(frame, stored.sender.session_id, workspace);
    }

    async function sentState(id: string): Promise<string | undefined> {
      const run = await danaCc.runBash("brigade sent --json --limit 50");
      const rows = (JSON.parse(run.stdout) as { messages: { message_id: string; state: string }[] })
        .messages;
      return rows.find((row) => row.message_id === id)?.state;
    }

    async function send(brigadeId: string, body: string): Promise<string> {
      const sent = await danaCc.runBash(sendCommand(brigadeId, body));
      expect(sent.exitCode, sent.stderr).toBe(0);
      const messageId = /Sent message (m-[0-9a-f]+)/.exec(sent.stdout)?.[1];
      if (messageId === undefined) throw new Error(sent.stdout);
      return messageId;
    }

    test("a TUI that listens nowhere: the first message binds the session, no push lane; the inbox tool reads a teammate's message byte for byte, acked after", async () => {
      const tui = await leeTui(true);
      const before = model.requests().length;
      await tui.tmux.type("hello");
      await tui.tmux.keys("Enter");
      await waitFor(() => model.requests().length > before, 60_000, "the first request");
      const binding = await bindingOf(tui.tmux.pid);
      // Bound to the OpenCode process, with the version the plugin read from the session.
      expect(binding.harness_version).toBe(version);
      expect(binding.session_name).toBe("billing-opencode");
      const first = model.requests()[before] as ChatRequest;
      // OpenCode joins what plugins add to the system prompt into its second system message.
      expect(systemText(first)).toContain("Brigade: this session is");
      expect((first.tools ?? []).map((t) => t.function.name)).toContain("brigade_inbox");
      // Nothing listens: no door address, no push lane.
      const uid = process.getuid?.() ?? 0;
      expect(readOpenCodeDoorAddress(lee.env, binding.claude_session_id, uid)).toBeUndefined();
      expect(existsSync(join(lee.stateDir, "watchers", `${tui.tmux.pid}.json`))).toBe(false);
      const messageId = await send(
        binding.brigade_session_id,
        `pull ${which}: rerun <the migration> & report`,
      );
      const turnAt = model.requests().length;
      model.callTool = "brigade_inbox";
      await tui.tmux.type("what is new?");
      await tui.tmux.keys("Enter");
      await waitFor(
        () =>
          model
            .requests()
            .slice(turnAt)
            .some((r) => r.messages.at(-1)?.role === "tool"),
        60_000,
        "the request after the inbox tool",
      );
      expect(systemText(model.requests()[turnAt] as ChatRequest)).toContain(
        "1 message from teammates",
      );
      const withTool = model
        .requests()
        .slice(turnAt)
        .find((r) => r.messages.at(-1)?.role === "tool");
      expect(messageText(withTool?.messages.at(-1))).toContain(expectedText(messageId, binding));
      await poll("dana sees acked", async () => (await sentState(messageId)) === "acked", 30_000);
      await tui.tmux.close();
    }, 180_000);

    test("a TUI started with --port: its session start opens the push lane, and a teammate's message wakes the idle session with no prompt, byte for byte, acked once OpenCode stores it", async () => {
      const tui = await leeTui(false);
      pushTui = tui;
      const before = model.requests().length;
      await tui.tmux.type("hello again");
      await tui.tmux.keys("Enter");
      await waitFor(() => model.requests().length > before, 60_000, "the first request");
      const binding = await bindingOf(tui.tmux.pid);
      const uid = process.getuid?.() ?? 0;
      expect(readOpenCodeDoorAddress(lee.env, binding.claude_session_id, uid)).toEqual({
        session_id: binding.claude_session_id,
        server_url: tui.origin,
        host_pid: tui.tmux.pid,
      });
      await waitFor(
        () => existsSync(join(lee.stateDir, "watchers", `${tui.tmux.pid}.json`)),
        30_000,
        "the push lane's pidfile",
      );
      await poll(
        "idle",
        async () => JSON.stringify(await tui.get("/session/status")) === "{}",
        60_000,
      );
      // Counted before the send: the lane may post before `brigade send` has even returned.
      const at = model.requests().length;
      const messageId = await send(binding.brigade_session_id, `push ${which}: run <it> & tell me`);
      const expected = expectedText(messageId, binding);
      // No prompt from lee: the lane posts into the idle session and its model reads it.
      const woken = (r: ChatRequest): boolean => lastUser(r).includes(`push ${which}: run`);
      await waitFor(() => model.requests().slice(at).some(woken), 60_000, "the woken request");
      expect(lastUser(model.requests().slice(at).find(woken) as ChatRequest)).toBe(expected);
      await poll("dana sees acked", async () => (await sentState(messageId)) === "acked", 30_000);
      const stored = (await tui.get(
        `/session/${binding.claude_session_id}/message`,
      )) as StoredMessage[];
      const copies = stored
        .filter((m) => m.info.role === "user")
        .flatMap((m) => m.parts)
        .filter((p) => p.type === "text" && p.text === expected);
      expect(copies).toHaveLength(1);
    }, 180_000);

    test("the model's bash tool has pipes on stdin and stdout; with OpenCode's markers stripped, brigade send --as-me is refused beneath OpenCode's process and sends nothing", async () => {
      const sent = async (): Promise<number> =>
        sentAsPerson((await terminal(lee, ["sent", "--json"])).stdout);
      const before = await sent();
      // The push lane's TUI when its case ran (a new one costs half a minute), else one of its own.
      const tui = pushTui ?? (await leeTui(true));
      const dir = mkdtempSync(join(tmpdir(), "oc-as-me-"));
      dirs.push(dir);
      const danaId = world.mapOf(world.founder, danaCc).brigade_session_id;
      const command = asMeProbe(
        dir,
        ["OPENCODE", "OPENCODE_PID", "AGENT"],
        ["OPENCODE[A-Z_]*=", "AGENT="],
        danaId,
      );
      const at = model.requests().length;
      model.callTool = "bash";
      model.callArgs = () => ({ command, description: "Run the check" });
      await tui.tmux.type("run the check");
      await tui.tmux.keys("Enter");
      const result = (): string | undefined =>
        model
          .requests()
          .slice(at)
          .map((r) => messageText(r.messages.at(-1)))
          .find((t) => t.includes("as-me exit:"));
      await waitFor(() => result() !== undefined, 60_000, "the command's result");
      const output = result() ?? "";
      expect(output, output).toContain("in-pipe");
      expect(output, output).toContain("out-pipe");
      expect(output, output).toContain("OPENCODE_PID=");
      // The ancestry check refuses before the terminal check would.
      expect(output, output).toContain("as_me_under_agent");
      expect(output, output).toContain("as-me exit: 2");
      expect(await sent()).toBe(before);
    }, 120_000);
  });
}
