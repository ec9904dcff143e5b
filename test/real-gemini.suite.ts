import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse as parseSentinel } from "../src/formats/agent-message/index.ts";
import { build } from "../src/formats/frame/index.ts";
import { sentinelFrame } from "../src/harness/mcp/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { type Person, PluginWorld, sendCommand, waitFor } from "./support/plugin-world.ts";
import { storedEnvelope, TmuxClaude } from "./support/real-claude/index.ts";
import { FakeGeminiApi, requestTexts } from "./support/real-gemini/fake-gemini-api.ts";
import { geminiScript } from "./support/real-gemini/gemini-executable.ts";
import {
  boundGeminiSession,
  type GeminiBinding,
  geminiBindings,
  inGeminiRecord,
  prepareGeminiHome,
  runGemini,
  terminal,
} from "./support/real-gemini/gemini-person.ts";
import { BUILT_CLI } from "./support/server-process.ts";

/** Which Gemini CLI a test file runs: its label and how its version is found. */
export interface GeminiChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

const TEAM = "billing";

/** Registers this suite for one Gemini CLI version (a test file per version). */
export function geminiSuite({ which, version: resolveVersion }: GeminiChoice): void {
  describe(`the real Gemini CLI, ${which} version`, () => {
    let world: PluginWorld;
    let dana: Person;
    let lee: Person;
    let danaCc: ClaudeCodeHost;
    let api: FakeGeminiApi;
    let script: string;
    let geminiEnv: Record<string, string>;

    beforeAll(async () => {
      script = await geminiScript(await resolveVersion());
      world = await PluginWorld.start("dana", TEAM);
      dana = world.founder;
      lee = await world.join("lee");
      danaCc = await world.session(dana, "api");
      api = await FakeGeminiApi.start();
      geminiEnv = await prepareGeminiHome(lee, api);
    }, 600_000);

    afterAll(async () => {
      await api?.close();
      await world?.close();
    });

    test("install wrote the extension and the read-only tools' policy; the start binds the session and tells the model", async () => {
      const extension = join(lee.home, ".gemini", "extensions", "brigade");
      const hooks = JSON.parse(readFileSync(join(extension, "hooks", "hooks.json"), "utf8")) as {
        hooks: Record<string, unknown>;
      };
      expect(Object.keys(hooks.hooks).sort()).toEqual([
        "AfterAgent",
        "AfterTool",
        "BeforeAgent",
        "SessionEnd",
        "SessionStart",
      ]);
      const first = api.turns().length;
      const run = await runGemini(script, lee, geminiEnv, [
        "-p",
        "hello",
        "-m",
        "gemini-2.5-flash",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const bound = boundGeminiSession(lee);
      expect(bound).toBeDefined();
      const turn = api.turns()[first];
      expect(turn).toBeDefined();
      const text = requestTexts(turn as never).join("\n");
      expect(text).toContain(
        `Brigade: this session is "billing-gemini" (${bound?.brigadeId}) in the team "${TEAM}".`,
      );
    }, 180_000);

    test("a teammate's message: the turn's notice, the inbox tool's sentinel + frame byte for byte, acked only after; the reply reaches the sender", async () => {
      const bound = boundGeminiSession(lee);
      if (bound === undefined) throw new Error("the start did not bind the session");
      const danaId = world.mapOf(dana, danaCc).brigade_session_id;
      const body = "Please rerun the billing migration <script>&amp; report back.";
      const sent = await danaCc.runBash(sendCommand(bound.brigadeId, body));
      expect(sent.exitCode, sent.stderr).toBe(0);
      const messageId = /Sent message (m-[0-9a-f]+)/.exec(sent.stdout)?.[1];
      if (messageId === undefined) throw new Error(sent.stdout);
      const state = async (): Promise<string> => {
        const run = await danaCc.runBash("brigade sent");
        return run.stdout;
      };
      expect(await state()).not.toMatch(new RegExp(`${messageId}.*acked`));

      const reply = "reply from gemini: migration rerun";
      api.script(
        { call: { name: "mcp_brigade_inbox", args: {} } },
        { call: { name: "mcp_brigade_send", args: { to: danaId, body: reply } } },
        { text: "done" },
      );
      const first = api.turns().length;
      const run = await runGemini(script, lee, geminiEnv, [
        "-p",
        "carry on",
        "-m",
        "gemini-2.5-flash",
        "--resume",
        "latest",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const turns = api.turns().slice(first);
      expect(turns.length).toBeGreaterThanOrEqual(3);
      // The same Gemini session resumed the same Brigade session.
      expect(boundGeminiSession(lee)?.brigadeId).toBe(bound.brigadeId);
      const noticeTurn = requestTexts(turns[0] as never).join("\n");
      expect(noticeTurn).toContain(
        "Brigade: 1 message from teammates' coding-agent sessions is waiting for this session; read it with the brigade inbox tool.",
      );
      // The notice carries no text of the message.
      expect(noticeTurn).not.toContain("billing migration");

      const envelope = storedEnvelope(world.dataFile, messageId);
      if (envelope === undefined) throw new Error("the message is not stored");
      const frame = build(envelope, TEAM, { level: "open", custom: "" });
      const workspace = `brigade:${world.mapOf(dana, danaCc).team_ref}@${new URL(world.server.url).host}`;
      const expected = sentinelFrame(frame, envelope.sender.session_id, workspace);
      const outputs = requestTexts(turns[1] as never);
      expect(outputs).toContain(`<untrusted_context>\n${expected}\n</untrusted_context>`);
      // The origin Gemini's model parses from what it read is the server's: Dana's session, injected.
      const read = outputs.find((o) => o.includes("lsp:agent-message-v1")) ?? "";
      const origin = parseSentinel(read.replace(/^<untrusted_context>\n/, ""));
      expect(origin.origin?.fromSession).toBe(danaId);
      expect(origin.origin?.mode).toBe("injected");

      await waitFor(
        async () => new RegExp(`${messageId}.*acked`).test(await state()),
        10_000,
        "the sender's state acked",
      );
      await waitFor(
        () => {
          danaCc.settle();
          return danaCc.socketReads().some((read) => read.includes(reply));
        },
        15_000,
        "the reply in the sender's inbox",
      );
      // What the server reports acked is in Gemini's own record of the conversation.
      expect(inGeminiRecord(bound, messageId)).toBe(true);
    }, 240_000);

    test("a message that arrives during a turn is announced in the next tool's result, and stays unacked while no inbox read it", async () => {
      const before = new Set(geminiBindings(lee).map((b) => b.nativeId));
      let messageId = "";
      api.script(
        async () => {
          const bound = geminiBindings(lee).find((b) => !before.has(b.nativeId));
          if (bound === undefined) throw new Error("the start bound no session");
          const sent = await danaCc.runBash(sendCommand(bound.brigadeId, "a note mid-turn"));
          messageId = /Sent message (m-[0-9a-f]+)/.exec(sent.stdout)?.[1] ?? "";
          return { call: { name: "list_directory", args: { dir_path: "." } } };
        },
        { text: "done" },
      );
      const first = api.turns().length;
      const run = await runGemini(script, lee, geminiEnv, [
        "-p",
        "list the files",
        "-m",
        "gemini-2.5-flash",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const [start, afterTool] = api
        .turns()
        .slice(first)
        .map((turn) => requestTexts(turn).join("\n"));
      const notice =
        "Brigade: 1 message from teammates' coding-agent sessions is waiting for this session";
      expect(start).not.toContain(notice);
      expect(afterTool).toContain(notice);
      expect(afterTool).not.toContain("a note mid-turn");
      expect(messageId).not.toBe("");
      expect((await danaCc.runBash("brigade sent")).stdout).not.toMatch(
        new RegExp(`${messageId}.*acked`),
      );
    }, 180_000);

    test("interactive, under tmux: a message sent while the session waits is announced at the next prompt, read through the tool, acked, answered", async () => {
      const before = new Set(geminiBindings(lee).map((b) => b.nativeId));
      const dir = mkdtempSync(join(world.root, "gm-"));
      const gemini = await TmuxClaude.start({
        executable: process.execPath,
        args: [script, "-m", "gemini-2.5-flash"],
        cwd: lee.checkout,
        env: geminiEnv,
        dir,
      });
      try {
        const screen = await gemini.waitForPane("Type your message", 60_000, "Gemini's prompt");
        // The policy `brigade install gemini` wrote loads without a warning.
        expect(screen).not.toContain("Policy file warning");
        let bound: GeminiBinding | undefined;
        await waitFor(
          () => {
            bound = geminiBindings(lee).find((b) => !before.has(b.nativeId));
            return bound !== undefined;
          },
          20_000,
          "the interactive session's binding",
        );
        if (bound === undefined) throw new Error("no binding");
        const danaId = world.mapOf(dana, danaCc).brigade_session_id;
        const sent = await danaCc.runBash(sendCommand(bound.brigadeId, "Is the deploy green?"));
        expect(sent.exitCode, sent.stderr).toBe(0);
        const messageId = /Sent message (m-[0-9a-f]+)/.exec(sent.stdout)?.[1] ?? "";
        const reply = "interactive reply: the deploy is green";
        api.script(
          { call: { name: "mcp_brigade_inbox", args: {} } },
          { call: { name: "mcp_brigade_send", args: { to: danaId, body: reply } } },
          { text: "done" },
        );
        const first = api.turns().length;
        // The prompt's text, then Enter once it is on screen: Gemini takes keys that arrive
        // together as a paste, where Enter is a newline, not a submit.
        await gemini.keys("-l", "--", "anything from the team");
        await gemini.waitForPane("anything from the team", 30_000, "the prompt on Gemini's screen");
        await gemini.keys("Enter");
        await waitFor(() => api.turns().length > first, 30_000, "the prompt's model turn").catch(
          async () => {
            await gemini.keys("Enter");
            await waitFor(() => api.turns().length > first, 30_000, "the prompt's model turn");
          },
        );
        await waitFor(
          () => {
            // The stand-in reads what its inbox queued while an earlier post's turn ran.
            danaCc.settle();
            return danaCc.socketReads().some((read) => read.includes(reply));
          },
          60_000,
          "the reply in the sender's inbox",
        ).catch((error: unknown) => {
          throw new Error(`${String(error)}; Gemini's screen:\n${gemini.pane()}`);
        });
        const turns = api.turns().slice(first);
        expect(requestTexts(turns[0] as never).join("\n")).toContain(
          "Brigade: 1 message from teammates' coding-agent sessions is waiting for this session",
        );
        expect(requestTexts(turns[1] as never).join("\n")).toContain(`message-id="${messageId}"`);
        await waitFor(
          async () =>
            new RegExp(`${messageId}.*acked`).test((await danaCc.runBash("brigade sent")).stdout),
          10_000,
          "the sender's state acked",
        );
        const record = bound;
        await waitFor(
          () => inGeminiRecord(record, messageId),
          10_000,
          "the frame in Gemini's record",
        );
      } finally {
        await gemini.close();
      }
    }, 240_000);

    test("interactive, under tmux: the model's shell command has a terminal on stdin and stdout; with Gemini's markers stripped, brigade send --as-me is refused beneath Gemini's process and sends nothing", async () => {
      const dir = mkdtempSync(join(world.root, "gm-as-me-"));
      // The person lets the model run shell commands without asking (as `--yolo` would).
      const policy = join(lee.home, ".gemini", "policies", "person-allows-shell.toml");
      writeFileSync(
        policy,
        '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 100\n',
      );
      const danaId = world.mapOf(dana, danaCc).brigade_session_id;
      const sentAsPerson = async (): Promise<number> => {
        const run = await terminal(lee, ["sent", "--json"]);
        const doc = JSON.parse(run.stdout) as { messages: { sender: string }[] };
        return doc.messages.filter((m) => m.sender === "person").length;
      };
      const before = await sentAsPerson();
      const gemini = await TmuxClaude.start({
        executable: process.execPath,
        args: [script, "-m", "gemini-2.5-flash"],
        cwd: lee.checkout,
        env: geminiEnv,
        dir,
      });
      try {
        await gemini.waitForPane("Type your message", 60_000, "Gemini's prompt");
        const command = [
          "[ -t 0 ] && echo stdin-tty",
          "[ -t 1 ] && echo stdout-tty",
          // Gemini blocks command substitution in a command: the names, one a line.
          "env | grep -o -e ^GEMINI_CLI= -e ^GEMINI_SESSION_ID=",
          `env -u GEMINI_CLI -u GEMINI_SESSION_ID ${process.execPath} ${BUILT_CLI} send --as-me ${danaId} "as the person"`,
          'echo "as-me exit: $?"',
        ].join("; ");
        api.script({ call: { name: "run_shell_command", args: { command } } }, { text: "done" });
        const first = api.turns().length;
        await gemini.keys("-l", "--", "run it");
        await gemini.waitForPane("run it", 30_000, "the prompt on Gemini's screen");
        await gemini.keys("Enter");
        await waitFor(() => api.turns().length > first, 30_000, "the prompt's model turn").catch(
          async () => {
            await gemini.keys("Enter");
            await waitFor(() => api.turns().length > first, 30_000, "the prompt's model turn");
          },
        );
        await waitFor(
          () => api.turns().length > first + 1,
          60_000,
          "the shell command's result turn",
        ).catch((error: unknown) => {
          throw new Error(`${String(error)}; Gemini's screen:\n${gemini.pane()}`);
        });
        const output = requestTexts(api.turns()[first + 1] as never).join("\n");
        // Measured facts: node-pty gives the command a terminal on both ends, and its markers
        // are set until the model strips them.
        expect(output, output).toContain("stdin-tty");
        expect(output, output).toContain("stdout-tty");
        expect(output, output).toContain("GEMINI_CLI=");
        expect(output, output).toContain("as_me_under_agent");
        expect(output, output).toContain("as-me exit: 2");
        expect(await sentAsPerson()).toBe(before);
      } finally {
        await gemini.close();
        rmSync(policy, { force: true });
      }
    }, 240_000);

    test("a repository .env that chooses Brigade's folders: Gemini passes it on, the session is not connected and the tools refuse", async () => {
      const dotenv = join(lee.checkout, ".env");
      const elsewhere = join(world.root, "repository-state");
      writeFileSync(dotenv, `XDG_STATE_HOME=${elsewhere}\n`);
      try {
        api.script({ call: { name: "mcp_brigade_inbox", args: {} } }, { text: "done" });
        const first = api.turns().length;
        const run = await runGemini(script, lee, geminiEnv, [
          "-p",
          "hello",
          "-m",
          "gemini-2.5-flash",
        ]);
        expect(run.code, run.stderr).toBe(0);
        const texts = api
          .turns()
          .slice(first)
          .map((turn) => requestTexts(turn).join("\n"));
        expect(
          texts.some((t) =>
            t.includes(
              "Brigade: not connected: a .env file of this repository sets where Brigade keeps its files",
            ),
          ),
          texts.join("\n----\n").slice(-3000),
        ).toBe(true);
        expect(
          texts.some((t) => t.includes("config: repository_env: ")),
          texts.join("\n----\n").slice(-3000),
        ).toBe(true);
        expect(() => readdirSync(elsewhere)).toThrow();
      } finally {
        rmSync(dotenv, { force: true });
      }
    }, 180_000);
  });
}
