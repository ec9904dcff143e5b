/**
 * A small world for end-to-end tests of the installed plugin: a copy of `plugin/` laid out as a
 * marketplace install (outside the repository, no `node_modules`), a real `brigade serve`, people
 * with their own homes, XDG folders and git checkouts, the human's terminal, and Claude Code
 * sessions (the stand-in host) started with the plugin's SessionStart hook.
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClaudeCodeHost, type ClaudeCodeHostOptions } from "./claude-code-host/index.ts";
import {
  ensureBuilt,
  exited,
  REPO_ROOT,
  type ServerProcess,
  startServerProcess,
} from "./server-process.ts";
import { until } from "./until.ts";

/** One person on one machine: a home with XDG folders and a git checkout of the team's repo. */
export interface Person {
  readonly name: string;
  readonly home: string;
  readonly checkout: string;
  /** The environment of the person's terminal (and of Claude Code started from it). */
  readonly env: Readonly<Record<string, string>>;
  /** `$XDG_STATE_HOME/brigade`. */
  readonly stateDir: string;
  /** `$XDG_CONFIG_HOME/brigade`. */
  readonly configDir: string;
}

/** What a terminal command printed and its exit status. */
export interface TerminalRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The by-pid map members the tests read. */
export interface MappedSession {
  readonly brigade_session_id: string;
  readonly team_key: string;
  readonly team_ref: string;
  readonly config_dir: string;
}

/**
 * The world. `start()` copies the plugin, starts the server and makes the first person create
 * the team (`brigade team create … --secret-file`) in their checkout; `join(name)` makes another
 * person clone the checkout (the committed `.brigade.json` comes along) and join with the secret
 * file. `close()` ends every session (SessionEnd), stops the server and removes everything.
 */
export class PluginWorld {
  readonly root: string;
  readonly pluginRoot: string;
  readonly secretFile: string;
  /** The server's SQLite data file. */
  readonly dataFile: string;
  readonly server: ServerProcess;
  readonly hosts: ClaudeCodeHost[] = [];
  #founder: Person | undefined;

  private constructor(root: string, server: ServerProcess) {
    this.root = root;
    this.pluginRoot = join(root, "plugins", "cache", "brigade", "brigade", "0.1.0");
    this.secretFile = join(root, "join-secret");
    this.dataFile = join(root, "server.sqlite");
    this.server = server;
  }

  /** Starts the world; `founder` creates the team `teamName`. */
  static async start(founder: string, teamName = "billing"): Promise<PluginWorld> {
    ensureBuilt();
    const root = mkdtempSync(join(tmpdir(), "brigade-e2e-"));
    const server = await startServerProcess(join(root, "server.sqlite"));
    const world = new PluginWorld(root, server);
    cpSync(join(REPO_ROOT, "plugin"), world.pluginRoot, { recursive: true });
    const who = world.person(founder);
    const created = await world.terminal(who, [
      "team",
      "create",
      teamName,
      "--server",
      server.url,
      "--secret-file",
      world.secretFile,
    ]);
    if (created.code !== 0) throw new Error(`team create failed: ${created.stderr}`);
    world.#founder = who;
    return world;
  }

  /** The person who created the team. */
  get founder(): Person {
    if (this.#founder === undefined) throw new Error("PluginWorld: not started");
    return this.#founder;
  }

  /** A new person who clones the founder's checkout and joins with the secret file. */
  async join(name: string): Promise<Person> {
    const who = this.person(name);
    cpSync(join(this.founder.checkout, ".brigade.json"), join(who.checkout, ".brigade.json"));
    const joined = await this.terminal(who, ["team", "join", "--secret-file", this.secretFile]);
    if (joined.code !== 0) throw new Error(`team join failed: ${joined.stderr}`);
    return who;
  }

  /** A person's home and checkout (nothing joined yet). */
  person(name: string): Person {
    const home = join(this.root, name);
    const checkout = join(home, "src", "billing");
    mkdirSync(join(checkout, ".git"), { recursive: true });
    const state = join(home, ".local", "state");
    const config = join(home, ".config");
    return {
      name,
      home,
      checkout,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        TMPDIR: tmpdir(),
        XDG_STATE_HOME: state,
        XDG_CONFIG_HOME: config,
      },
      stateDir: join(state, "brigade"),
      configDir: join(config, "brigade"),
    };
  }

