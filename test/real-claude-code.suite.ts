/**
 * The plugin on the real Claude Code (docs/47-real-client-tests.md): the linux-x64 executable of
 * the pinned version and of the newest published one, interactive under tmux, each session with
 * its own home and config folder and its own loopback fake of the Messages API, on one local
 * `brigade serve`. What the model reads is asserted byte for byte from the requests the fake
 * recorded; the expected frames are built from the envelopes the server stored.
 */
import { existsSync, lstatSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, wrap } from "../src/formats/frame/index.ts";
import { openHarnessAdapter } from "../src/harness/adapter/index.ts";
import { CLAUDE_CODE_COMMAND_VARIABLES } from "../src/harness/claude-code/index.ts";
import { contextLine, heldLine } from "../src/harness/hooks/index.ts";
import type { MessageEnvelope } from "../src/protocol/index.ts";
import { asMeProbe, sentAsPerson } from "./support/as-me-probe.ts";
import { hookContextText, skillListing } from "./support/claude-code-host/index.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import type { ClaudeCodeChoice } from "./support/real-claude/index.ts";
import {
  bash,
  type ClaudeSession,
  claudeCodeExecutable,
  decide,
  HeadlessClaudeSession,
  type ModelText,
  modelTexts,
  RealClaudeSession,
  reportOnFailure,
  say,
  storedEnvelope,
  storedMessageIds,
} from "./support/real-claude/index.ts";

const TEAM = "billing";

/** The frame the watcher must post for a stored message, built from the stored envelope alone. */
function expectedPost(envelope: MessageEnvelope): string {
  return wrap(build(envelope, TEAM, { level: "open", custom: "" }), envelope.sender.session_name);
}

/**
 * Whether a hook's stdout `line` reached the model in either form the real client uses: a
 * paragraph of its own in a system-role message (the first one also holds Claude Code's own
 * paragraphs), or a
 * `<system-reminder>` in a user message (the form for APIs that refuse system messages).
 */
function hookContextRead(
  texts: readonly ModelText[],
  event: "SessionStart" | "UserPromptSubmit",
  line: string,
): boolean {
  const source = event === "SessionStart" ? "startup" : undefined;
  const message = hookContextText(event, source, line, "system-message");
  const reminder = hookContextText(event, source, line, "system-reminder");
  return texts.some(
    (text) =>
      (text.place === "system" && text.text.split("\n\n").includes(message)) ||
      (text.place === "user" && text.text.includes(reminder)),
  );
}

