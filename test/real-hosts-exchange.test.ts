/**
 * Issue 21's "done when" on the real clients (docs/49-hosts.md): a Gemini CLI session and a Codex
 * session, each started as the docs say (`brigade install gemini`, `brigade install codex` and the
 * person's `/hooks` trust), exchange messages with each other and with a (stand-in) Claude Code
 * session through one `brigade serve`. Every message a non-Claude model reads opens with the
 * sentinel the server's identity fills, and is acked only once it was read. Pinned versions.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse as parseSentinel } from "../src/formats/agent-message/index.ts";
import type { ClaudeCodeHost } from "./support/claude-code-host/index.ts";
import { type Person, PluginWorld, waitFor } from "./support/plugin-world.ts";
import { codexExecutable, PINNED_CODEX_VERSION } from "./support/real-codex/codex-executable.ts";
import {
  CodexExec,
  type CodexHome,
  codexHomeFor,
  personCli,
  trustBrigadeHooks,
} from "./support/real-codex/codex-person.ts";
import { FakeResponsesApi, mcpCall, say } from "./support/real-codex/fake-responses-api.ts";
import { FakeGeminiApi, requestTexts } from "./support/real-gemini/fake-gemini-api.ts";
import { geminiScript, PINNED_GEMINI_VERSION } from "./support/real-gemini/gemini-executable.ts";
import {
  boundGeminiSession,
  type GeminiBinding,
  prepareGeminiHome,
  runGemini,
} from "./support/real-gemini/gemini-person.ts";

const FROM_CODEX = "Codex to Gemini: the schema migration is merged.";
const FROM_GEMINI = "Gemini to Codex: thanks, rebasing now.";
const TO_CLAUDE = "Gemini to Claude Code: the migration is in, please rerun billing.";

/** The one Codex thread the hooks bound for `who`: its thread id and Brigade session. */
function codexBinding(who: Person): { thread: string; brigadeId: string } {
  const folder = join(who.stateDir, "sessions", "by-harness", "codex");
  const [name] = readdirSync(folder).filter((n) => n.endsWith(".json"));
  if (name === undefined) throw new Error("no Codex thread was bound");
  const map = JSON.parse(readFileSync(join(folder, name), "utf8")) as {
    claude_session_id: string;
    brigade_session_id: string;
  };
  return { thread: map.claude_session_id, brigadeId: map.brigade_session_id };
}

/** The stored message from `sender` to `recipient` holding `body`: its id and whether it is acked. */
function stored(dataFile: string, sender: string, recipient: string, body: string) {
  const db = new Database(dataFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        "SELECT message_id, body, acked_at FROM messages WHERE sender_session_id = ? AND recipient_session_id = ?",
      )
      .all(sender, recipient) as { message_id: string; body: string; acked_at: string | null }[];
    const row = rows.find((r) => r.body === body);
    return row === undefined ? undefined : { id: row.message_id, acked: row.acked_at !== null };
  } finally {
    db.close();
  }
}

/** The origin a model parses from the text holding `needle`, as the model read it. */
function originOf(texts: readonly string[], needle: string) {
  const text = texts.find((t) => t.includes(needle)) ?? "";
  const from = text.indexOf("<!-- lsp:agent-message-v1");
  return parseSentinel(from < 0 ? "" : text.slice(from)).origin;
}

