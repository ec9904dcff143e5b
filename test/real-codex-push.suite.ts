import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  CodexAppServer,
  type CodexDoor,
  codexClientId,
  codexDoorAddress,
  openCodexDoor,
  openCodexSessionDoor,
} from "../src/harness/codex/index.ts";
import type { DoorContext } from "../src/harness/host-session/index.ts";
import { InboundPipeline } from "../src/harness/inbound/index.ts";
import { sentinelFrame } from "../src/harness/mcp/index.ts";
import { InjectionPacer, PACER_LIMITS } from "../src/harness/pacing/index.ts";
import { doorEnvelope } from "./support/door-envelope.ts";
import { waitFor } from "./support/plugin-world.ts";
import { type CodexChoice, codexExecutable } from "./support/real-codex/codex-executable.ts";
import { type CodexTui, startCodexTui, writeCodexHome } from "./support/real-codex/codex-tui.ts";
import {
  FakeResponsesApi,
  type RecordedResponsesRequest,
  say,
  stall,
} from "./support/real-codex/fake-responses-api.ts";

const WORKSPACE = "brigade:t-codex@127.0.0.1";

/** One user input of the thread's record: the turn it is in, its client id and text. */
interface RecordedInput {
  readonly turnId: string;
  readonly clientId: string | null;
  readonly text: string;
}

/** The user texts one model request holds, in order. */
function userTexts(request: RecordedResponsesRequest): string[] {
  return request.texts.filter((t) => t.place === "user").map((t) => t.text);
}