  /** Runs the installed plugin's `brigade` in the person's own terminal (no `CLAUDE_PID`). */
  terminal(who: Person, args: readonly string[], input = ""): Promise<TerminalRun> {
    const child = spawn(process.execPath, [join(this.pluginRoot, "bin", "brigade"), ...args], {
      cwd: who.checkout,
      env: who.env,
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

  /**
   * A Claude Code session of `who` in their checkout, started with the plugin's SessionStart
   * hook (which must exit 0). The session's display name is `name` (set by the user).
   */
  async session(
    who: Person,
    name: string,
    options: Partial<ClaudeCodeHostOptions> = {},
  ): Promise<ClaudeCodeHost> {
    const host = await ClaudeCodeHost.start({
      pluginRoot: this.pluginRoot,
      cwd: who.checkout,
      baseEnv: who.env,
      name,
      nameSource: "user",
      ...options,
    });
    this.hosts.push(host);
    const [start] = await host.runHook("SessionStart");
    if (start?.exitCode !== 0) throw new Error(`SessionStart exited ${start?.exitCode}`);
    return host;
  }

  /** The by-pid map of a session (what `brigade whoami` reads). */
  mapOf(who: Person, host: { readonly claudePid: number }): MappedSession {
    const path = join(who.stateDir, "sessions", "by-pid", `${host.claudePid}.json`);
    return JSON.parse(readFileSync(path, "utf8")) as MappedSession;
  }

  /** The pid of a session's watcher, from its pidfile. */
  watcherPidOf(who: Person, host: { readonly claudePid: number }): number {
    const path = join(who.stateDir, "watchers", `${host.claudePid}.json`);
    return (JSON.parse(readFileSync(path, "utf8")) as { pid: number }).pid;
  }

  /** Ends every session, stops the server, removes the world (kept when `E2E_KEEP` is set). */
  async close(): Promise<void> {
    await Promise.all(this.hosts.map((host) => host.runHook("SessionEnd").catch(() => [])));
    await Promise.all(this.hosts.map((host) => host.close()));
    this.server.child.kill("SIGTERM");
    await exited(this.server.child);
    if (process.env.E2E_KEEP !== undefined) return;
    // A client's hook or MCP server may outlive its client (Gemini CLI does not wait for its
    // SessionEnd hook) and write into a person's folder after it was removed: end every process
    // still working in the world first.
    killProcessesUnder(this.root);
    rmSync(this.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/** SIGKILLs every process of this user (but this one) whose working folder is inside `root` (Linux). */
function killProcessesUnder(root: string): void {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === root || cwd.startsWith(`${root}/`)) process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone, or not ours to read
    }
  }
}

/** The heredoc command the Bash tool runs to send `body` (quoted, so taken literally). */
export function sendCommand(target: string, body: string, flags = ""): string {
  return `brigade send ${target}${flags} <<'EOF'\n${body}\nEOF`;
}

/** The message ids named by the reply commands of the frames in `texts`, in order. */
export function messageIdsIn(texts: readonly string[]): string[] {
  return texts.flatMap((text) =>
    [...text.matchAll(/--reply-to (m-[A-Za-z0-9_-]+)/g)].map((m) => m[1] as string),
  );
}

/**
 * Polls `check` every 50 ms until it holds; rejects with
 * `Error("timed out waiting for <what>")` after `timeoutMs` milliseconds.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  await until(what, check, timeoutMs, 50);
}
