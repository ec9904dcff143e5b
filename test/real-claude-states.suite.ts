/**
 * The message states a sender can read (docs/43-session-cli.md, docs/41-watcher.md "Acked means in
 * the conversation"), each reached on the real Claude Code (docs/47-real-client-tests.md "The
 * states on the real client"): an ended recipient and the adoption by the person's next session,
 * a hold by the recipient's policy, a session whose permission gate would hold our posts, a burst
 * from one sender, and a headless `claude -p` run. Each case asserts what the sender sees (its
 * own CLI, run with the sender session's `CLAUDE_PID`) and what the recipient's model read (the
 * fake API's recorded requests, the frame built from the stored envelope); after each case, every
 * message the server reports acked is in its recipient's recorded conversation.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { build } from "../src/formats/frame/index.ts";
import { rateNotice } from "../src/harness/inbound/index.ts";
import type { MessageEnvelope } from "../src/protocol/index.ts";
import { type Person, PluginWorld, type TerminalRun, waitFor } from "./support/plugin-world.ts";
import type { ClaudeCodeChoice } from "./support/real-claude/index.ts";
import {
  bash,
  type ClaudeSession,
  claudeCodeExecutable,
  decide,
  type FakeMessagesApi,
  HELD_DIALOG,
  HeadlessClaudeSession,
  modelTexts,
  RealClaudeSession,
  reportOnFailure,
  say,
  storedEnvelope,
  storedMessageIds,
} from "./support/real-claude/index.ts";

const TEAM = "billing";
/** A burst over the watcher's 10-per-minute-per-sender step, so its set-aside path runs too. */
const BURST = 15;
/** The per-sender step's allowance in one minute (INBOUND_LIMITS, docs/41-watcher.md). */
const SENDER_ALLOWANCE = 10;

/** One row of `brigade sent --json`. */
interface SentRow {
  readonly message_id: string;
  readonly recipient_session_id: string;
  readonly offered_to_session_id?: string;
  readonly state: string;
}

/** The frame the model must read for a stored message, built from the stored envelope alone. */
function frameOf(envelope: MessageEnvelope): string {
  return build(envelope, TEAM, { level: "open", custom: "" });
}

/** Whether a recorded request of `api` holds the message's frame, whole, outside a tool result. */
function framedIn(api: FakeMessagesApi, envelope: MessageEnvelope): boolean {
  const frame = frameOf(envelope);
  return api.requests.some((request) =>
    modelTexts(request.body).some((t) => t.place !== "tool-result" && t.text.includes(frame)),
  );
}

/** How many times the message's open tag appears across the newest request of `api`. */
function timesFramed(api: FakeMessagesApi, messageId: string): number {
  const last = api.requests.at(-1);
  if (last === undefined) return 0;
  return last.raw.split(`message-id=\\"${messageId}\\"`).length - 1;
}

