/**
 * An admission drop on the real Claude Code (docs/41-watcher.md "Acked means in the
 * conversation", "One sender's order"; docs/spec/claude-code.md §3.3): a second program posting
 * to the recipient's inbox socket fills Claude Code's queue of 50 during a busy turn, so Claude
 * Code drops the watcher's post of a Brigade message. The message is not acked while it is not in
 * the conversation and the sender sees `accepted`; once the turn is over the watcher finds the
 * post missing and posts it again, and the message reaches the model exactly once, is acked, and
 * keeps its place before the sender's next message. Both versions, like the other real-client
 * files.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, wrap } from "../src/formats/frame/index.ts";
import type { MessageEnvelope } from "../src/protocol/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import type { ClaudeCodeChoice } from "./support/real-claude/index.ts";
import {
  claudeCodeExecutable,
  postAsAnotherProgram,
  RealClaudeSession,
  reportOnFailure,
  say,
  stall,
  storedEnvelope,
  storedMessageIds,
} from "./support/real-claude/index.ts";

const TEAM = "billing";
/** Claude Code's cap on queued peer posts (docs/spec/claude-code.md §3.3). */
const QUEUE_CAP = 50;
/**
 * What Claude Code writes into the transcript when it drops a post over that cap (2.1.334,
 * 2.1.335): the sender named by our wrapper's `from-name` (dana's session is "api").
 */
const QUEUE_FULL_LINE =
  "Dropped a peer message from @api (unknown): this session has too many undelivered peer messages queued.";

interface LogEvent {
  readonly event: string;
  readonly message_id?: string;
  readonly item?: string;
}

/** Registers this suite for one Claude Code (a test file per version: docs/47). */
export function admissionDropSuite({ which, version: resolveVersion }: ClaudeCodeChoice): void {
  describe(`an admission drop on the real Claude Code, ${which} version`, () => {
    let executable: string;
    let world: PluginWorld;
    let eli: Person;
    let sender: ClaudeCodeHost;
    let danaId: string;
    let eliCc: RealClaudeSession | undefined;

    beforeAll(async () => {
      executable = await claudeCodeExecutable(await resolveVersion());
      world = await PluginWorld.start("dana", TEAM);
      eli = await world.join("eli");
      sender = await world.session(world.founder, "api");
      danaId = world.mapOf(world.founder, sender).brigade_session_id;
    });

    afterAll(async () => {
      await eliCc?.close();
      await world?.close();
    });

    /** Dana sends `body` through her session's Bash tool; the envelope the server stored. */
    async function send(to: string, body: string): Promise<MessageEnvelope> {
      const run = await sender.runBash(sendCommand(to, body));
      expect(run.exitCode, run.stderr).toBe(0);
      const envelope = storedEnvelope(
        world.dataFile,
        storedMessageIds(world.dataFile, danaId, to).at(-1) ?? "",
      );
      if (envelope === undefined) throw new Error("the server stored no message");
      return envelope;
    }

    /** The state of `id` as dana's own `brigade sent --json` reports it. */
    async function stateOf(id: string): Promise<string | undefined> {
      const run = await sender.runBash("brigade sent --json --limit 50");
      expect(run.exitCode, run.stderr).toBe(0);
      const rows = (JSON.parse(run.stdout) as { messages: { message_id: string; state: string }[] })
        .messages;
      return rows.find((row) => row.message_id === id)?.state;
    }

    it("the dropped post is not acked, is posted again once the turn is over, and arrives once and in order", async () => {
      const session = await RealClaudeSession.start(world, eli, { executable });
      eliCc = session;
      reportOnFailure({ eli: session });
      const to = session.brigadeSessionId();
      const transcript = (): string[] => {
        const path = session.transcriptPath();
        return path === undefined ? [] : readFileSync(path, "utf8").trim().split("\n");
      };
      const enqueued = () =>
        transcript().filter((line) => line.includes('"operation":"enqueue"')).length;
      const events = (id: string): string[] =>
        existsSync(session.watcherLogPath())
          ? readFileSync(session.watcherLogPath(), "utf8")
              .trim()
              .split("\n")
              .map((line) => JSON.parse(line) as LogEvent)
              .filter((e) => e.message_id === id || e.item === id)
              .map((e) => e.event)
          : [];
      const postOf = (envelope: MessageEnvelope) =>
        JSON.stringify(wrap(build(envelope, TEAM, { level: "open", custom: "" }), "api")).slice(
          1,
          -1,
        );
      const readBy = (envelope: MessageEnvelope) =>
        session.api.requests.some((r) => r.conversation && r.raw.includes(postOf(envelope)));

      // A turn that stays busy: the model's answer does not come until the test releases it.
      let release = (): void => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      session.api.script(stall(released, say("Done.")));
      await session.prompt("Work on the migration.");
      // Another program fills Claude Code's queue: two posters of 25 (each its own sender for
      // Claude Code's per-sender bucket of 30).
      const socket = session.registry().messagingSocketPath ?? "";
      const fill = (who: string) =>
        Array.from({ length: QUEUE_CAP / 2 }, (_, n) => `Status ${who}-${n + 1}: nothing to do.`);
      await postAsAnotherProgram(socket, fill("a"));
      await postAsAnotherProgram(socket, fill("b"));
      await waitFor(() => enqueued() === QUEUE_CAP, 15_000, "the queue full");

      // The watcher's post of dana's message is dropped by Claude Code.
      const first = await send(to, "The schema freeze starts at 15:00.");
      await waitFor(() => events(first.message_id).includes("posted"), 30_000, "the post");
      await waitFor(
        () => transcript().some((line) => line.includes(QUEUE_FULL_LINE)),
        15_000,
        "Claude Code's drop line",
      );
      expect(enqueued()).toBe(QUEUE_CAP);
      expect(readBy(first)).toBe(false);
      expect(events(first.message_id)).not.toContain("ack_sent");
      expect(await stateOf(first.message_id)).toBe("accepted");

      // The turn ends; Claude Code takes the 50 queued posts. Dana's next message must not overtake
      // the dropped one when it is posted again.
      release();
      await session.waitForIdle(60_000);
      const second = await send(to, "The freeze ends at 18:00.");
      await waitFor(
        async () =>
          (await stateOf(first.message_id)) === "acked" &&
          (await stateOf(second.message_id)) === "acked",
        120_000,
        "both acked",
      );
      expect(events(first.message_id)).toEqual([
        "message_offered",
        "posted",
        "post_missing",
        "reposted",
        "in_conversation",
        "ack_sent",
      ]);
      expect(events(second.message_id)).toEqual([
        "message_offered",
        "posted",
        "in_conversation",
        "ack_sent",
      ]);
      // Each reached the model exactly once, the first before the second.
      await waitFor(() => readBy(second), 30_000, "the second message read");
      const all = session.api.conversation().at(-1)?.raw ?? "";
      const at = (envelope: MessageEnvelope) => all.indexOf(postOf(envelope));
      expect(at(first)).toBeGreaterThanOrEqual(0);
      expect(at(first)).toBeLessThan(at(second));
      for (const envelope of [first, second]) {
        expect(all.split(postOf(envelope)).length - 1, envelope.message_id).toBe(1);
      }
    }, 300_000);
  });
}
