import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { build } from "../src/formats/frame/index.ts";
import { sentinelFrame } from "../src/harness/mcp/index.ts";
import {
  envelopeHolds,
  qwenConversationFile,
  qwenDeliveredTexts,
  qwenEscapedContent,
} from "../src/harness/qwen/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import { storedEnvelope } from "./support/real-claude/index.ts";
import { terminal } from "./support/real-gemini/gemini-person.ts";
import { type ChatRequest, FakeChatApi, messageText } from "./support/real-qwen/fake-chat-api.ts";
import { lanesGone } from "./support/real-qwen/lanes-gone.ts";
import { qwenScript } from "./support/real-qwen/qwen-executable.ts";
import { closeQwenTui, type QwenTui, startQwenTui } from "./support/real-qwen/qwen-tui.ts";

/** Which Qwen Code a test file runs: its label and how its version is found. */
export interface QwenLiveChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

const TEAM = "billing";

/** The Brigade session a person's Qwen Code session bound at its start (its binding file). */
function boundBrigadeId(who: Person): string | undefined {
  const folder = join(who.stateDir, "sessions", "by-harness", "qwen");
  try {
    const name = readdirSync(folder).find((n) => n.endsWith(".json"));
    if (name === undefined) return undefined;
    return (JSON.parse(readFileSync(join(folder, name), "utf8")) as { brigade_session_id: string })
      .brigade_session_id;
  } catch {
    return undefined;
  }
}

/** Every push-lane log of `people` (ids, codes and event names only: never a message's text). */
function laneLogs(people: readonly (Person | undefined)[]): string {
  const out: string[] = [];
  for (const who of people) {
    if (who === undefined) continue;
    const folder = join(who.stateDir, "logs");
    try {
      for (const name of readdirSync(folder)) out.push(readFileSync(join(folder, name), "utf8"));
    } catch {
      // no log yet
    }
  }
  return out.join("\n");
}

/** The last user message of each request, in order. */
const lastTexts = (requests: readonly ChatRequest[]): string[] =>
  requests.map((r) => messageText(r.messages.at(-1)));

/**
 * Registers the live-push suite for one Qwen Code version (docs/49-qwen.md "The push lane"):
 * `brigade install qwen` and `brigade qwen token` in a teammate's terminal, the real TUI started
 * in the team's checkout against the loopback fake API, and a teammate's `brigade send` through
 * `brigade serve` — no prompt from Qwen Code's user, no code of the test's between.
 */