describe.sequential("Gemini CLI and Codex with each other and with Claude Code, one brigade serve", () => {
  let world: PluginWorld;
  let lee: Person;
  let eli: Person;
  let danaCc: ClaudeCodeHost;
  let danaId: string;
  let geminiApi: FakeGeminiApi;
  let codexApi: FakeResponsesApi;
  let gemini: string;
  let geminiEnv: Record<string, string>;
  let codex: string;
  let home: CodexHome;
  let geminiSession: GeminiBinding | undefined;

  beforeAll(async () => {
    [gemini, codex] = await Promise.all([
      geminiScript(PINNED_GEMINI_VERSION),
      codexExecutable(PINNED_CODEX_VERSION),
    ]);
    world = await PluginWorld.start("dana", "billing");
    lee = await world.join("lee");
    eli = await world.join("eli");
    danaCc = await world.session(world.founder, "api");
    danaId = world.mapOf(world.founder, danaCc).brigade_session_id;
    geminiApi = await FakeGeminiApi.start();
    codexApi = await FakeResponsesApi.start();
    geminiEnv = await prepareGeminiHome(lee, geminiApi);
    home = codexHomeFor(eli, codexApi);
    const installed = await personCli(eli.checkout, home.env, ["install", "codex"]);
    if (installed.code !== 0) throw new Error(`brigade install codex: ${installed.stderr}`);
    const trust = await trustBrigadeHooks(codex, home, eli.checkout);
    if (trust.errors.length > 0) throw new Error("the hooks' trust failed");
  }, 600_000);

  afterAll(async () => {
    await geminiApi?.close();
    await codexApi?.close();
    await world?.close();
  });

  test("Codex writes to Gemini, Gemini reads it and answers Codex and Claude Code, Codex reads the answer", async () => {
    // Lee starts Gemini once: the session is registered (and resumable).
    geminiApi.script({ text: "ok" });
    const start = await runGemini(gemini, lee, geminiEnv, [
      "-p",
      "hello",
      "-m",
      "gemini-2.5-flash",
    ]);
    expect(start.code, start.stderr).toBe(0);
    geminiSession = boundGeminiSession(lee);
    if (geminiSession === undefined) throw new Error("Gemini's session was not bound");
    const geminiId = geminiSession.brigadeId;

    // Eli's Codex sends to it.
    codexApi.script(mcpCall("brigade", "send", { to: geminiId, body: FROM_CODEX }), say("Sent."));
    const first = await CodexExec.start(codex, home, eli.checkout, "Tell lee's session.").exited;
    expect(first.code, first.stderr).toBe(0);
    const { thread, brigadeId: codexId } = codexBinding(eli);
    const toGemini = stored(world.dataFile, codexId, geminiId, FROM_CODEX);
    expect(toGemini).toEqual({ id: expect.stringMatching(/^m-/), acked: false });

    // Lee resumes Gemini: the notice, the inbox, then replies to Codex and to Claude Code.
    geminiApi.script(
      { call: { name: "mcp_brigade_inbox", args: {} } },
      { call: { name: "mcp_brigade_send", args: { to: codexId, body: FROM_GEMINI } } },
      { call: { name: "mcp_brigade_send", args: { to: danaId, body: TO_CLAUDE } } },
      { text: "done" },
    );
    const from = geminiApi.turns().length;
    const resumed = await runGemini(gemini, lee, geminiEnv, [
      "-p",
      "carry on",
      "-m",
      "gemini-2.5-flash",
      "--resume",
      "latest",
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const geminiRead = geminiApi
      .turns()
      .slice(from)
      .flatMap((turn) => requestTexts(turn));
    // The origin Gemini's model read is Codex's session, as the server stamped it.
    expect(originOf(geminiRead, FROM_CODEX)).toMatchObject({
      fromSession: codexId,
      mode: "injected",
    });
    expect(stored(world.dataFile, codexId, geminiId, FROM_CODEX)?.acked).toBe(true);
    expect(stored(world.dataFile, geminiId, codexId, FROM_GEMINI)?.acked).toBe(false);

    // Claude Code's session (the stand-in) receives Gemini's message.
    await waitFor(
      () => {
        danaCc.settle();
        return danaCc.socketReads().some((read) => read.includes(TO_CLAUDE));
      },
      20_000,
      "Gemini's message in Claude Code's inbox",
    );

    // Eli resumes Codex: it reads Gemini's answer through its inbox.
    codexApi.script(mcpCall("brigade", "inbox"), say("Read."));
    const before = codexApi.requests.length;
    const second = await CodexExec.start(codex, home, eli.checkout, "Anything new?", [
      "resume",
      thread,
    ]).exited;
    expect(second.code, second.stderr).toBe(0);
    const codexRead = codexApi.requests
      .slice(before)
      .flatMap((request) => request.texts.filter((t) => t.place === "output").map((t) => t.text));
    expect(originOf(codexRead, FROM_GEMINI)).toMatchObject({
      fromSession: geminiId,
      mode: "injected",
    });
    expect(stored(world.dataFile, geminiId, codexId, FROM_GEMINI)?.acked).toBe(true);
  }, 300_000);
});
