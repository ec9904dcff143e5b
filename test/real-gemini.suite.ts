/**
 * The Gemini CLI lane on the real client (docs/49-hosts.md, docs/47-real-client-tests.md's shape):
 * `@google/gemini-cli` installed from the npm registry, started headless (`gemini -p`) against a
 * loopback fake of the Gemini API, with the extension `brigade install gemini` wrote. A teammate's
 * stand-in Claude Code session sends; Gemini's model reads the message through the `inbox` tool
 * as the sentinel + frame, byte for byte, the sender sees `acked` only after, and the model's
 * reply through `send` reaches the stand-in's inbox.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
import { BUILT_CLI } from "./support/server-process.ts";

/** Which Gemini CLI a test file runs: its label and how its version is found. */
export interface GeminiChoice {
  readonly which: "pinned" | "newest";
  readonly version: () => Promise<string>;
}

const TEAM = "billing";

interface GeminiRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <gemini.js> …args` in `who`'s checkout with `env`, bounded at 90 s. */
function runGemini(
  script: string,
  who: Person,
  env: Record<string, string>,
  args: string[],
): Promise<GeminiRun> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: who.checkout,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return new Promise((resolve) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Runs the person's own `brigade` (this checkout's CLI) in their terminal. */
function terminal(who: Person, args: string[]): Promise<GeminiRun> {
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: who.checkout,
    env: who.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** One Gemini session the hooks bound (its binding file). */
interface GeminiBinding {
  readonly nativeId: string;
  readonly brigadeId: string;
  /** Gemini's own record of the conversation (`transcript_path`), or `""`. */
  readonly transcript: string;
}

/** Every Gemini session the hooks bound for `who` (their binding files). */
function geminiBindings(who: Person): GeminiBinding[] {
  const folder = join(who.stateDir, "sessions", "by-harness", "gemini");
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  return names.map((name) => {
    const map = JSON.parse(readFileSync(join(folder, name), "utf8")) as {
      claude_session_id: string;
      brigade_session_id: string;
      transcript_path?: string;
    };
    return {
      nativeId: map.claude_session_id,
      brigadeId: map.brigade_session_id,
      transcript: map.transcript_path ?? "",
    };
  });
}

/** The one Gemini session bound for `who`, when there is exactly one. */
function boundGeminiSession(who: Person): GeminiBinding | undefined {
  const all = geminiBindings(who);
  return all.length === 1 ? all[0] : undefined;
}

/** Whether Gemini's own record of the session holds message `messageId`'s frame. */
function inGeminiRecord(binding: GeminiBinding, messageId: string): boolean {
  try {
    return readFileSync(binding.transcript, "utf8").includes(`message-id=\\"${messageId}\\"`);
  } catch {
    return false;
  }
}

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
      const installed = await terminal(lee, ["install", "gemini"]);
      if (installed.code !== 0) throw new Error(`brigade install gemini: ${installed.stderr}`);
      const gemini = join(lee.home, ".gemini");
      writeFileSync(
        join(gemini, "settings.json"),
        JSON.stringify({
          security: { auth: { selectedType: "gemini-api-key" } },
          general: { disableAutoUpdate: true },
          telemetry: { enabled: false },
          privacy: { usageStatisticsEnabled: false },
        }),
      );
      // Lee's own choice, in his own policy file: his headless runs may send without asking.
      mkdirSync(join(gemini, "policies"), { recursive: true });
      writeFileSync(
        join(gemini, "policies", "lee-allows-send.toml"),
        '[[rule]]\ntoolName = "mcp_brigade_send"\ndecision = "allow"\npriority = 100\n',
      );
      geminiEnv = {
        ...lee.env,
        GEMINI_API_KEY: "fake-key-for-a-loopback-fake",
        GOOGLE_GEMINI_BASE_URL: api.url,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
        NO_COLOR: "1",
      };
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
        await gemini.type("anything from the team");
        await gemini.waitForPane("anything from the team", 30_000, "the prompt on Gemini's screen");
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
              "Brigade: not connected: a .env file of this repository (.gemini/.env or .env) sets where Brigade keeps its files",
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
