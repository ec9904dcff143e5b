/**
 * The pull paths on the real Claude Code (the pinned version; docs/42-hooks.md "Acked means read",
 * "Long messages"): a session whose watcher died and cannot be restarted takes teammates'
 * messages through its hooks, the prompt hook's poll (`poll_on_prompt`) and PostToolUse. Claude
 * Code shows the model a hook's output whole only up to 10,000 UTF-16 code units, and past that a
 * short preview (docs/spec/claude-code.md §1.3), so on each path a hostile first message (16 KiB
 * of emoji: 4,096 code points, 8,192 units) is followed by a victim from another sender, a second
 * message of the victim's sender and a 16 KiB ASCII message from a third. The model reads the
 * victim's frame whole at once (nothing blocked behind the long ones), the long ones whole
 * through `brigade inbox show`, each sender's in order, and nothing is acked before the model has
 * read its whole frame: after a turn with no later hook, every message still waits on the server.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../src/formats/frame/index.ts";
import { openHarnessAdapter } from "../src/harness/adapter/index.ts";
import { processLiveness } from "../src/harness/watcher/index.ts";
import type { MessageEnvelope } from "../src/protocol/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import {
  bash,
  claudeCodeExecutable,
  decide,
  modelTexts,
  PINNED_CLAUDE_CODE_VERSION,
  RealClaudeSession,
  type RecordedRequest,
  reportOnFailure,
  type ScriptStep,
  say,
  storedEnvelope,
  storedMessageIds,
} from "./support/real-claude/index.ts";

const TEAM = "billing";
const SHOW = /brigade inbox show (m-[A-Za-z0-9_-]+)/g;

/** The frame the model must read for a stored message, built from the stored envelope alone. */
function frameOf(envelope: MessageEnvelope): string {
  return build(envelope, TEAM, { level: "open", custom: "" });
}

/** Whether `request` shows the model `envelope`'s frame whole (anywhere it reads). */
function readWhole(request: RecordedRequest, envelope: MessageEnvelope): boolean {
  const frame = frameOf(envelope);
  return modelTexts(request.body).some((t) => t.text.includes(frame));
}

/**
 * The model's step while teammates' messages wait for `brigade inbox show`: run it for the first
 * id a hook named that the model has not run yet, else end the turn.
 */
const showNext: ScriptStep = decide((body) => {
  const named: string[] = [];
  const ran = new Set<string>();
  for (const text of modelTexts(body)) {
    for (const match of text.text.matchAll(SHOW)) {
      const id = match[1] as string;
      if (text.place === "tool-use") ran.add(id);
      else if (!named.includes(id)) named.push(id);
    }
  }
  const next = named.find((id) => !ran.has(id));
  return next === undefined
    ? say("Read them all.")
    : bash(`brigade inbox show ${next}`, "Read a long teammate message");
});

