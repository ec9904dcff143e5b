import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import type { Server } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { type HookContextForm, hookContextText } from "./hook-context.ts";
import {
  DEFAULT_HOOK_TIMEOUT_S,
  type HookEvent,
  type HookRun,
  loadCommandHooks,
  runCommandHook,
  SESSION_END_BUDGET_MS,
} from "./hook-runner.ts";
import { HOOK_OUTPUT_PREVIEW_ABOVE, HOOK_OUTPUT_PREVIEW_CHARS } from "./hook-transcript.ts";
import { inboundGate } from "./inbound-gate.ts";
import { InboxModel, type ModelRead, type PostRecording, type TurnStatus } from "./inbox-model.ts";
import { type PostRecord, startInboxServer } from "./inbox-server.ts";
import { registryPath, writeRegistry } from "./session-registry.ts";
import { skillListing } from "./skill-listing.ts";
import { TranscriptWriter } from "./transcript-writer.ts";

/** The Claude Code version the stand-in imitates. */
export const CLAUDE_CODE_HOST_VERSION = "2.1.328";

/**
 * A shell metacharacter in the plugin's bin path keeps it off the Bash tool's PATH
 * (docs/spec/claude-code.md §0 item 7).
 */
const SHELL_METACHARACTER = /[\s$`"'\\;&|<>(){}[\]*?!#~]/;

/** Options of {@link ClaudeCodeHost.start}; every one has a default. */
export interface ClaudeCodeHostOptions {
  /** The plugin directory (holds `hooks/hooks.json` and `bin/`); needed for hooks and the Bash PATH. */
  readonly pluginRoot?: string;
  /** `CLAUDE_PLUGIN_DATA`; defaults to a fresh folder under the host's temp folder. */
  readonly pluginDataDir?: string;
  /** `CLAUDE_CONFIG_DIR`; defaults to a fresh folder under the host's temp folder. */
  readonly configDir?: string;
  /** The session's working directory (hook `cwd`, `CLAUDE_PROJECT_DIR`); defaults to a fresh folder. */
  readonly cwd?: string;
  /**
   * The environment Claude Code itself was started with, inherited by hooks and the Bash tool.
   * Defaults to `PATH`, `HOME` and `TMPDIR` of the test process.
   */
  readonly baseEnv?: Readonly<Record<string, string>>;
  /** Plugin options the user SET (defaults are never exported): key → value. */
  readonly pluginOptions?: Readonly<Record<string, string>>;
  /** Registry `name`; defaults to `<basename(cwd)>-<4 hex>` with `nameSource: "derived"`. */
  readonly name?: string;
  readonly nameSource?: "user" | "derived";
  /** `cli` (default) or `sdk-cli` (a `-p` run). */
  readonly entrypoint?: "cli" | "sdk-cli";
  /** Registry `kind`; defaults to `interactive`. */
  readonly kind?: string;
  /** UserPromptSubmit's `permission_mode`; defaults to `default`. */
  readonly permissionMode?: string;
  /**
   * The user `settings.json` (`<configDir>/settings.json`) as the person left it before the
   * session started, written with a time in the past (Claude Code read it at its start); default:
   * no file.
   */
  readonly userSettings?: Readonly<Record<string, unknown>>;
  /** SessionStart's `model`. */
  readonly model?: string;
  /** Initial turn state; defaults to `idle`. */
  readonly status?: TurnStatus;
  /** An idle session turns busy when a post is delivered (it starts a turn); defaults to true. */
  readonly autoTurn?: boolean;
  /** Clock for the receiver's bucket and duplicate window, ms; defaults to `Date.now`. */
  readonly now?: () => number;
  /** Drop a connection with no complete line for this long, ms; defaults to 30,000. */
  readonly lineTimeoutMs?: number;
  /** The sender key of a connection; defaults to one sender for every post (`"peer"`). */
  readonly senderOf?: (info: {
    readonly index: number;
    readonly authToken: string | undefined;
  }) => string;
  /** SessionEnd's shared budget, ms; defaults to 1,500. */
  readonly sessionEndBudgetMs?: number;
  /**
   * How hook stdout reaches the model (`ModelRead.rendered`); defaults to `system-message`, the
   * form of 2.1.3xx against an API that takes system messages.
   */
  readonly hookContextForm?: HookContextForm;
  /** Called synchronously as each post is recorded (a test can act at that exact moment). */
  readonly onPost?: (record: PostRecord) => void;
  /**
   * Per admitted post: `record` (default; the model reads it and the transcript shows it as
   * Claude Code 2.1.334 does), `drop` (accepted, then never read or recorded), or `late` (read
   * and recorded only at {@link ClaudeCodeHost.deliverLate}).
   */
  readonly recording?: () => PostRecording;
}

/** Extra stdin members of one hook run. */
export interface HookRunOptions {
  /** SessionStart `source` (default `startup`). */
  readonly source?: string;
  /** SessionEnd `reason` (default `prompt_input_exit`). */
  readonly reason?: string;
  /** UserPromptSubmit `prompt` (default `hello`). */
  readonly prompt?: string;
}

/** How a Bash-tool command ended. */
export interface BashRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * A stand-in of a Claude Code 2.1.328 session for end-to-end tests (see README.md beside this
 * file): an inbox socket with Claude Code's receiver rules, the session registry file, a live
 * `CLAUDE_PID`, hook and Bash-tool runners with Claude Code's environments, and a log of
 * everything the model read.
 *
 * @example
 * const host = await ClaudeCodeHost.start({ pluginRoot });
 * try { await host.runHook("SessionStart"); … } finally { await host.close(); }
 */
export class ClaudeCodeHost {
  /** The host's private temp folder (removed by `close`). */
  readonly tempDir: string;
  readonly socketPath: string;
  /** `CLAUDE_CODE_MESSAGING_TOKEN`: 32 lower-case hex characters. */
  readonly token: string;
  readonly configDir: string;
  readonly pluginDataDir: string;
  readonly cwd: string;
  /** `CLAUDE_PID`: the pid of a live child process the host owns. */
  readonly claudePid: number;
  /** Every connection to the inbox socket, in the order they closed. */
  readonly posts: PostRecord[] = [];
  readonly #options: ClaudeCodeHostOptions;
  readonly #model: InboxModel;
  readonly #transcript: TranscriptWriter;
  readonly #claude: ChildProcess;
  readonly #startedAt: number;
  readonly #name: string;
  #sessionId: string;
  #server: Server | undefined;
  #waiters: { readonly count: number; readonly resolve: () => void }[] = [];

  private constructor(options: ClaudeCodeHostOptions, claude: ChildProcess, tempDir: string) {
    this.#options = options;
    this.#claude = claude;
    this.claudePid = claude.pid as number;
    this.tempDir = tempDir;
    this.socketPath = join(tempDir, "cc-socks", `${this.claudePid}.sock`);
    this.token = randomBytes(16).toString("hex");
    this.configDir = options.configDir ?? join(tempDir, "config");
    this.pluginDataDir = options.pluginDataDir ?? join(tempDir, "plugin-data");
    this.cwd = options.cwd ?? join(tempDir, "project");
    this.#sessionId = randomUUID();
    this.#startedAt = Date.now();
    this.#name = options.name ?? `${basename(this.cwd)}-${randomBytes(2).toString("hex")}`;
    this.#transcript = new TranscriptWriter(
      () => this.transcriptPath,
      () => this.#sessionId,
    );
    this.#model = new InboxModel({
      ...(options.now === undefined ? {} : { now: options.now }),
      status: options.status ?? "idle",
      autoTurn: options.autoTurn ?? true,
      onStatus: () => this.#writeRegistry(),
      onEnqueue: (content) => this.#transcript.enqueued(content),
      onRead: (content, how) => this.#transcript.read(content, how),
      ...(options.recording === undefined ? {} : { recording: options.recording }),
    });
  }

  /**
   * Starts a session: spawns the `CLAUDE_PID` child, creates the private folders, binds the
   * socket (0600 in a 0700 folder) and writes the registry file.
   */
  static async start(options: ClaudeCodeHostOptions = {}): Promise<ClaudeCodeHost> {
    const tempDir = mkdtempSync(join(tmpdir(), "cc-host-"));
    // The launch flag a bypassing session is started with, where the watcher reads it.
    const flags =
      options.permissionMode === "bypassPermissions"
        ? ["--", "--dangerously-skip-permissions"]
        : [];
    const claude = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)", ...flags], {
      stdio: "ignore",
    });
    await new Promise<void>((resolve, reject) => {
      claude.once("spawn", resolve);
      claude.once("error", reject);
    });
    const host = new ClaudeCodeHost(options, claude, tempDir);
    try {
      mkdirSync(join(tempDir, "cc-socks"), { mode: 0o700 });
      for (const dir of [host.configDir, host.pluginDataDir, host.cwd]) {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
      }
      mkdirSync(join(host.configDir, "projects", host.#projectSlug()), { recursive: true });
      writeFileSync(host.transcriptPath, "", { mode: 0o600 });
      if (options.userSettings !== undefined) {
        const settings = join(host.configDir, "settings.json");
        writeFileSync(settings, `${JSON.stringify(options.userSettings)}\n`, { mode: 0o600 });
        const before = new Date(Date.now() - 60_000);
        utimesSync(settings, before, before);
      }
      host.#server = await startInboxServer({
        socketPath: host.socketPath,
        token: host.token,
        sessionId: () => host.#sessionId,
        model: host.#model,
        lineTimeoutMs: options.lineTimeoutMs ?? 30_000,
        senderOf: options.senderOf ?? (() => "peer"),
        onRecord: (record) => host.#onRecord(record),
        gate: () =>
          inboundGate({
            permissionMode: options.permissionMode ?? "default",
            userSettingsPath: join(host.configDir, "settings.json"),
            projectDir: host.cwd,
          }),
      });
      host.#writeRegistry();
    } catch (error) {
      await host.close();
      throw error;
    }
    return host;
  }

  /** The current session id (stdin `session_id`, `CLAUDE_CODE_SESSION_ID`). */
  get sessionId(): string {
    return this.#sessionId;
  }

  /** `$CLAUDE_CONFIG_DIR/sessions/<pid>.json`. */
  get registryPath(): string {
    return registryPath(this.configDir, this.claudePid);
  }

  /** `<configDir>/projects/<slug>/<session_id>.jsonl` (created empty). */
  get transcriptPath(): string {
    return join(this.configDir, "projects", this.#projectSlug(), `${this.#sessionId}.jsonl`);
  }

  /** Everything the model read, in order: delivered posts (content verbatim) and hook output. */
  get reads(): readonly ModelRead[] {
    return this.#model.reads;
  }

  /** The content of every delivered post, in the order the model read them. */
  socketReads(): string[] {
    return this.#model.socketTexts();
  }

  /** The turn state the registry shows. */
  get status(): TurnStatus {
    return this.#model.status;
  }

  /** Posts queued while busy. */
  get queued(): number {
    return this.#model.queued;
  }

  /** The receiver model (bucket levels, direct admission) for tests of the rules themselves. */
  get model(): InboxModel {
    return this.#model;
  }

  /** A turn starts (the user typed a prompt): registry `busy`. */
  beginTurn(): void {
    this.#model.beginTurn();
  }

  /** The turn ends: queued posts are read in a new turn, else the session turns idle. */
  endTurn(): number {
    return this.#model.endTurn();
  }

  /** Ends turns until idle; returns how many queued posts the model read. */
  settle(): number {
    return this.#model.settle();
  }

  /** The model reads the posts the `late` recording kept, now (and the transcript shows them). */
  deliverLate(): number {
    return this.#model.deliverLate();
  }

  /** Flips the registry status without touching the queue. */
  setStatus(status: TurnStatus): void {
    this.#model.setStatus(status);
  }

  /**
   * The environment variables Claude Code gives its children in this session
   * (docs/spec/claude-code.md §2).
   */
  get env(): Readonly<Record<string, string>> {
    return {
      CLAUDE_PID: String(this.claudePid),
      CLAUDE_CODE_SESSION_ID: this.#sessionId,
      CLAUDE_CODE_MESSAGING_SOCKET: this.socketPath,
      CLAUDE_CODE_MESSAGING_TOKEN: this.token,
      CLAUDE_CONFIG_DIR: this.configDir,
    };
  }

  /** Resolves once `count` connections in total have closed (rejects after `timeoutMs`). */
  waitForPosts(count: number, timeoutMs = 5_000): Promise<void> {
    if (this.posts.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`only ${this.posts.length} of ${count} posts arrived`));
      }, timeoutMs);
      this.#waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /**
   * Runs every command hook `pluginRoot/hooks/hooks.json` registers for `event`, in parallel, as
   * Claude Code does: exec form with `${CLAUDE_PLUGIN_ROOT}` substituted; stdin the event's JSON
   * document (docs/spec/claude-code.md §1.2, §0 item 1); the hook environment
   * (docs/spec/claude-code.md §2); each hook's declared `timeout` (default
   * docs/spec/claude-code.md §0 item 3), SessionEnd all within one shared budget. For SessionStart
   * and UserPromptSubmit, exit 0 adds the trimmed stdout to what the model reads (a stdout starting
   * with `{` delivers nothing).
   */
  /**
   * The plugin's skills as the model reads them in Claude Code's skill list: one line each,
   * descriptions with `<` and `>` escaped (docs/spec/claude-code.md §0).
   */
  skillListing(): string[] {
    return skillListing(this.#pluginRoot());
  }

  async runHook(event: HookEvent, options: HookRunOptions = {}): Promise<HookRun[]> {
    const pluginRoot = this.#pluginRoot();
    const hooks = await loadCommandHooks(pluginRoot, event);
    const stdin = this.#hookStdin(event, options);
    const env = this.#hookEnv(event, pluginRoot);
    const budget = this.#options.sessionEndBudgetMs ?? SESSION_END_BUDGET_MS;
    const runs = await Promise.all(
      hooks.map((hook) => {
        const declared = (hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S[event]) * 1_000;
        const timeoutMs = event === "SessionEnd" ? Math.min(declared, budget) : declared;
        return runCommandHook(hook, pluginRoot, stdin, env, this.cwd, timeoutMs);
      }),
    );
    if (event !== "SessionEnd") {
      for (const run of runs) {
        const text = run.stdout.trim();
        if (run.exitCode !== 0 || run.timedOut || text === "" || text.startsWith("{")) continue;
        const previewed = text.length > HOOK_OUTPUT_PREVIEW_ABOVE;
        const read = previewed ? text.slice(0, HOOK_OUTPUT_PREVIEW_CHARS) : text;
        this.#model.readHookOutput(
          event,
          read,
          previewed,
          hookContextText(
            event,
            options.source,
            read,
            this.#options.hookContextForm ?? "system-message",
          ),
        );
      }
    }
    return runs;
  }

  /**
   * Runs `command` as the Bash tool does: `bash -c` in the session's cwd, the base environment
   * plus the session variables (docs/spec/claude-code.md §2), the plugin's `bin/` appended LAST to
   * `PATH` (only when its path holds no shell metacharacter), `CLAUDE_CODE_ENTRYPOINT` (as the
   * real 2.1.334 sets it for its tools too), and no `CLAUDE_PLUGIN_*`.
   */
  runBash(command: string, timeoutMs = 120_000): Promise<BashRun> {
    const env = this.bashEnv();
    return new Promise((resolve) => {
      // stdin /dev/null: bash sources ~/.bashrc when its stdin is a socket (Node's pipes are
      // socketpairs), which would rewrite PATH behind the test's back.
      const child = spawn("bash", ["-c", command], {
        cwd: this.cwd,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      let timedOut = false;
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill("SIGKILL");
      }, timeoutMs);
      child.on("error", () => {
        clearTimeout(timer);
        resolve({ exitCode: null, signal: null, timedOut, stdout, stderr, env });
      });
      child.on("close", (exitCode, signal) => {
        clearTimeout(timer);
        resolve({ exitCode, signal, timedOut, stdout, stderr, env });
      });
    });
  }

  /** The Bash tool's environment (see {@link runBash}). */
  bashEnv(): Record<string, string> {
    const base = this.#baseEnv();
    const env: Record<string, string> = {
      ...base,
      ...this.env,
      CLAUDE_CODE_ENTRYPOINT: this.#options.entrypoint ?? "cli",
    };
    const pluginRoot = this.#options.pluginRoot;
    if (pluginRoot !== undefined) {
      const bin = join(pluginRoot, "bin");
      if (!SHELL_METACHARACTER.test(bin)) {
        env.PATH = base.PATH === undefined || base.PATH === "" ? bin : `${base.PATH}:${bin}`;
      }
    }
    return env;
  }

  /** Kills the `CLAUDE_PID` process (e.g. to test a watcher's exit). */
  killClaude(signal: NodeJS.Signals = "SIGKILL"): void {
    this.#claude.kill(signal);
  }

  /** Stops the socket, kills the `CLAUDE_PID` child and removes the temp folder. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (this.#claude.exitCode === null && this.#claude.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.#claude.once("exit", () => resolve()));
      this.#claude.kill("SIGKILL");
      await exited;
    }
    rmSync(this.tempDir, { recursive: true, force: true });
  }

  #onRecord(record: PostRecord): void {
    if (record.outcome === "held" && record.content !== undefined) {
      this.#transcript.held(record.content);
    }
    this.posts.push(record);
    this.#options.onPost?.(record);
    const ready = this.#waiters.filter((waiter) => this.posts.length >= waiter.count);
    this.#waiters = this.#waiters.filter((waiter) => this.posts.length < waiter.count);
    for (const waiter of ready) waiter.resolve();
  }

  #pluginRoot(): string {
    const root = this.#options.pluginRoot;
    if (root === undefined) throw new Error("ClaudeCodeHost: no pluginRoot was given");
    return root;
  }

  #projectSlug(): string {
    return this.cwd.replace(/[^A-Za-z0-9]/g, "-");
  }

  #baseEnv(): Record<string, string> {
    if (this.#options.baseEnv !== undefined) return { ...this.#options.baseEnv };
    const env: Record<string, string> = {};
    for (const key of ["PATH", "HOME", "TMPDIR"]) {
      const value = process.env[key];
      if (value !== undefined) env[key] = value;
    }
    return env;
  }

  #hookStdin(event: HookEvent, options: HookRunOptions): Record<string, unknown> {
    const common = {
      session_id: this.#sessionId,
      transcript_path: this.transcriptPath,
      cwd: this.cwd,
    };
    switch (event) {
      case "SessionStart":
        return {
          ...common,
          hook_event_name: event,
          source: options.source ?? "startup",
          model: this.#options.model ?? "claude-sonnet-4-5",
        };
      case "UserPromptSubmit":
        return {
          ...common,
          permission_mode: this.#options.permissionMode ?? "default",
          hook_event_name: event,
          prompt: options.prompt ?? "hello",
        };
      case "SessionEnd":
        return { ...common, hook_event_name: event, reason: options.reason ?? "prompt_input_exit" };
    }
  }

  #hookEnv(event: HookEvent, pluginRoot: string): Record<string, string> {
    const env: Record<string, string> = {
      ...this.#baseEnv(),
      ...this.env,
      CLAUDE_CODE_ENTRYPOINT: this.#options.entrypoint ?? "cli",
      CLAUDE_PLUGIN_ROOT: pluginRoot,
      CLAUDE_PLUGIN_DATA: this.pluginDataDir,
      CLAUDE_PROJECT_DIR: this.cwd,
    };
    if (event === "SessionEnd") {
      delete env.CLAUDE_CODE_MESSAGING_SOCKET;
      delete env.CLAUDE_CODE_MESSAGING_TOKEN;
    }
    for (const [key, value] of Object.entries(this.#options.pluginOptions ?? {})) {
      env[`CLAUDE_PLUGIN_OPTION_${key.toUpperCase()}`] = value;
    }
    return env;
  }

  #writeRegistry(): void {
    writeRegistry(this.configDir, {
      pid: this.claudePid,
      sessionId: this.#sessionId,
      cwd: this.cwd,
      startedAt: this.#startedAt,
      version: CLAUDE_CODE_HOST_VERSION,
      peerProtocol: 1,
      kind: this.#options.kind ?? "interactive",
      entrypoint: this.#options.entrypoint ?? "cli",
      messagingSocketPath: this.socketPath,
      name: this.#name,
      nameSource:
        this.#options.nameSource ?? (this.#options.name === undefined ? "derived" : "user"),
      status: this.#model.status,
      updatedAt: Date.now(),
    });
  }
}
