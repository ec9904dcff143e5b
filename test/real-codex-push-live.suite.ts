import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { build } from "../src/formats/frame/index.ts";
import { CodexAppServer, codexClientId } from "../src/harness/codex/index.ts";
import { sentinelFrame } from "../src/harness/mcp/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import { storedEnvelope, type TmuxClaude } from "./support/real-claude/index.ts";
import { type CodexChoice, codexExecutable } from "./support/real-codex/codex-executable.ts";
import { type CodexLive, startCodexLive } from "./support/real-codex/codex-person-live.ts";
import {
  FakeResponsesApi,
  type RecordedResponsesRequest,
} from "./support/real-codex/fake-responses-api.ts";
import { lanesGone } from "./support/real-qwen/lanes-gone.ts";

const TEAM = "billing";

/** Every push-lane log of `who` (ids, codes and event names only). */
function laneLogs(who: Person | undefined): string {
  if (who === undefined) return "";
  const folder = join(who.stateDir, "logs");
  try {
    return readdirSync(folder)
      .map((name) => readFileSync(join(folder, name), "utf8"))
      .join("\n");
  } catch {
    return "";
  }
}

const userTexts = (request: RecordedResponsesRequest): string[] =>
  request.texts.filter((t) => t.place === "user").map((t) => t.text);

/**
 * Registers the live suite for one Codex version (docs/49-codex.md "The push lane"): `brigade
 * install codex` in Lee's terminal, Lee's trust of the hooks, the interactive client on an
 * app-server in the team's checkout, and Dana's `brigade send` through `brigade serve`: the
 * session's own start hook starts the lane; no prompt from Lee, no code of the test's between.
 */
export function codexLiveSuite(choice: CodexChoice): void {
  describe(`the real Codex (${choice.which}): the push lane after brigade install codex`, () => {
    let world: PluginWorld;
    let lee: Person;
    let dana: ClaudeCodeHost;
    let api: FakeResponsesApi;
    let dir: string;
    let codex: CodexLive | undefined;
    let tmux: TmuxClaude | undefined;
    let socketPath: string;
    let leeId = "";
    let thread = "";
    let teamRef = "";

    beforeAll(async () => {
      const executable = await codexExecutable(await choice.version());
      world = await PluginWorld.start("dana", TEAM);
      lee = await world.join("lee");
      dana = await world.session(world.founder, "api");
      api = await FakeResponsesApi.start();
      dir = mkdtempSync(join(tmpdir(), "cxl-"));
      codex = await startCodexLive(executable, lee, api, dir);
      tmux = codex.tmux;
      socketPath = codex.socketPath;
      leeId = codex.binding.brigade;
      thread = codex.binding.thread;
      teamRef = codex.binding.teamRef;
    }, 600_000);

    afterAll(async () => {
      await codex?.close();
      if (lee !== undefined) await lanesGone(lee.stateDir);
      await api?.close();
      await world?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    beforeEach((context) => {
      context.onTestFailed(() =>
        console.error(`Lee's Codex:\n${tmux?.pane() ?? ""}\nThe lane's log:\n${laneLogs(lee)}`),
      );
    });

    async function sentState(id: string): Promise<string | undefined> {
      const run = await dana.runBash("brigade sent --json --limit 50");
      const rows = (JSON.parse(run.stdout) as { messages: { message_id: string; state: string }[] })
        .messages;
      return rows.find((row) => row.message_id === id)?.state;
    }

    test("the session's start hook started its push lane: teammates see it as push", async () => {
      await waitFor(
        async () => {
          const json = JSON.parse((await dana.runBash("brigade sessions --json")).stdout) as {
            sessions: { session_id: string; lane: string }[];
          };
          return json.sessions.some((s) => s.session_id === leeId && s.lane === "push");
        },
        60_000,
        "Lee's lane in brigade sessions",
      );
    });

    test("an idle session is woken by a teammate's brigade send: the model's next request holds the sentinel + frame byte for byte; acked only once Codex's record holds it", async () => {
      const before = api.requests.length;
      const run = await dana.runBash(
        sendCommand(leeId, `live ${choice.which}: rerun the <billing> migration & report`),
      );
      expect(run.exitCode, run.stderr).toBe(0);
      const id = /Sent message (m-[0-9a-f]+)/.exec(run.stdout)?.[1] ?? "";
      const envelope = storedEnvelope(world.dataFile, id);
      if (envelope === undefined) throw new Error("the message is not stored");
      const frame = build(envelope, TEAM, { level: "open", custom: "" });
      const workspace = `brigade:${teamRef}@${new URL(world.server.url).host}`;
      const expected = sentinelFrame(frame, envelope.sender.session_id, workspace);
      const request = await api.waitForRequest(
        (r) => userTexts(r).includes(expected),
        60_000,
        "the model's request with the message",
        before,
      );
      expect(userTexts(request).at(-1)).toBe(expected);
      await waitFor(async () => (await sentState(id)) === "acked", 30_000, "Dana's acked");
      // Acked means in Codex's own record of the thread, once, with the text the model read.
      const opened = await CodexAppServer.open(socketPath, "brigade-test-observer");
      if (!opened.ok) throw new Error(opened.reason);
      try {
        const turns = await opened.server.call("thread/turns/list", {
          threadId: thread,
          limit: 10,
          itemsView: "full",
        });
        if (!turns.ok) throw new Error(turns.reason);
        const held = JSON.stringify(turns.result.data).split(
          JSON.stringify(codexClientId(id)),
        ).length;
        expect(held - 1).toBe(1);
      } finally {
        opened.server.close();
      }
      await tmux?.waitForPane(`live ${choice.which}`, 30_000, "the message on Lee's screen");
    });
  });
}