/** Registers this suite for one Claude Code (a test file per version: docs/47). */
export function messageStatesSuite({ which, version: resolveVersion }: ClaudeCodeChoice): void {
  describe(`message states on the real Claude Code, ${which} version`, () => {
    let executable: string;
    let world: PluginWorld;
    let dana: Person;
    let eli: Person;
    let danaCc: RealClaudeSession | undefined;
    /** Every recipient session a case started, for the "nothing acked is missing" check. */
    const recipients = new Map<string, ClaudeSession>();
    const started: { close(): Promise<void> }[] = [];

    beforeAll(async () => {
      executable = await claudeCodeExecutable(await resolveVersion());
      world = await PluginWorld.start("dana", TEAM);
      dana = world.founder;
      eli = await world.join("eli");
      danaCc = await RealClaudeSession.start(world, dana, { executable });
    });

    afterAll(async () => {
      await Promise.all([danaCc?.close(), ...started.map((s) => s.close())]);
      await world?.close();
    });

    afterEach(async () => {
      if (danaCc === undefined) return;
      // Nothing acked is missing: each message the server reports in its recipient's context is
      // in the recorded conversation of the session that took it.
      for (const row of await sentRows()) {
        if (row.state !== "acked") continue;
        const envelope = storedEnvelope(world.dataFile, row.message_id);
        if (envelope === undefined) throw new Error("an acked message the server no longer keeps");
        const holder = recipients.get(row.offered_to_session_id ?? row.recipient_session_id);
        expect(holder, "the acked message's recipient is a session of this run").toBeDefined();
        if (holder === undefined) continue;
        expect(framedIn(holder.api, envelope), `acked ${row.message_id} in the conversation`).toBe(
          true,
        );
      }
    });

    function sender(): RealClaudeSession {
      if (danaCc === undefined) throw new Error("dana's session did not start");
      return danaCc;
    }

    async function recipient<T extends ClaudeSession & { close(): Promise<void> }>(
      start: Promise<T>,
    ): Promise<T> {
      const session = await start;
      started.push(session);
      if (session instanceof HeadlessClaudeSession) await session.registered();
      recipients.set(session.brigadeSessionId(), session);
      return session;
    }

    /** Runs the plugin's `brigade` as dana's session's CLI (her session's `CLAUDE_PID`). */
    function asDana(args: readonly string[], input = ""): Promise<TerminalRun> {
      const child = spawn(process.execPath, [join(world.pluginRoot, "bin", "brigade"), ...args], {
        cwd: dana.checkout,
        env: { ...dana.env, CLAUDE_PID: String(sender().claudePid) },
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stdin.end(input);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      return new Promise((resolve) => {
        child.once("close", (code) => resolve({ code, stdout, stderr }));
      });
    }

    /** Dana sends `body`; returns the message id the server stored and the `State:` line printed. */
    async function send(
      to: string,
      body: string,
      flags: readonly string[] = [],
    ): Promise<{ id: string; state: string; envelope: MessageEnvelope }> {
      const before = new Set(storedMessageIds(world.dataFile, sender().brigadeSessionId(), to));
      const run = await asDana(["send", to, ...flags], `${body}\n`);
      expect(run.code, run.stderr).toBe(0);
      const id = storedMessageIds(world.dataFile, sender().brigadeSessionId(), to).find(
        (m) => !before.has(m),
      );
      const envelope = storedEnvelope(world.dataFile, id ?? "");
      if (id === undefined || envelope === undefined) throw new Error("the server stored nothing");
      expect(run.stdout).toContain(`Sent message ${id}`);
      return { id, envelope, state: /^State: (.*)$/m.exec(run.stdout)?.[1] ?? "" };
    }

    async function sentRows(): Promise<SentRow[]> {
      const run = await asDana(["sent", "--json", "--limit", "200"]);
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { messages: SentRow[] }).messages;
    }

    async function stateOf(id: string): Promise<SentRow | undefined> {
      return (await sentRows()).find((row) => row.message_id === id);
    }

    async function waitForState(id: string, state: string, timeoutMs: number): Promise<SentRow> {
      await waitFor(async () => (await stateOf(id))?.state === state, timeoutMs, `state ${state}`);
      const row = await stateOf(id);
      if (row === undefined) throw new Error("the message left the sent list");
      return row;
    }

    it("an ended session: the sender sees undeliverable; the person's next session in the checkout adopts it held; release delivers it and the sender sees acked", async () => {
      const first = await recipient(RealClaudeSession.start(world, eli, { executable }));
      reportOnFailure({ dana: sender(), first });
      const firstId = first.brigadeSessionId();
      // Without its watcher nothing takes the message in before the session ends.
      await waitFor(
        () => {
          try {
            process.kill(world.watcherPidOf(eli, { claudePid: first.claudePid }), "SIGKILL");
            return true;
          } catch {
            return false;
          }
        },
        30_000,
        "the first session's watcher killed",
      );
      const message = await send(firstId, "The invoice job moved to 02:00 UTC.", [
        "--summary",
        "Job moved",
      ]);
      expect(message.state).toMatch(/accepted|server has it/i);
      await first.end();
      const ended = await waitForState(message.id, "undeliverable", 30_000);
      expect(ended.recipient_session_id).toBe(firstId);
      // The sender's next prompt tells its model once.
      sender().api.script(say("Noted."));
      const prompt = await sender().prompt("Anything new?");
      expect(prompt.raw).toContain(`${message.id} to ${firstId}`);
      expect(prompt.raw).toMatch(/not delivered: the recipient session ended or went silent/);
      await sender().waitForIdle();

      const next = await recipient(RealClaudeSession.start(world, eli, { executable }));
      reportOnFailure({ dana: sender(), next });
      const nextId = next.brigadeSessionId();
      const adopted = await waitForState(message.id, "held", 30_000);
      expect(adopted.offered_to_session_id).toBe(nextId);
      expect(framedIn(next.api, message.envelope)).toBe(false);

      const released = await world.terminal(eli, [
        "inbox",
        "release",
        "--session",
        nextId,
        "--all",
      ]);
      expect(released.code, released.stderr).toBe(0);
      await waitFor(() => framedIn(next.api, message.envelope), 60_000, "the adopted frame");
      await waitForState(message.id, "acked", 30_000);
    });

    it("held by the recipient's policy: the sender sees held; the release delivers it and the sender sees acked", async () => {
      const holder = await recipient(
        RealClaudeSession.start(world, eli, {
          executable,
          pluginOptions: { team_inbound: "hold" },
        }),
      );
      reportOnFailure({ dana: sender(), holder });
      const holderId = holder.brigadeSessionId();
      const message = await send(holderId, "Staging is yours after lunch.", [
        "--summary",
        "Staging",
      ]);
      await waitForState(message.id, "held", 30_000);
      expect(framedIn(holder.api, message.envelope)).toBe(false);
      const released = await world.terminal(eli, [
        "inbox",
        "release",
        "--session",
        holderId,
        "--all",
      ]);
      expect(released.code, released.stderr).toBe(0);
      await waitFor(() => framedIn(holder.api, message.envelope), 60_000, "the released frame");
      await waitForState(message.id, "acked", 30_000);
    });

    it("a session whose permission gate would hold our posts: nothing is posted into the dialog, the sender sees accepted and reads that it comes at the next prompt; at that prompt the model reads it and the sender sees acked", async () => {
      const bypassing = await recipient(
        RealClaudeSession.start(world, eli, { executable, permissionMode: "bypassPermissions" }),
      );
      reportOnFailure({ dana: sender(), bypassing });
      const message = await send(bypassing.brigadeSessionId(), "Do not deploy today.", [
        "--summary",
        "Freeze",
      ]);
      // Claude Code would hold every post for a dialog and the user settings do not accept (the
      // plugin never writes them): no watcher posts, and the hooks deliver at the next prompt.
      expect(message.state).toMatch(/^accepted by the server/);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect((await stateOf(message.id))?.state).toBe("accepted");
      expect(framedIn(bypassing.api, message.envelope)).toBe(false);
      expect(bypassing.claude.pane()).not.toContain(HELD_DIALOG);
      expect(existsSync(bypassing.watcherPidfilePath())).toBe(false);
      // The model reads it with the prompt and goes on with a tool call, after which a hook finds
      // it read in the transcript: only then is it acked (docs/42-hooks.md "Acked means read").
      bypassing.api.script(bash("brigade whoami", "Check the session"), say("Noted."));
      await bypassing.prompt("Anything from the team?");
      await waitFor(
        () => framedIn(bypassing.api, message.envelope),
        30_000,
        "the frame at the prompt",
      );
      await waitForState(message.id, "acked", 30_000);
      expect(bypassing.claude.pane()).not.toContain(HELD_DIALOG);
    });

    it(`a burst of ${BURST} from one sender arrives in send order, each exactly once, and the rate notice counts what waits`, async () => {
      const target = await recipient(RealClaudeSession.start(world, eli, { executable }));
      reportOnFailure({ dana: sender(), target });
      const targetId = target.brigadeSessionId();
      const ids: string[] = [];
      const envelopes: MessageEnvelope[] = [];
      for (let n = 1; n <= BURST; n++) {
        const message = await send(targetId, `Burst item ${n} of ${BURST}.`, ["--wait", "0"]);
        ids.push(message.id);
        envelopes.push(message.envelope);
      }
      // Over the allowance, the rest waits on the server and comes back after the minute.
      await waitFor(
        async () => {
          const rows = await sentRows();
          return ids.every((id) => rows.find((r) => r.message_id === id)?.state === "acked");
        },
        150_000,
        "every message of the burst acked",
      );
      const all = target.api.requests.map((r) => r.raw).join("\n");
      const positions = envelopes.map((envelope) => {
        const frame = JSON.stringify(frameOf(envelope)).slice(1, -1);
        const first = all.indexOf(frame);
        expect(first, `message ${envelope.message_id} read`).toBeGreaterThanOrEqual(0);
        return first;
      });
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      for (const id of ids) expect(timesFramed(target.api, id), `${id} once`).toBe(1);
      // One rate notice, and it never counts more than actually waited: when the model first reads
      // it, at least that many messages of the burst are not yet in its conversation. (How many it
      // names depends on how far the burst got when the eleventh message arrived.)
      const senderName = envelopes[0]?.sender.session_name ?? "";
      const noticeAt = target.api.requests.find((r) =>
        r.raw.includes(`Brigade: ${senderName} sent more than 10 messages within one minute;`),
      );
      if (noticeAt === undefined) throw new Error("no rate notice reached the model");
      const named = Number(/within one minute; (\d+) messages? w/.exec(noticeAt.raw)?.[1] ?? "0");
      expect(named).toBeGreaterThanOrEqual(1);
      expect(named).toBeLessThanOrEqual(BURST - SENDER_ALLOWANCE);
      const unread = ids.filter((id) => !noticeAt.raw.includes(`message-id=\\"${id}\\"`));
      expect(unread.length).toBeGreaterThanOrEqual(named);
      expect(JSON.stringify(noticeAt.body)).toContain(
        JSON.stringify(rateNotice(senderName, named)).slice(1, -1),
      );
    });

    it("a headless `claude -p` run takes a message between tool calls, and the sender sees acked", async () => {
      const run = await recipient(
        HeadlessClaudeSession.start(world, eli, {
          executable,
          prompt: "Stand by.",
          keepInputOpen: true,
        }),
      );
      reportOnFailure({ dana: sender(), headless: run });
      await run.registered();
      await run.waitForModelText((t) => t.text.includes("Stand by."), 60_000, "the first prompt");
      const runId = run.brigadeSessionId();
      // A long turn: tool call after tool call until the message shows up (at most 40).
      const body = "Headless check: the nightly run is green.";
      let seen = false;
      run.api.script(
        ...Array.from({ length: 40 }, () =>
          decide((request) => {
            seen ||= JSON.stringify(request).includes("Headless check");
            return seen ? say("Received.") : bash("sleep 1");
          }),
        ),
      );
      run.send("Run the checks.");
      await run.waitForModelText((t) => t.place === "tool-result", 60_000, "the first tool call");
      const message = await send(runId, body, ["--summary", "Nightly"]);
      await waitFor(() => framedIn(run.api, message.envelope), 60_000, "the frame in the -p run");
      await waitForState(message.id, "acked", 30_000);
      run.endInput();
      expect((await run.waitForExit(60_000)).code).toBe(0);
    });
  });
}
