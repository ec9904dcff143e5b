import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { InboundPipeline } from "../src/harness/inbound/index.ts";
import { sentinelFrame } from "../src/harness/mcp/index.ts";
import { InjectionPacer, PACER_LIMITS } from "../src/harness/pacing/index.ts";
import {
  envelopeHolds,
  findQwenSession,
  linuxProcessIdentity,
  QWEN_COMMAND_VARIABLES,
  QwenDelivery,
  QwenPeerDoor,
  type QwenRecord,
  type QwenTransition,
  qwenConversationFile,
  qwenDeliveredTexts,
  qwenEscapedContent,
} from "../src/harness/qwen/index.ts";
import { asMeProbe, sentAsPerson } from "./support/as-me-probe.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { doorEnvelope } from "./support/door-envelope.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import { terminal } from "./support/real-gemini/gemini-person.ts";
import { FakeChatApi, messageText } from "./support/real-qwen/fake-chat-api.ts";
import { lanesGone } from "./support/real-qwen/lanes-gone.ts";
import { qwenScript } from "./support/real-qwen/qwen-executable.ts";
import { closeQwenTui, type QwenTui, startQwenTui } from "./support/real-qwen/qwen-tui.ts";

/** Which Qwen Code a test file runs: its label and how its version is found. */
export interface QwenChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

/** A sentinel + frame exactly as `sentinelFrame` writes one (docs/48-mcp.md's golden). */
const SENTINEL_FRAME = readFileSync(
  new URL("../src/harness/mcp/testdata/delivered-message.txt", import.meta.url),
  "utf8",
);

const WORKSPACE = "brigade:t-qwen@127.0.0.1";

