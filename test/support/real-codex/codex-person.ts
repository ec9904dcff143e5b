/**
 * A person's Codex on the test machine (docs/49-codex.md "The real-client test"): their Codex home
 * with a config of their own (the model provider pointing at the loopback fake), their terminal
 * running the person's CLI (`brigade install codex`), their `/hooks` trust of Brigade's hooks
 * (done through the app-server API Codex's own `/hooks` view uses), and `codex exec` runs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Person, TerminalRun } from "../plugin-world.ts";
import { BUILT_CLI } from "../server-process.ts";
import type { FakeResponsesApi } from "./fake-responses-api.ts";

/** The variable that carries the fake API's dummy key (`env_key` of the provider). */
const KEY_VARIABLE = "BRIGADE_TEST_FAKE_OPENAI_KEY";

/** A person's Codex home and the environment of their terminal with it. */
export interface CodexHome {
  /** `CODEX_HOME`. */
  readonly dir: string;
  /** `<dir>/config.toml`. */
  readonly configFile: string;
  /** What the person's own `config.toml` held before Brigade's install. */
  readonly original: string;
  /** The person's terminal environment plus `CODEX_HOME` and the fake's key. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Makes `person`'s Codex home (`<home>/.codex`) with a `config.toml` of their own: a comment,
 * the model `fake-model` of the provider `fake` (the loopback `api`, `wire_api = "responses"`),
 * and an MCP server of theirs, so the install has something to keep byte for byte.
 */
export function codexHomeFor(person: Person, api: FakeResponsesApi): CodexHome {
  const dir = join(person.home, ".codex");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const original = [
    "# the person's own Codex settings",
    'model = "fake-model"',
    'model_provider = "fake"',
    "",
    "[model_providers.fake]",
    'name = "Loopback fake of the Responses API"',
    `base_url = "${api.url}/v1"`,
    'wire_api = "responses"',
    `env_key = "${KEY_VARIABLE}"`,
    "",
    "[mcp_servers.notes]",
    'command = "/bin/true"',
    "enabled = false",
    "",
  ].join("\n");
  const configFile = join(dir, "config.toml");
  writeFileSync(configFile, original, { mode: 0o600 });
  // Codex's sandbox leaves folders in TMPDIR: inside the person's home, they go with the world.
  const tmp = join(person.home, "tmp");
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  return {
    dir,
    configFile,
    original,
    env: { ...person.env, TMPDIR: tmp, CODEX_HOME: dir, [KEY_VARIABLE]: "sk-fake-loopback" },
  };
}

/** Runs the person's own CLI (`dist/cli/main.js`, not the plugin's) in their terminal. */
export function personCli(
  cwd: string,
  env: Readonly<Record<string, string>>,
  args: readonly string[],
): Promise<TerminalRun> {
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
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

/** One hook as Codex's app-server lists it (the members the tests read). */
export interface ListedHook {
  readonly key: string;
  readonly eventName: string;
  readonly command?: string;
  readonly timeoutSec: number;
  readonly sourcePath: string;
  readonly currentHash: string;
  readonly trustStatus: string;
}

/** What `hooks/list` answered for one folder, and what trusting wrote. */
export interface HookTrust {
  readonly hooks: readonly ListedHook[];
  readonly warnings: readonly string[];
  readonly errors: readonly unknown[];
}

/**
 * The person's `/hooks` "trust" of Brigade's hooks, done through Codex's app-server
 * (`codex app-server`, JSON-RPC on stdio): `initialize`, `hooks/list` for `cwd`, then
 * `config/batchWrite` of `hooks.state.<key>.trusted_hash` = the `currentHash` Codex itself
 * reported, for each hook whose command runs `host-hook codex` — never a hash computed here.
 * Resolves with the listing from before the trust.
 */
export async function trustBrigadeHooks(
  executable: string,
  home: CodexHome,
  cwd: string,
): Promise<HookTrust> {
  const child = spawn(executable, ["app-server"], {
    cwd,
    env: home.env,
    stdio: ["pipe", "pipe", "ignore"],
  });
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (typeof message.id === "number") pending.get(message.id)?.(message);
      } catch {
        // a line that is not JSON-RPC: not ours to read
      }
    }
  });
  let next = 0;
  const call = (method: string, params: unknown): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => reject(new Error(`app-server: ${method} timed out`)), 30_000);
      pending.set(id, (message) => {
        clearTimeout(timer);
        if (message.error !== undefined)
          reject(new Error(`app-server: ${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result as Record<string, unknown>);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  try {
    await call("initialize", {
      clientInfo: { name: "brigade-test", version: "1" },
      capabilities: null,
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "initialized" })}\n`);
    const listed = await call("hooks/list", { cwds: [cwd] });
    const entry = (listed.data as Record<string, unknown>[] | undefined)?.[0] ?? {};
    const hooks = (entry.hooks ?? []) as ListedHook[];
    const ours = hooks.filter((hook) => hook.command?.includes(" host-hook codex ") === true);
    const state = Object.fromEntries(
      ours.map((hook) => [hook.key, { trusted_hash: hook.currentHash }]),
    );
    await call("config/batchWrite", {
      edits: [{ keyPath: "hooks.state", value: state, mergeStrategy: "upsert" }],
    });
    return {
      hooks,
      warnings: (entry.warnings ?? []) as string[],
      errors: (entry.errors ?? []) as unknown[],
    };
  } finally {
    child.stdin.end();
    child.kill("SIGTERM");
  }
}

/** A finished `codex exec`. */
export interface CodexExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One `codex exec` of a person in a folder, started at once. */
export class CodexExec {
  readonly child: ChildProcess;
  readonly exited: Promise<CodexExit>;
  #stdout = "";
  #stderr = "";

  private constructor(child: ChildProcess) {
    this.child = child;
    child.stdout?.on("data", (chunk: Buffer) => {
      this.#stdout += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      this.#stderr += chunk.toString("utf8");
    });
    this.exited = new Promise((resolve) => {
      child.once("close", (code, signal) =>
        resolve({ code, signal, stdout: this.#stdout, stderr: this.#stderr }),
      );
    });
  }

  /**
   * `codex exec --skip-git-repo-check [...args] <prompt>` with stdin closed, in `cwd`, with the
   * person's environment and Codex home; no flag that bypasses hook trust.
   */
  static start(
    executable: string,
    home: CodexHome,
    cwd: string,
    prompt: string,
    args: readonly string[] = [],
  ): CodexExec {
    // A process group of its own, so a test that ends it ends its hooks and MCP servers too.
    const child = spawn(executable, ["exec", "--skip-git-repo-check", ...args, prompt], {
      cwd,
      env: home.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    return new CodexExec(child);
  }

  /** Ends Codex and every process of its group (hooks, `brigade mcp`) with SIGKILL; waits for Codex. */
  async kill(): Promise<CodexExit> {
    // Its own children outlive it only while it runs; a finished group's pid may be reused.
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.exited;
    try {
      process.kill(-this.pid, "SIGKILL");
    } catch {
      // the group is gone already
    }
    return this.exited;
  }

  /** The Codex process's pid (the host of its hooks and MCP servers). */
  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** What it printed so far (stderr holds Codex's progress, hook lines included). */
  output(): string {
    return `${this.#stdout}\n${this.#stderr}`;
  }
}