/** Registers this suite for one Claude Code (a test file per version: docs/47). */
export function claudeCodeSuite({ which, version: resolveVersion }: ClaudeCodeChoice): void {
  describe(`the real Claude Code, ${which} version`, () => {
    let version: string;
    let world: PluginWorld;
    let dana: Person;
    let eli: Person;
    let danaCc: RealClaudeSession | undefined;
    let eliCc: RealClaudeSession | undefined;
    let holderCc: RealClaudeSession | undefined;
    let danaId: string;
    let eliId: string;

    beforeAll(async () => {
      version = await resolveVersion();
      const executable = await claudeCodeExecutable(version);
      world = await PluginWorld.start("dana", TEAM);
      dana = world.founder;
      eli = await world.join("eli");
      // Both start at once; each is kept as soon as it runs, so afterAll stops a started one even
      // when the other failed.
      const starts = await Promise.allSettled([
        RealClaudeSession.start(world, dana, { executable }).then((session) => {
          danaCc = session;
        }),
        RealClaudeSession.start(world, eli, { executable }).then((session) => {
          eliCc = session;
        }),
      ]);
      for (const start of starts) if (start.status === "rejected") throw start.reason;
      danaId = danaSession().brigadeSessionId();
      eliId = eliSession().brigadeSessionId();
    });

    afterAll(async () => {
      await Promise.all([danaCc?.close(), eliCc?.close(), holderCc?.close()]);
      await world?.close();
    });

    /** Dana's session (started in beforeAll). */
    function danaSession(): RealClaudeSession {
      if (danaCc === undefined) throw new Error("dana's session did not start");
      return danaCc;
    }

    function eliSession(): RealClaudeSession {
      if (eliCc === undefined) throw new Error("eli's session did not start");
      return eliCc;
    }

    /** The team as a member's own adapter sees it (offline sessions included). */
    async function teamSessions(who: Person, teamKeyOf: ClaudeSession) {
      const map = world.mapOf(who, { claudePid: teamKeyOf.claudePid });
      const adapter = openHarnessAdapter({ configDir: who.configDir, teamKey: map.team_key });
      return (await adapter.sessionList({ includeOffline: true })).sessions;
    }

    it("runs the executable of the version asked for", () => {
      expect(eliSession().registry().version).toBe(version);
    });

    it("the model reads the plugin's context line with its first prompt", async () => {
      const eliCc = eliSession();
      reportOnFailure({ eli: eliCc });
      const [record] = (await teamSessions(eli, eliCc)).filter((s) => s.session_id === eliId);
      expect(record?.state).not.toBe("offline");
      const line = contextLine({
        sessionName: record?.session_name ?? "",
        sessionId: eliId,
        teamName: TEAM,
        policy: "accept",
      });
      eliCc.api.script(say("Hello."));
      const request = await eliCc.prompt("Good morning.");
      const texts = modelTexts(request.body);
      expect(hookContextRead(texts, "SessionStart", line), "the context line, whole").toBe(true);
      // The skills the model may invoke are listed as the stand-in host renders them.
      for (const skill of skillListing(world.pluginRoot))
        expect(texts.some((text) => text.text.includes(skill))).toBe(true);
      // Nothing secret beside it: not the native session id, not a path to the tool.
      const registry = eliCc.registry();
      for (const text of texts.filter((t) => t.text.includes("Brigade:"))) {
        expect(text.text).not.toContain(registry.sessionId);
        expect(text.text).not.toContain(world.pluginRoot);
      }
    });

    it("`brigade sessions` and `brigade send` run through the Bash tool; the message reaches the other model as the exact frame, and its reply comes back with --reply-to", async () => {
      const danaCc = danaSession();
      const eliCc = eliSession();
      reportOnFailure({ dana: danaCc, eli: eliCc });
      const body = "Column plan_tier is now NOT NULL.\nPlease re-run the migration.";
      danaCc.api.script(
        bash("brigade sessions"),
        bash(sendCommand(eliId, body, ' --summary "Schema bumped"')),
        say("Sent."),
      );
      // Eli's model answers the delivered message with the reply command its frame names.
      eliCc.api.script(
        decide((request) => {
          const framed = modelTexts(request).find((t) => t.text.includes("--reply-to"));
          const command = /brigade send \S+ --reply-to \S+ <<'EOF'/.exec(framed?.text ?? "")?.[0];
          return command === undefined
            ? say("I see no reply command.")
            : bash(`${command}\nMigration re-run; all green.\nEOF`);
        }),
        say("Replied."),
      );
      const from = eliCc.api.requests.length;
      await danaCc.prompt("Tell the web session about the schema change.");

      const listed = await danaCc.waitForModelText(
        (t) => t.place === "tool-result" && t.text.includes("(this session)"),
        60_000,
        "the output of brigade sessions",
      );
      expect(listed.text.text).toContain(eliId);
      expect(listed.text.text).toMatch(new RegExp(`${danaId}.*\\(this session\\)`));
      const sent = await danaCc.waitForModelText(
        (t) => t.place === "tool-result" && t.text.includes("Sent message"),
        60_000,
        "the output of brigade send",
      );
      expect(sent.text.text).toContain(eliId);

      const [messageId] = storedMessageIds(world.dataFile, danaId, eliId);
      const envelope = storedEnvelope(world.dataFile, messageId ?? "");
      if (envelope === undefined) throw new Error("the server stored no message");
      expect(envelope.body).toBe(body);
      const post = expectedPost(envelope);
      const delivered = await eliCc.waitForModelText(
        (t) => t.place === "user" && t.text.includes(post),
        60_000,
        "the framed message in eli's model request",
        from,
      );
      // Exactly one frame: Claude Code's own header and trust paragraph around it, nothing forged.
      expect(delivered.text.text.match(/<brigade-message[\s>]/g)).toHaveLength(1);
      expect(delivered.text.text.match(/<\/brigade-message>/g)).toHaveLength(1);

      // The reply, sent by eli's model through its Bash tool, reaches dana's model framed.
      await waitFor(
        () => storedMessageIds(world.dataFile, eliId, danaId).length === 1,
        60_000,
        "eli's reply on the server",
      );
      const [replyId] = storedMessageIds(world.dataFile, eliId, danaId);
      const reply = storedEnvelope(world.dataFile, replyId ?? "");
      if (reply === undefined) throw new Error("the server stored no reply");
      expect(reply.reply_to).toBe(messageId);
      expect(reply.body).toBe("Migration re-run; all green.");
      const replyPost = expectedPost(reply);
      expect(replyPost).toContain(`in-reply-to="${messageId}"`);
      // The reply may land while dana's turn is still running: Claude Code then hands it to the model
      // as a system message between tool calls instead of a user message; the frame is the same.
      await danaCc.waitForModelText(
        (t) => (t.place === "user" || t.place === "system") && t.text.includes(replyPost),
        60_000,
        "the framed reply in dana's model request",
      );
    });

    it("a session whose inbound is hold: the message waits, its model reads only the notice, and `brigade inbox release` in the user's terminal delivers it", async () => {
      const danaCc = danaSession();
      holderCc = await RealClaudeSession.start(world, eli, {
        executable: await claudeCodeExecutable(version),
        pluginOptions: { team_inbound: "hold" },
      });
      const holder = holderCc;
      reportOnFailure({ dana: danaCc, holder });
      const holderId = holder.brigadeSessionId();
      // Dana's previous turn (reading the reply) is over before her script gets its next steps.
      await danaCc.waitForIdle();
      const secret = "Secret plan: ship on Friday.";
      danaCc.api.script(
        bash(sendCommand(holderId, secret, ' --summary "Release date"')),
        say("Sent."),
      );
      await danaCc.prompt("Tell the held session the release date.");
      const sent = await danaCc.waitForModelText(
        (t) => t.place === "tool-result" && t.text.includes(holderId),
        60_000,
        "the output of brigade send",
      );
      // Either the state the recipient's harness already reported, or, while still only accepted,
      // the recipient's advertised hold policy.
      expect(sent.text.text).toMatch(/State: held by the recipient|holds incoming messages/);
      await waitFor(
        async () => (await world.terminal(eli, ["inbox"])).stdout.includes("Release date"),
        30_000,
        "the held record in `brigade inbox`",
      );

      // The next prompt's hook tells the model that a message is held, never what it says.
      const [messageId] = storedMessageIds(world.dataFile, danaId, holderId);
      const envelope = storedEnvelope(world.dataFile, messageId ?? "");
      if (envelope === undefined) throw new Error("the server stored no message");
      holder.api.script(say("Understood."));
      const prompt = await holder.prompt("Anything new?");
      const texts = modelTexts(prompt.body);
      const held = heldLine([envelope.sender.session_name]);
      expect(hookContextRead(texts, "UserPromptSubmit", held), "the held notice").toBe(true);
      expect(holder.api.requests.some((r) => r.raw.includes("Secret plan"))).toBe(false);
      await holder.waitForIdle();

      const released = await world.terminal(eli, [
        "inbox",
        "release",
        "--session",
        holderId,
        "--all",
      ]);
      expect(released.code, released.stderr).toBe(0);
      await holder.waitForModelText(
        (t) => t.place === "user" && t.text.includes(expectedPost(envelope)),
        60_000,
        "the released message in the holder's model request",
      );
    });

    it("headless `claude -p` binds the inbox socket, says sdk-cli, runs the hooks and reads the context line", async () => {
      const run = await HeadlessClaudeSession.start(world, eli, {
        executable: await claudeCodeExecutable(version),
        prompt: "Summarise the repository.",
        keepInputOpen: true,
      });
      try {
        reportOnFailure({ headless: run });
        await run.registered();
        const registry = run.registry();
        expect(registry.entrypoint).toBe("sdk-cli");
        expect(lstatSync(registry.messagingSocketPath ?? "").isSocket()).toBe(true);
        const runId = run.brigadeSessionId();
        const [record] = (await teamSessions(eli, run)).filter((s) => s.session_id === runId);
        const line = contextLine({
          sessionName: record?.session_name ?? "",
          sessionId: runId,
          teamName: TEAM,
          policy: "accept",
        });
        const { request } = await run.waitForModelText(
          (t) => t.text.includes("Summarise the repository."),
          60_000,
          "the prompt",
        );
        expect(hookContextRead(modelTexts(request.body), "SessionStart", line)).toBe(true);
        run.endInput();
        expect((await run.waitForExit(60_000)).code).toBe(0);
        expect(existsSync(run.byPidMapPath()), "SessionEnd removed the by-pid map").toBe(false);
      } finally {
        await run.close();
      }
    });

    it("the model's Bash tool has pipes on stdin and stdout; with every variable Claude Code sets stripped, brigade send --as-me is refused beneath Claude Code's process and sends nothing", async () => {
      // Eli lets the model run any command without asking (bypass mode): the permission prompt is
      // Claude Code's, not under test.
      const bypass = await RealClaudeSession.start(world, eli, {
        executable: await claudeCodeExecutable(version),
        permissionMode: "bypassPermissions",
      });
      try {
        reportOnFailure({ bypass });
        const sent = async (): Promise<number> =>
          sentAsPerson((await world.terminal(eli, ["sent", "--json"])).stdout);
        const before = await sent();
        const command = asMeProbe(
          bypass.dir,
          CLAUDE_CODE_COMMAND_VARIABLES,
          ["CLAUDE[A-Z_]*="],
          danaId,
        );
        bypass.api.script(bash(command, "Run the check"), say("Done."));
        await bypass.prompt("Run the check.");
        const result = await bypass.waitForModelText(
          (t) => t.place === "tool-result" && t.text.includes("as-me exit:"),
          60_000,
          "the command's result",
        );
        const output = result.text.text;
        expect(output, output).toContain("in-pipe");
        expect(output, output).toContain("out-pipe");
        expect(output, output).toContain("CLAUDE_PID=");
        // The ancestry check refuses before the terminal check would.
        expect(output, output).toContain("as_me_under_agent");
        expect(output, output).toContain("as-me exit: 2");
        expect(await sent()).toBe(before);
      } finally {
        await bypass.close();
      }
    });

    it("SessionEnd (the user's /exit) closes the session on the server", async () => {
      const danaCc = danaSession();
      const eliCc = eliSession();
      reportOnFailure({ dana: danaCc });
      await danaCc.waitForIdle();
      // Without its watcher, whose liveness tick would also close the session once Claude Code is
      // gone, only the SessionEnd hook can close it before the lease runs out.
      const watcher = world.watcherPidOf(dana, { claudePid: danaCc.claudePid });
      process.kill(watcher, "SIGKILL");
      await danaCc.end();
      expect(existsSync(danaCc.byPidMapPath()), "SessionEnd removed the by-pid map").toBe(false);
      await waitFor(
        async () =>
          (await teamSessions(eli, eliCc)).find((s) => s.session_id === danaId)?.state ===
          "offline",
        15_000,
        "dana's session offline on the server",
      );
    });
  });
}