/** Registers the push-lane suite for one Codex version (a test file per version). */
export function codexPushSuite({ which, version: resolveVersion }: CodexChoice): void {
  describe(`the real Codex, ${which} version: the app-server door`, () => {
    let dir: string;
    let executable: string;
    let api: FakeResponsesApi;
    let codex: CodexTui;
    let observer: CodexAppServer;
    let door: CodexDoor;
    const freshPipeline = (): InboundPipeline =>
      new InboundPipeline({
        now: Date.now,
        hashBody: (body) => createHash("sha256").update(body, "utf8").digest("hex"),
        seen: { has: () => false, add: () => {} },
        policy: "accept",
        teamName: "billing",
        instruction: { level: "open", custom: "" },
        delivery: "poll",
      });
    const pipeline = freshPipeline();
    const acked: string[] = [];
    const texts = new Map<string, string>();
    const logs: { event: string; fields: Record<string, string> }[] = [];
    const ctx: DoorContext = {
      pipeline,
      settleFiles: async () => "none",
      pacer: new InjectionPacer({ now: Date.now(), limits: PACER_LIMITS }),
      textOf: (item) => {
        const text = sentinelFrame(item.frame, item.message.sender.session_id, WORKSPACE);
        texts.set(item.message.message_id, text);
        return text;
      },
      report: () => {},
      ack: (id) => void acked.push(id),
      log: (_level, event, fields) => void logs.push({ event, fields }),
      now: Date.now,
    };

    beforeAll(async () => {
      executable = await codexExecutable(await resolveVersion());
      dir = mkdtempSync(join(tmpdir(), "cxp-"));
      api = await FakeResponsesApi.start();
      codex = await startCodexTui(executable, dir, api, `first prompt (${which})`);
      const opened = await CodexAppServer.open(codex.socketPath, "brigade-test-observer");
      if (!opened.ok) throw new Error(`observer: ${opened.reason}`);
      observer = opened.server;
      // The door as the push lane opens it: from the process the session's hooks ran under.
      const doorOpened = await openCodexSessionDoor(
        ctx,
        { hostPid: codex.hookParentPid, threadId: codex.threadId },
        codex.env,
        process.getuid?.() ?? 0,
      );
      if (!doorOpened.ok) throw new Error(`door: ${doorOpened.reason}`);
      expect(doorOpened.socketPath).toBe(codex.socketPath);
      door = doorOpened.door;
    }, 600_000);

    afterAll(async () => {
      await door?.close();
      observer?.close();
      await codex?.close();
      await api?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    beforeEach((context) => {
      context.onTestFailed(() => console.error(`Codex's screen:\n${codex?.tmux.pane() ?? ""}`));
    });

    /** The thread's own record of user inputs, oldest first (`thread/turns/list`). */
    async function recordInputs(): Promise<RecordedInput[]> {
      const answer = await observer.call("thread/turns/list", {
        threadId: codex.threadId,
        limit: 50,
        sortDirection: "asc",
        itemsView: "full",
      });
      if (!answer.ok) throw new Error(`thread/turns/list: ${answer.reason}`);
      const inputs: RecordedInput[] = [];
      for (const turn of answer.result.data as { id: string; items: Record<string, unknown>[] }[]) {
        for (const item of turn.items) {
          if (item.type !== "userMessage") continue;
          const content = item.content as { type: string; text?: string }[];
          inputs.push({
            turnId: turn.id,
            clientId: typeof item.clientId === "string" ? item.clientId : null,
            text: content.map((c) => c.text ?? "").join(""),
          });
        }
      }
      return inputs;
    }

    /** Waits until the thread's latest turn has ended. */
    async function waitIdle(what: string): Promise<void> {
      await waitFor(
        async () => {
          const turns = await observer.call("thread/turns/list", {
            threadId: codex.threadId,
            limit: 1,
          });
          return turns.ok && !JSON.stringify(turns.result.data).includes('"inProgress"');
        },
        30_000,
        what,
      );
    }

    /** Steps and confirms the door as the push lane does, until `done` holds. */
    async function drive(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
      await waitFor(
        async () => {
          while ((await door.step()) === "posted") {}
          await door.confirm();
          return done();
        },
        timeoutMs,
        what,
      );
    }

    afterEach(async () => {
      // Every message acked is in Codex's own record of the thread once, with the text the model read.
      const inputs = await recordInputs();
      for (const id of acked) {
        const held = inputs.filter((i) => i.clientId === codexClientId(id));
        expect(held, id).toHaveLength(1);
        expect(held[0]?.text, id).toBe(texts.get(id));
      }
      expect(new Set(acked).size).toBe(acked.length);
    });

    test("which Codex process has a door: the app-server on its control socket, not `codex exec`", async () => {
      const uid = process.getuid?.() ?? 0;
      // The interactive client's hooks run under the app-server that serves its thread.
      expect(codex.hookParentPid).toBe(codex.appServer.pid);
      const address = codexDoorAddress(codex.appServer.pid ?? 0, codex.codexHome, uid);
      expect(address).toEqual({ ok: true, socketPath: codex.socketPath });
      // `codex exec` runs its thread inside its own process: no socket, the pull lane.
      const home = join(dir, "exec-home", ".codex");
      writeCodexHome(home, api, codex.project);
      let release = (): void => {};
      api.script(stall(new Promise<void>((r) => (release = r)), say("exec done")));
      const before = api.requests.length;
      const exec = spawn(executable, ["exec", "--skip-git-repo-check", "exec prompt"], {
        cwd: codex.project,
        env: { ...codex.env, CODEX_HOME: home },
        stdio: ["ignore", "ignore", "ignore"],
      });
      const exited = new Promise((resolve) => exec.once("exit", resolve));
      try {
        await api.waitForRequest((r) => r.turn, 30_000, "codex exec's request", before);
        expect(codexDoorAddress(exec.pid ?? 0, home, uid)).toEqual({
          ok: false,
          reason: "in_process",
        });
      } finally {
        release();
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (exec.exitCode === null) exec.kill("SIGKILL");
      }
      // A thread the app-server has not loaded is never loaded from disk by the door.
      const other = await openCodexDoor(
        ctx,
        codex.socketPath,
        "01a24400-0000-7000-8000-000000000000",
      );
      expect(other).toEqual({ ok: false, reason: "not_loaded" });
      expect(realpathSync(codex.socketPath)).toMatch(/^\/tmp\/codex-daemon-\d+\//);
    });

    test("an idle session is woken by a message: its model's next request holds the sentinel + frame byte for byte", async () => {
      const id = `m-${which}-idle`;
      // The first prompt's turn may still run on a busy machine: the case starts once it ended
      // (the door reads the record again before its post, so it starts the turn, not a steer).
      await waitIdle("the first prompt's turn to end");
      pipeline.offer(doorEnvelope(id, `idle ${which}: run <the backfill> & "report"`));
      const before = api.requests.length;
      await drive(() => acked.includes(id), 60_000, "the ack of the idle message");
      const text = texts.get(id) ?? "";
      expect(text.startsWith("<!-- lsp:agent-message-v1 ")).toBe(true);
      const request = await api.waitForRequest(
        (r) => userTexts(r).includes(text),
        30_000,
        "the model's request with the message",
        before,
      );
      // The message is the request's last user input, exactly the sentinel + frame, once.
      expect(userTexts(request).at(-1)).toBe(text);
      expect(userTexts(request).filter((t) => t === text)).toHaveLength(1);
      expect(logs.find((l) => l.fields.item === id)?.fields.via).toBe("start");
      await codex.tmux.waitForPane(`idle ${which}`, 30_000, "the message on the person's screen");
    });

    test("a message sent during a busy turn steers it (expected turn id), once, and is acked after Codex records it", async () => {
      let release = (): void => {};
      api.script(stall(new Promise<void>((r) => (release = r)), say("busy done")));
      const before = api.requests.length;
      await codex.tmux.type(`busy work ${which}`);
      // Codex reads an Enter that follows typed text at once as part of a paste: press it again.
      await new Promise((r) => setTimeout(r, 400));
      await codex.tmux.keys("Enter");
      await api.waitForRequest(
        (r) => userTexts(r).includes(`busy work ${which}`),
        30_000,
        "the busy turn's request",
        before,
      );
      const busyTurn = (await recordInputs()).find((i) => i.text === `busy work ${which}`)?.turnId;
      expect(busyTurn).toBeDefined();
      const id = `m-${which}-busy`;
      pipeline.offer(doorEnvelope(id, `busy ${which}: the schema changed`));
      try {
        expect(await door.step()).toBe("posted");
        expect(logs.find((l) => l.fields.item === id)?.fields.via).toBe("steer");
        expect(acked).not.toContain(id);
        await drive(() => acked.includes(id), 60_000, "the ack of the steered message");
      } finally {
        release();
      }
      const text = texts.get(id) ?? "";
      const request = await api.waitForRequest(
        (r) => userTexts(r).includes(text),
        30_000,
        "the model's request with the steered message",
        before,
      );
      const users = userTexts(request);
      expect(users.filter((t) => t === text)).toHaveLength(1);
      expect(users.indexOf(text)).toBeGreaterThan(users.indexOf(`busy work ${which}`));
      // In the busy turn itself: steered, not queued for after it.
      const held = (await recordInputs()).filter((i) => i.clientId === codexClientId(id));
      expect(held.map((i) => i.turnId)).toEqual([busyTurn]);
      await waitIdle("the busy turn to end");
    });

    test("a burst of 15 from one sender arrives in order, each once, each acked once in Codex's record", async () => {
      // The shared pipeline admits 10 per sender a minute (INBOUND_LIMITS.senderLimit) and leaves
      // the rest on the server: the 15 come here as the pipeline hands them out, one after
      // another, to a door of their own on the same thread.
      const ids = Array.from({ length: 15 }, (_, i) => `m-${which}-burst-${i + 1}`);
      const queue = ids.map((id, i) => {
        const one = freshPipeline();
        expect(one.offer(doorEnvelope(id, `burst ${which} ${i + 1} of 15`)).outcome).toBe("queued");
        const item = one.next();
        if (item?.kind !== "message") throw new Error("no message item");
        return item;
      });
      const burstCtx: DoorContext = {
        ...ctx,
        pipeline: {
          peek: () => queue[0],
          next: () => queue.shift(),
          done: (item, error?: unknown) =>
            item.kind === "message" && error === undefined
              ? { ack: true, messageId: item.message.message_id, persisted: true }
              : { ack: false },
        },
      };
      const opened = await openCodexDoor(burstCtx, codex.socketPath, codex.threadId);
      if (!opened.ok) throw new Error(`burst door: ${opened.reason}`);
      const burst = opened.door;
      const before = api.requests.length;
      const start = acked.length;
      try {
        await waitFor(
          async () => {
            while ((await burst.step()) === "posted") {}
            await burst.confirm();
            return acked.length - start === 15;
          },
          60_000,
          "15 acks",
        );
      } finally {
        await burst.close();
      }
      expect(acked.slice(start)).toEqual(ids);
      expect(burst.outstanding).toBe(0);
      const last = texts.get(ids[14] ?? "") ?? "";
      const request = await api.waitForRequest(
        (r) => userTexts(r).includes(last),
        30_000,
        "the model's request with the 15th",
        before,
      );
      const order = userTexts(request)
        .map((t) => new RegExp(`burst ${which} (\\d+) of 15`).exec(t)?.[1])
        .filter((n): n is string => n !== undefined);
      expect(order).toEqual(ids.map((_, i) => String(i + 1)));
      const inRecord = (await recordInputs())
        .map((i) => i.clientId)
        .filter((c) => c !== null && ids.some((id) => codexClientId(id) === c));
      expect(inRecord).toEqual(ids.map(codexClientId));
    });

    test("the door keeps no session alive: when the person quits, Codex unloads the thread, ends the session, and nothing more is posted", async () => {
      expect(readFileSync(codex.hookOutput, "utf8")).not.toContain("end");
      // Ctrl-C during a turn interrupts it: quit from an idle prompt, as a person does.
      await waitIdle("the last turn to end");
      await waitFor(
        async () => {
          await codex.tmux.keys("C-c");
          await new Promise((r) => setTimeout(r, 300));
          return codex.tmux.exited();
        },
        20_000,
        "the interactive client to quit",
      );
      await waitFor(() => door.threadClosed, 30_000, "thread/closed for the session's thread");
      const loaded = await observer.call("thread/loaded/list", {});
      expect(loaded.ok && (loaded.result.data as string[]).includes(codex.threadId)).toBe(false);
      await waitFor(
        () => readFileSync(codex.hookOutput, "utf8").includes("end"),
        10_000,
        "the SessionEnd hook",
      );
      const before = api.requests.length;
      pipeline.offer(doorEnvelope(`m-${which}-after`, `after ${which}: too late`));
      expect(await door.step()).toBe("nothing");
      expect(pipeline.peek()?.kind).toBe("message");
      expect(api.requests.length).toBe(before);
      expect(acked).not.toContain(`m-${which}-after`);
    });
  });
}