export function qwenLiveSuite({ which, version: resolveVersion }: QwenLiveChoice): void {
  describe(`the real Qwen Code, ${which} version: the push lane after brigade install qwen`, () => {
    let world: PluginWorld;
    let dana: Person;
    let lee: Person;
    let kim: Person;
    let danaCc: ClaudeCodeHost;
    let api: FakeChatApi;
    let leeQwen: QwenTui;
    let kimQwen: QwenTui;
    let dir: string;
    let leeId: string;
    let kimId: string;
    /** Every message sent to Lee's session. */
    const sent = new Set<string>();

    beforeAll(async () => {
      const script = await qwenScript(await resolveVersion());
      world = await PluginWorld.start("dana", TEAM);
      dana = world.founder;
      lee = await world.join("lee");
      kim = await world.join("kim");
      danaCc = await world.session(dana, "api");
      for (const who of [lee, kim]) {
        const installed = await terminal(who, ["install", "qwen"]);
        if (installed.code !== 0) throw new Error(`brigade install qwen: ${installed.stderr}`);
      }
      api = await FakeChatApi.start();
      dir = mkdtempSync(join(tmpdir(), "qwen-live-"));
      leeQwen = await startQwenTui(script, join(dir, "lee"), api, {
        home: lee.home,
        project: lee.checkout,
        env: lee.env,
        // Lee hands Brigade the controller token the documented way, before the session starts.
        beforeStart: async (token) => {
          const kept = await terminal(lee, ["qwen", "token"], `${token}\n`);
          if (kept.code !== 0) throw new Error(`brigade qwen token: ${kept.stderr}`);
        },
      });
      // Kim never gives a token: Qwen Code holds every message for Kim's review.
      kimQwen = await startQwenTui(script, join(dir, "kim"), api, {
        home: kim.home,
        project: kim.checkout,
        env: kim.env,
      });
      await waitFor(() => boundBrigadeId(lee) !== undefined, 30_000, "Lee's binding file");
      await waitFor(() => boundBrigadeId(kim) !== undefined, 30_000, "Kim's binding file");
      leeId = boundBrigadeId(lee) ?? "";
      kimId = boundBrigadeId(kim) ?? "";
    }, 600_000);

    afterAll(async () => {
      await closeQwenTui(leeQwen);
      await closeQwenTui(kimQwen);
      for (const who of [lee, kim]) if (who !== undefined) await lanesGone(who.stateDir);
      await api?.close();
      await world?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    beforeEach((context) => {
      context.onTestFailed(() =>
        console.error(
          `Lee's Qwen Code:\n${leeQwen?.tmux.pane() ?? ""}\nKim's Qwen Code:\n${kimQwen?.tmux.pane() ?? ""}\nThe lanes' logs:\n${laneLogs([lee, kim])}`,
        ),
      );
    });

    function leeRecord(): string[] {
      const file = qwenConversationFile(leeQwen.qwenHome, leeQwen.record.sessionId);
      return file === undefined ? [] : qwenDeliveredTexts(file);
    }

    async function sentStates(): Promise<string> {
      return (await danaCc.runBash("brigade sent")).stdout;
    }

    async function send(to: string, body: string): Promise<string> {
      const run = await danaCc.runBash(sendCommand(to, body));
      expect(run.exitCode, run.stderr).toBe(0);
      const id = /Sent message (m-[0-9a-f]+)/.exec(run.stdout)?.[1];
      if (id === undefined) throw new Error(run.stdout);
      if (to === leeId) sent.add(id);
      return id;
    }

    afterEach(async () => {
      // Every message the server reports acked is in Qwen Code's own record, exactly once.
      const states = await sentStates();
      const texts = leeRecord();
      for (const id of sent) {
        if (!new RegExp(`${id}.*acked`).test(states)) continue;
        expect(
          texts.filter((t) => t.includes(`message-id="${id}"`)),
          id,
        ).toHaveLength(1);
      }
    });

    test("the lane is said to teammates: Lee's session push, Kim's held", async () => {
      await waitFor(
        async () => {
          const json = JSON.parse((await danaCc.runBash("brigade sessions --json")).stdout) as {
            sessions: { session_id: string; lane: string }[];
          };
          const lanes = new Map(json.sessions.map((s) => [s.session_id, s.lane]));
          return lanes.get(leeId) === "push" && lanes.get(kimId) === "held";
        },
        60_000,
        "the lanes in brigade sessions",
      );
    });

    test("an idle session is woken by a teammate's brigade send: its model's next request holds the sentinel + frame; acked only once Qwen Code's record holds it", async () => {
      const before = api.requests().length;
      const body = `live ${which}: rerun the <billing> migration & report`;
      const id = await send(leeId, body);
      await waitFor(
        () => lastTexts(api.requests().slice(before)).some((t) => t.includes(`message-id="${id}"`)),
        60_000,
        "the model's request with the message",
      );
      const text =
        lastTexts(api.requests().slice(before)).find((t) => t.includes(`message-id="${id}"`)) ?? "";
      const envelope = storedEnvelope(world.dataFile, id);
      if (envelope === undefined) throw new Error("the message is not stored");
      const frame = build(envelope, TEAM, { level: "open", custom: "" });
      const workspace = `brigade:${world.mapOf(dana, danaCc).team_ref}@${new URL(world.server.url).host}`;
      const expected = sentinelFrame(frame, envelope.sender.session_id, workspace);
      const opening =
        /<cross_session_message from="[^"]+" name="brigade" origin="controller" controller="brigade">\n/.exec(
          text,
        );
      expect(opening).not.toBeNull();
      const start = (opening?.index ?? 0) + (opening?.[0].length ?? 0);
      const inside = text.slice(start, text.indexOf("\n</cross_session_message>", start));
      // Byte for byte under Qwen Code's one substitution (every `<` written `&lt;`).
      expect(inside).toBe(qwenEscapedContent(expected));
      expect(inside.replaceAll("&lt;", "<")).toBe(expected);
      await waitFor(
        async () => new RegExp(`${id}.*acked`).test(await sentStates()),
        30_000,
        "the sender's state acked",
      );
      // Acked means in Qwen Code's own record of the conversation.
      expect(leeRecord().filter((t) => envelopeHolds(t, expected))).toHaveLength(1);
      expect(leeQwen.tmux.pane()).not.toContain("/peers to review");
    }, 180_000);

    test("a burst of 15 from one sender arrives in order, each once, and each is acked", async () => {
      const before = api.requests().length;
      const ids: string[] = [];
      for (let i = 1; i <= 15; i += 1) ids.push(await send(leeId, `burst ${which} ${i} of 15`));
      const numbers = (): string[] =>
        lastTexts(api.requests().slice(before))
          .map((t) => new RegExp(`burst ${which} (\\d+) of 15`).exec(t)?.[1])
          .filter((n): n is string => n !== undefined);
      // Ten a minute per sender (the inbound pipeline's step 4): the last five come a minute later.
      await waitFor(() => numbers().length >= 15, 200_000, "15 messages in the model's requests");
      expect(numbers()).toEqual(Array.from({ length: 15 }, (_, i) => String(i + 1)));
      await waitFor(
        async () => {
          const states = await sentStates();
          return ids.every((id) => new RegExp(`${id}.*acked`).test(states));
        },
        60_000,
        "15 acks",
      );
      const bursts = leeRecord().filter((t) => t.includes(`burst ${which} `));
      expect(bursts).toHaveLength(15);
    }, 300_000);

    test("without a controller token Qwen Code holds the message: the sender sees held, nothing is acked, the model never reads it", async () => {
      const before = api.requests().length;
      const body = `held ${which}: nobody gave Brigade a token`;
      const id = await send(kimId, body);
      await waitFor(
        async () => new RegExp(`${id}.*held`).test(await sentStates()),
        60_000,
        "the sender's state held",
      );
      await kimQwen.tmux.waitForPane("/peers to review", 10_000, "Qwen Code's held notice");
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await sentStates()).not.toMatch(new RegExp(`${id}.*acked`));
      expect(JSON.stringify(api.requests().slice(before))).not.toContain(`held ${which}:`);
    }, 120_000);
  });
}