describe("the hook paths on the real Claude Code: acked means read, and nothing blocks", () => {
  let executable: string;
  let world: PluginWorld;
  let eli: Person;
  let senders: { emoji: ClaudeCodeHost; ops: ClaudeCodeHost; docs: ClaudeCodeHost };
  const sessions: RealClaudeSession[] = [];

  beforeAll(async () => {
    executable = await claudeCodeExecutable(PINNED_CLAUDE_CODE_VERSION);
    world = await PluginWorld.start("dana", TEAM);
    eli = await world.join("eli");
    senders = {
      emoji: await world.session(world.founder, "emoji"),
      ops: await world.session(world.founder, "ops"),
      docs: await world.session(world.founder, "docs"),
    };
  });

  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await world?.close();
  });

  /**
   * A session of eli's whose watcher is gone for good: killed, its pidfile removed, and a folder
   * standing where its log goes, so every hook's attempt to start one fails (`log_unwritable`)
   * and the hooks deliver.
   */
  async function sessionWithoutWatcher(pluginOptions: Record<string, string>) {
    const session = await RealClaudeSession.start(world, eli, { executable, pluginOptions });
    sessions.push(session);
    reportOnFailure({ eli: session });
    await waitFor(() => existsSync(session.watcherPidfilePath()), 30_000, "the first watcher");
    const { pid } = JSON.parse(readFileSync(session.watcherPidfilePath(), "utf8")) as {
      pid: number;
    };
    process.kill(pid, "SIGKILL");
    await waitFor(() => processLiveness(pid) === "dead", 10_000, "the watcher to die");
    rmSync(session.watcherPidfilePath(), { force: true });
    rmSync(session.watcherLogPath(), { force: true });
    mkdirSync(session.watcherLogPath());
    return session;
  }

  async function send(from: ClaudeCodeHost, to: string, body: string): Promise<MessageEnvelope> {
    const run = await from.runBash(sendCommand(to, body));
    expect(run.exitCode, run.stderr).toBe(0);
    const fromId = world.mapOf(world.founder, from).brigade_session_id;
    const envelope = storedEnvelope(
      world.dataFile,
      storedMessageIds(world.dataFile, fromId, to).at(-1) ?? "",
    );
    if (envelope === undefined) throw new Error("the server stored no message");
    return envelope;
  }

  /** The hostile message first, then the victim, its sender's second, and a 16 KiB ASCII one. */
  async function sendAll(to: string) {
    return {
      hostile: await send(senders.emoji, to, "😀".repeat(4_096)),
      victim: await send(senders.ops, to, "The release branch is frozen until Monday."),
      victimLater: await send(senders.ops, to, "Unfrozen early: go ahead."),
      ascii: await send(senders.docs, to, "a".repeat(16_384)),
    };
  }

  async function unacked(session: RealClaudeSession): Promise<string[]> {
    const map = world.mapOf(eli, session);
    const adapter = openHarnessAdapter({ configDir: eli.configDir, teamKey: map.team_key });
    return (await adapter.messageReceive(map.brigade_session_id)).messages.map((m) => m.message_id);
  }

  /** The first conversation request of `session` that shows `envelope`'s frame whole. */
  function firstRead(session: RealClaudeSession, envelope: MessageEnvelope): number {
    return session.api.requests.findIndex((r) => r.conversation && readWhole(r, envelope));
  }

  /** Every message the server no longer holds for the session was read whole by its model. */
  async function expectNothingAckedUnread(
    session: RealClaudeSession,
    sent: Awaited<ReturnType<typeof sendAll>>,
  ) {
    const waiting = new Set(await unacked(session));
    // The victim first: the message a hostile one would push out of what the model sees.
    for (const name of ["victim", "victimLater", "hostile", "ascii"] as const) {
      const envelope = sent[name];
      if (waiting.has(envelope.message_id)) continue;
      expect(firstRead(session, envelope), `${name} acked unread`).toBeGreaterThanOrEqual(0);
    }
  }

  /** What every case ends with: all read whole, each sender's order, all acked. */
  async function expectAllReadInOrderAndAcked(
    session: RealClaudeSession,
    sent: Awaited<ReturnType<typeof sendAll>>,
  ) {
    await waitFor(async () => (await unacked(session)).length === 0, 60_000, "every ack");
    for (const envelope of Object.values(sent)) {
      expect(firstRead(session, envelope), envelope.message_id).toBeGreaterThanOrEqual(0);
    }
    // One sender's two messages, read in the order sent.
    const request = session.api.requests[firstRead(session, sent.victimLater)];
    const seenVictim = firstRead(session, sent.victim);
    expect(seenVictim).toBeLessThanOrEqual(firstRead(session, sent.victimLater));
    if (seenVictim === firstRead(session, sent.victimLater) && request !== undefined) {
      const all = modelTexts(request.body)
        .map((t) => t.text)
        .join("\n");
      expect(all.indexOf(frameOf(sent.victim))).toBeLessThan(
        all.indexOf(frameOf(sent.victimLater)),
      );
    }
  }

  /**
   * One turn of the model's: the script, the prompt, the turn's end; then nothing may be acked that
   * the model did not read whole. Returns the request that carried the prompt.
   */
  async function turn(
    session: RealClaudeSession,
    sent: Awaited<ReturnType<typeof sendAll>>,
    prompt: string,
    ...steps: ScriptStep[]
  ): Promise<RecordedRequest> {
    session.api.script(...steps);
    const request = await session.prompt(prompt);
    await session.waitForIdle();
    await expectNothingAckedUnread(session, sent);
    return request;
  }

  /**
   * What Claude Code showed the model in `request`: the victim and its sender's second whole, a
   * line naming `brigade inbox show` for each long one, never a cut frame or a preview; and, with
   * no hook run after it, every message still waiting (shown is not read).
   */
  async function expectShownNotRead(
    session: RealClaudeSession,
    request: RecordedRequest,
    sent: Awaited<ReturnType<typeof sendAll>>,
  ) {
    expect(readWhole(request, sent.victim)).toBe(true);
    expect(readWhole(request, sent.victimLater)).toBe(true);
    expect(readWhole(request, sent.hostile)).toBe(false);
    const texts = modelTexts(request.body).map((t) => t.text);
    expect(texts.some((t) => t.includes("<persisted-output>"))).toBe(false);
    for (const id of [sent.hostile.message_id, sent.ascii.message_id]) {
      expect(texts.some((t) => t.includes(`brigade inbox show ${id}`))).toBe(true);
    }
    const all = Object.values(sent).map((e) => e.message_id);
    expect((await unacked(session)).sort()).toEqual(all.sort());
  }

  it("the prompt hook: the victim is read whole at once, the long ones through brigade inbox show, nothing acked before it was read", async () => {
    const eliCc = await sessionWithoutWatcher({ poll_on_prompt: "true" });
    const sent = await sendAll(eliCc.brigadeSessionId());
    // The model only answers: no hook runs after the prompt's in this turn.
    const first = await turn(eliCc, sent, "Any news from the team?", say("Noted."));
    await expectShownNotRead(eliCc, first, sent);
    // The next prompt finds the victims read; the model reads the long ones through the CLI.
    await turn(eliCc, sent, "Read the long ones too.", showNext, showNext, showNext);
    await turn(eliCc, sent, "Thanks.", say("Thanks."));
    await expectAllReadInOrderAndAcked(eliCc, sent);
  }, 240_000);

  it("PostToolUse: the victim is read whole between tool calls, the long ones through brigade inbox show, nothing acked before it was read", async () => {
    const eliCc = await sessionWithoutWatcher({});
    const sent = await sendAll(eliCc.brigadeSessionId());
    // PostToolUse puts them into the request after the tool call; no hook runs after that one.
    await turn(eliCc, sent, "Work on the task.", bash("brigade whoami", "Check"), say("Noted."));
    const after = eliCc.api.requests.filter((r) => r.conversation).at(-1);
    if (after === undefined) throw new Error("no request after the tool call");
    await expectShownNotRead(eliCc, after, sent);
    const check = bash("brigade whoami", "Check again");
    await turn(eliCc, sent, "Read the long ones.", showNext, showNext, check, say("Done."));
    await turn(eliCc, sent, "Thanks.", say("Thanks."));
    await expectAllReadInOrderAndAcked(eliCc, sent);
  }, 240_000);
});