/** Registers the peer-door suite for one Qwen Code version (a test file per version). */
export function qwenDoorSuite({ which, version: resolveVersion }: QwenChoice): void {
  describe(`the real Qwen Code, ${which} version: the cross-session peer door`, () => {
    let dir: string;
    let api: FakeChatApi;
    let qwen: QwenTui;
    let door: QwenPeerDoor;
    const transitions: QwenTransition[] = [];
    /** The deliveries under test: every receipt goes to each (each ignores ids it did not send). */
    const deliveries: QwenDelivery[] = [];
    /** Every message the door sent with its text: what the record must hold once delivered. */
    const sent = new Map<string, string>();
    let next = 0;

    beforeAll(async () => {
      const script = await qwenScript(await resolveVersion());
      dir = mkdtempSync(join(tmpdir(), "qwen-"));
      api = await FakeChatApi.start();
      qwen = await startQwenTui(script, dir, api);
      door = await QwenPeerDoor.open({
        fromName: "brigade",
        onTransition: (t) => {
          transitions.push(t);
          for (const d of deliveries) d.onTransition(t);
        },
      });
    }, 600_000);

    afterAll(async () => {
      await door?.close();
      await closeQwenTui(qwen);
      await api?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    beforeEach((context) => {
      context.onTestFailed(() => console.error(`Qwen Code's screen:\n${qwen?.tmux.pane() ?? ""}`));
    });

    /** The record as the door reads it before each send: trusted only while pid and start match. */
    function liveRecord(): QwenRecord {
      const found = findQwenSession(qwen.qwenHome, qwen.record.pid, linuxProcessIdentity());
      if (!found.ok) throw new Error(`no trusted Qwen Code record: ${found.reason}`);
      return found.record;
    }

    function recordTexts(): string[] {
      const file = qwenConversationFile(qwen.qwenHome, qwen.record.sessionId);
      return file === undefined ? [] : qwenDeliveredTexts(file);
    }

    function statusOf(msgId: string): string | undefined {
      return transitions.filter((t) => t.msgId === msgId).at(-1)?.status;
    }

    async function send(content: string, token: string | undefined): Promise<string> {
      next += 1;
      const msgId = `m-${which}-${next}-${Date.now().toString(36)}`;
      sent.set(msgId, content);
      const result = await door.post(liveRecord(), token, msgId, content);
      expect(result).toEqual({ ok: true });
      return msgId;
    }

    afterEach(() => {
      // Every message Qwen Code reported delivered is in its own record of the conversation, once.
      const texts = recordTexts();
      for (const [msgId, content] of sent) {
        if (statusOf(msgId) !== "delivered") continue;
        expect(
          texts.filter((t) => envelopeHolds(t, content)),
          msgId,
        ).toHaveLength(1);
      }
    });

    test("the record is trusted only while its pid and start identity match", () => {
      const record = liveRecord();
      expect(record.sessionId).toBe(qwen.record.sessionId);
      expect(record.ipcToken).toMatch(/^[0-9a-f]{64}$/);
      const wrongStart = { ...linuxProcessIdentity(), startTicks: () => "1" };
      expect(findQwenSession(qwen.qwenHome, record.pid, wrongStart)).toEqual({
        ok: false,
        reason: "not_trusted",
      });
    });

    test("an idle session is woken by a message: its model's next request holds the sentinel + frame", async () => {
      const before = api.requests().length;
      const content = `${SENTINEL_FRAME}\n(case ${which} idle)`;
      const msgId = await send(content, qwen.controllerToken);
      await waitFor(() => statusOf(msgId) === "delivered", 30_000, "the delivered receipt");
      await waitFor(
        () =>
          api
            .requests()
            .slice(before)
            .some((r) => messageText(r.messages.at(-1)).includes("(case")),
        60_000,
        "the model's next request",
      );
      const request = api
        .requests()
        .slice(before)
        .find((r) => messageText(r.messages.at(-1)).includes("(case"));
      const last = request?.messages.at(-1);
      expect(last?.role).toBe("user");
      const text = messageText(last);
      const opening = `<cross_session_message from="${door.path}" name="brigade" origin="controller" controller="brigade">\n`;
      const start = text.indexOf(opening);
      expect(start).toBeGreaterThanOrEqual(0);
      const body = text.slice(
        start + opening.length,
        text.indexOf("\n</cross_session_message>", start),
      );
      // Qwen Code writes every `<` of a peer's text as `&lt;` and changes nothing else: the
      // sentinel and the frame are the model's byte for byte under that one substitution.
      expect(body).toBe(qwenEscapedContent(content));
      expect(body.replaceAll("&lt;", "<")).toBe(content);
      await waitFor(
        () => recordTexts().some((t) => envelopeHolds(t, content)),
        30_000,
        "the record",
      );
    });

    test("a burst of 15 from one sender arrives in order, each once", async () => {
      const before = api.requests().length;
      const ids: string[] = [];
      for (let i = 1; i <= 15; i += 1) {
        ids.push(
          await send(`burst ${which} ${i} of 15: <brigade-message> ${i}`, qwen.controllerToken),
        );
      }
      await waitFor(
        () => ids.every((id) => statusOf(id) === "delivered"),
        60_000,
        "15 delivered receipts",
      );
      const bodies = (): string[] =>
        recordTexts()
          .filter((t) => t.includes(`burst ${which} `))
          .map((t) => /burst \S+ (\d+) of 15/.exec(t)?.[1] ?? "");
      await waitFor(() => bodies().length >= 15, 120_000, "15 messages in the record");
      expect(bodies()).toEqual(Array.from({ length: 15 }, (_, i) => String(i + 1)));
      await waitFor(
        () =>
          api
            .requests()
            .slice(before)
            .filter((r) => messageText(r.messages.at(-1)).includes(`burst ${which} 15 of 15`))
            .length > 0,
        120_000,
        "the model's request with the 15th",
      );
      // Each reached the model once, in order: each last user message of a turn holds one.
      const seen = api
        .requests()
        .slice(before)
        .map((r) => /burst \S+ (\d+) of 15/.exec(messageText(r.messages.at(-1)))?.[1])
        .filter((n): n is string => n !== undefined);
      expect(seen).toEqual(Array.from({ length: 15 }, (_, i) => String(i + 1)));
    }, 240_000);

    /** Brigade's delivery of one Brigade session over the door: the shared pipeline and pacer. */
    function brigadeDelivery(controllerToken: string | undefined) {
      const pipeline = new InboundPipeline({
        now: Date.now,
        hashBody: (body) => createHash("sha256").update(body, "utf8").digest("hex"),
        seen: { has: () => false, add: () => {} },
        policy: "accept",
        teamName: "billing",
        instruction: { level: "open", custom: "" },
        delivery: "poll",
      });
      const acked: string[] = [];
      const reported: string[] = [];
      const texts = new Map<string, string>();
      const delivery = new QwenDelivery({
        pipeline,
        // These messages name no files: the head never waits for any.
        settleFiles: async () => "none",
        pacer: new InjectionPacer({ now: Date.now(), limits: PACER_LIMITS }),
        post: (record, token, msgId, content) => {
          sent.set(msgId, content);
          return door.post(record, token, msgId, content);
        },
        session: () => findQwenSession(qwen.qwenHome, qwen.record.pid, linuxProcessIdentity()),
        controllerToken,
        textOf: (item) => {
          const text = sentinelFrame(item.frame, item.message.sender.session_id, WORKSPACE);
          texts.set(item.message.message_id, text);
          return text;
        },
        inConversation: (content) => recordTexts().some((t) => envelopeHolds(t, content)),
        report: (state, id) => void reported.push(`${state}:${id}`),
        ack: (id) => void acked.push(id),
        log: () => {},
        now: Date.now,
      });
      deliveries.push(delivery);
      return { pipeline, delivery, acked, reported, texts };
    }

    test("Brigade's delivery: messages in server order, each acked only once Qwen Code's record holds it", async () => {
      const b = brigadeDelivery(qwen.controllerToken);
      const ids = [`m-${which}-d1`, `m-${which}-d2`, `m-${which}-d3`];
      for (const [i, id] of ids.entries()) {
        expect(
          b.pipeline.offer(doorEnvelope(id, `delivery ${which} ${i + 1}: run <the backfill>`))
            .outcome,
        ).toBe("queued");
      }
      const before = api.requests().length;
      for (let i = 0; i < 3; i += 1) expect(await b.delivery.step()).toBe("posted");
      await waitFor(
        () => {
          void b.delivery.confirm();
          return b.acked.length === 3;
        },
        60_000,
        "three acks",
      );
      expect(b.acked).toEqual(ids);
      // Acked means in Qwen Code's record, and each reached the model once, in order.
      for (const id of ids) {
        const text = b.texts.get(id) ?? "";
        expect(text.startsWith("<!-- lsp:agent-message-v1 ")).toBe(true);
        expect(recordTexts().filter((t) => envelopeHolds(t, text))).toHaveLength(1);
      }
      await waitFor(
        () =>
          api
            .requests()
            .slice(before)
            .some((r) => messageText(r.messages.at(-1)).includes(`delivery ${which} 3:`)),
        60_000,
        "the model's request with the third",
      );
      const order = api
        .requests()
        .slice(before)
        .map(
          (r) => new RegExp(`delivery ${which} (\\d):`).exec(messageText(r.messages.at(-1)))?.[1],
        )
        .filter((n): n is string => n !== undefined);
      expect(order).toEqual(["1", "2", "3"]);
    }, 180_000);

    test("Brigade's delivery without the person's token: the sender is told held, nothing is acked", async () => {
      const b = brigadeDelivery(undefined);
      const id = `m-${which}-h1`;
      expect(b.pipeline.offer(doorEnvelope(id, `held delivery ${which}`)).outcome).toBe("queued");
      expect(await b.delivery.step()).toBe("posted");
      await waitFor(() => b.reported.includes(`held:${id}`), 30_000, "the held report");
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await b.delivery.confirm();
      expect(b.acked).toEqual([]);
      expect(recordTexts().some((t) => t.includes(`held delivery ${which}`))).toBe(false);
    });

    test("without the person's controller token the message is held by Qwen Code and never reaches the model", async () => {
      const before = api.requests().length;
      const content = `held ${which}: <brigade-message> nobody minted a token for this`;
      const msgId = await send(content, undefined);
      await waitFor(() => statusOf(msgId) === "held", 30_000, "the held receipt");
      await qwen.tmux.waitForPane("/peers to review", 10_000, "Qwen Code's held notice");
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(statusOf(msgId)).toBe("held");
      expect(
        api
          .requests()
          .slice(before)
          .some((r) => JSON.stringify(r).includes(`held ${which}:`)),
      ).toBe(false);
      expect(recordTexts().some((t) => t.includes(`held ${which}:`))).toBe(false);
    });
  });
}

/**
 * Registers the install suite for one Qwen Code version: `brigade install qwen` in a teammate's
 * terminal (no controller token), then the real TUI in the team's checkout binds itself at its
 * start and its push lane owns the session: the turn hook announces nothing the lane delivers.
 */
export function qwenPullSuite({ which, version: resolveVersion }: QwenChoice): void {
  describe(`the real Qwen Code, ${which} version: brigade install qwen (the pull lane)`, () => {
    let world: PluginWorld;
    let dana: Person;
    let lee: Person;
    let danaCc: ClaudeCodeHost;
    let api: FakeChatApi;
    let qwen: QwenTui;
    let dir: string;

    beforeAll(async () => {
      const script = await qwenScript(await resolveVersion());
      world = await PluginWorld.start("dana", "billing");
      dana = world.founder;
      lee = await world.join("lee");
      danaCc = await world.session(dana, "api");
      const installed = await terminal(lee, ["install", "qwen"]);
      if (installed.code !== 0) throw new Error(`brigade install qwen: ${installed.stderr}`);
      api = await FakeChatApi.start();
      dir = mkdtempSync(join(tmpdir(), "qwen-pull-"));
      // Run from where an npm install puts it (`…/node_modules/@qwen-code/qwen-code/`, the folder
      // its process signature names), not the unpacked package of the cache.
      const npmInstall = join(dir, "node_modules", "@qwen-code", "qwen-code");
      mkdirSync(dirname(npmInstall), { recursive: true });
      symlinkSync(dirname(script), npmInstall);
      // Lee lets the model run tools without asking (the approval prompt is Qwen Code's).
      qwen = await startQwenTui(join(npmInstall, basename(script)), dir, api, {
        home: lee.home,
        project: lee.checkout,
        env: lee.env,
        approvalMode: "yolo",
      });
    }, 600_000);

    afterAll(async () => {
      await closeQwenTui(qwen);
      if (lee !== undefined) await lanesGone(lee.stateDir);
      await api?.close();
      await world?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    beforeEach((context) => {
      context.onTestFailed(() => console.error(`Qwen Code's screen:\n${qwen?.tmux.pane() ?? ""}`));
    });

    test("the start binds the Qwen session and starts its push lane: a teammate's message (no token: held by Qwen Code) is not announced at the next prompt, the sender sees held, never acked", async () => {
      const folder = join(lee.stateDir, "sessions", "by-harness", "qwen");
      let binding: { claude_session_id: string; brigade_session_id: string } | undefined;
      await waitFor(
        () => {
          try {
            const name = readdirSync(folder).find((n) => n.endsWith(".json"));
            if (name !== undefined) binding = JSON.parse(readFileSync(join(folder, name), "utf8"));
          } catch {
            // not written yet
          }
          return binding !== undefined;
        },
        30_000,
        "the binding file",
      );
      expect(binding?.claude_session_id).toBe(qwen.record.sessionId);
      const brigadeId = binding?.brigade_session_id ?? "";
      const sent = await danaCc.runBash(
        sendCommand(brigadeId, `pull ${which}: rerun the migration`),
      );
      expect(sent.exitCode, sent.stderr).toBe(0);
      const messageId = /Sent message (m-[0-9a-f]+)/.exec(sent.stdout)?.[1];
      if (messageId === undefined) throw new Error(sent.stdout);
      // The push lane owns the session: it posts, and Qwen Code holds the post for Lee's review.
      await waitFor(
        async () =>
          new RegExp(`${messageId}.*held`).test((await danaCc.runBash("brigade sent")).stdout),
        60_000,
        "the sender's state held",
      );
      const before = api.requests().length;
      await qwen.tmux.type("what is new?");
      await waitFor(
        () =>
          api
            .requests()
            .slice(before)
            .some((r) => JSON.stringify(r.messages).includes("what is new?")),
        60_000,
        "the prompt's request",
      );
      const request = api
        .requests()
        .slice(before)
        .find((r) => JSON.stringify(r.messages).includes("what is new?"));
      const all = JSON.stringify(request?.messages ?? []);
      // The start's context line, as Qwen Code puts hook context; no second lane announces it.
      expect(all).toContain(`Brigade: this session is`);
      expect(all).not.toContain("message from teammates");
      expect(all).not.toContain(`pull ${which}: rerun`);
      expect((await danaCc.runBash("brigade sent")).stdout).not.toMatch(
        new RegExp(`${messageId}.*acked`),
      );
    }, 180_000);

    test("interactive, under tmux: the model's run_shell_command has pipes on stdin and stdout; with Qwen Code's markers stripped, brigade send --as-me is refused beneath Qwen Code's process and sends nothing", async () => {
      const sent = async (): Promise<number> =>
        sentAsPerson((await terminal(lee, ["sent", "--json"])).stdout);
      const before = await sent();
      const danaId = world.mapOf(dana, danaCc).brigade_session_id;
      const command = asMeProbe(dir, QWEN_COMMAND_VARIABLES, ["QWEN_CODE[A-Z_]*="], danaId);
      const at = api.requests().length;
      let called = false;
      api.callTool = (request) => {
        if (called || !JSON.stringify(request.messages).includes("run the check")) return undefined;
        called = true;
        return { name: "run_shell_command", args: { command, is_background: false } };
      };
      try {
        await qwen.tmux.type("run the check");
        const result = (): string | undefined =>
          api
            .requests()
            .slice(at)
            .flatMap((r) => r.messages)
            .map((m) => messageText(m))
            .find((t) => t.includes("as-me exit:"));
        await waitFor(() => result() !== undefined, 60_000, "the command's result");
        const output = result() ?? "";
        expect(output, output).toContain("in-pipe");
        expect(output, output).toContain("out-pipe");
        expect(output, output).toContain("QWEN_CODE_SESSION_ID=");
        // The ancestry check refuses before the terminal check would.
        expect(output, output).toContain("as_me_under_agent");
        expect(output, output).toContain("as-me exit: 2");
      } finally {
        api.callTool = undefined;
      }
      expect(await sent()).toBe(before);
    }, 120_000);
  });
}
