/**
 * A person's Gemini CLI in the real-client tests: their Gemini home (settings, the extension
 * `brigade install gemini` wrote, a policy of their own allowing `send`), headless runs, the
 * sessions the hooks bound, and Gemini's own record of a session.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Person } from "../plugin-world.ts";
import { BUILT_CLI } from "../server-process.ts";
import type { FakeGeminiApi } from "./fake-gemini-api.ts";

/**
 * Installs Brigade's extension for `who` with their own `brigade install gemini`, writes their
 * Gemini settings (API-key auth, no update check, no telemetry) and a policy of their own that
 * lets headless runs send, and returns the environment Gemini runs in: theirs plus the fake's
 * key and address and the folder trust automation uses.
 */
export async function prepareGeminiHome(
  who: Person,
  api: FakeGeminiApi,
): Promise<Record<string, string>> {
  const installed = await terminal(who, ["install", "gemini"]);
  if (installed.code !== 0) throw new Error(`brigade install gemini: ${installed.stderr}`);
  const gemini = join(who.home, ".gemini");
  writeFileSync(
    join(gemini, "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      general: { disableAutoUpdate: true },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
    }),
  );
  // The person's own choice, in their own policy file: their headless runs may send without asking.
  mkdirSync(join(gemini, "policies"), { recursive: true });
  writeFileSync(
    join(gemini, "policies", "person-allows-send.toml"),
    '[[rule]]\ntoolName = "mcp_brigade_send"\ndecision = "allow"\npriority = 100\n',
  );
  return {
    ...who.env,
    GEMINI_API_KEY: "fake-key-for-a-loopback-fake",
    GOOGLE_GEMINI_BASE_URL: api.url,
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    NO_COLOR: "1",
  };
}

export interface GeminiRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <gemini.js> …args` in `who`'s checkout with `env`, bounded at 90 s. */
export function runGemini(
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

/** Runs the person's own `brigade` (this checkout's CLI) in their terminal, `input` on stdin. */
export function terminal(who: Person, args: string[], input = ""): Promise<GeminiRun> {
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: who.checkout,
    env: who.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** One Gemini session the hooks bound (its binding file). */
export interface GeminiBinding {
  readonly nativeId: string;
  readonly brigadeId: string;
  /** Gemini's own record of the conversation (`transcript_path`), or `""`. */
  readonly transcript: string;
}

/** Every Gemini session the hooks bound for `who` (their binding files). */
export function geminiBindings(who: Person): GeminiBinding[] {
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
export function boundGeminiSession(who: Person): GeminiBinding | undefined {
  const all = geminiBindings(who);
  return all.length === 1 ? all[0] : undefined;
}

/** Whether Gemini's own record of the session holds message `messageId`'s frame. */
export function inGeminiRecord(binding: GeminiBinding, messageId: string): boolean {
  try {
    return readFileSync(binding.transcript, "utf8").includes(`message-id=\\"${messageId}\\"`);
  } catch {
    return false;
  }
}
