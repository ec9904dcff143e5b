/**
 * One real, interactive Claude Code session of a {@link PluginWorld} person: its own config
 * folder, its own fake Messages API, the installed plugin loaded with `--plugin-dir`, driven
 * through tmux.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Person, type PluginWorld, waitFor } from "../plugin-world.ts";
import { DUMMY_API_KEY, writeClientConfig } from "./client-config.ts";
import { FakeMessagesApi, type RecordedRequest } from "./fake-messages-api.ts";
import { type ModelText, modelTexts } from "./model-view.ts";
import { TmuxClaude } from "./tmux-claude.ts";

/** How to start the session. */
export interface RealSessionOptions {
  /** The Claude Code executable (see `claudeCodeExecutable`). */
  readonly executable: string;
  /**
   * Plugin option values the user set, by key (`team_inbound: "hold"`). They reach the hooks as
   * `CLAUDE_PLUGIN_OPTION_<KEY>` through Claude Code's own environment, which it hands to its
   * hooks.
   */
  readonly pluginOptions?: Readonly<Record<string, string>>;
  /** `--permission-mode`; default: Claude Code's own default (auto on 2.1.3xx). */
  readonly permissionMode?: "default" | "acceptEdits" | "plan" | "auto" | "bypassPermissions";
  /** Extra members of the user `settings.json` (the `Bash(brigade:*)` allow rule is always there). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** `CLAUDE_CONFIG_DIR`; default `<home>/.claude-<n>`, a new one per session. */
  readonly configDir?: string;
  /** More environment for Claude Code (and so its hooks and tools). */
  readonly env?: Readonly<Record<string, string>>;
  /** Bound of the start (the prompt on screen and the plugin's SessionStart done); default 90 s. */
  readonly startTimeoutMs?: number;
}

/** The members of Claude Code's session registry file the tests read (docs/spec/claude-code.md §5). */
export interface ClaudeRegistryEntry {
  readonly pid: number;
  readonly sessionId: string;
  readonly status?: string;
  readonly messagingSocketPath?: string;
  readonly version?: string;
}

let sessions = 0;

/** Whether this process runs as root (bypass mode then needs `IS_SANDBOX=1`). */
function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * A running session. `start` resolves once Claude Code shows its prompt and the plugin's
 * SessionStart has registered the session (the by-pid map exists). `close()` kills it and
 * removes its folder; `end()` ends it the way a person does (`/exit`), so SessionEnd runs.
 *
 * @example
 * const dana = await RealClaudeSession.start(world, world.founder, { executable });
 * dana.api.script(bash("brigade sessions"), say("Listed."));
 * await dana.prompt("who is online?");
 * const result = await dana.waitForModelText((t) => t.place === "tool-result", 60_000, "the list");
 */
export class RealClaudeSession {
  readonly who: Person;
  readonly api: FakeMessagesApi;
  readonly claude: TmuxClaude;
  readonly configDir: string;
  /** The session's own folder (tmux socket, Claude Code's TMPDIR). */
  readonly dir: string;
  readonly #world: PluginWorld;

  private constructor(
    world: PluginWorld,
    who: Person,
    api: FakeMessagesApi,
    claude: TmuxClaude,
    configDir: string,
    dir: string,
  ) {
    this.#world = world;
    this.who = who;
    this.api = api;
    this.claude = claude;
    this.configDir = configDir;
    this.dir = dir;
  }

  /** Starts a session of `who` in their checkout. */
  static async start(
    world: PluginWorld,
    who: Person,
    options: RealSessionOptions,
  ): Promise<RealClaudeSession> {
    sessions += 1;
    const dir = mkdtempSync(join(world.root, "cc-"));
    const tmp = join(dir, "tmp");
    mkdirSync(tmp, { mode: 0o700 });
    const configDir = options.configDir ?? join(who.home, `.claude-${sessions}`);
    writeClientConfig({
      configDir,
      projectDir: who.checkout,
      apiKey: DUMMY_API_KEY,
      ...(options.settings === undefined ? {} : { settings: options.settings }),
    });
    const api = await FakeMessagesApi.start();
    const pluginEnv = Object.fromEntries(
      Object.entries(options.pluginOptions ?? {}).map(([key, value]) => [
        `CLAUDE_PLUGIN_OPTION_${key.toUpperCase()}`,
        value,
      ]),
    );
    const env: Record<string, string> = {
      ...who.env,
      TMPDIR: tmp,
      CLAUDE_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: DUMMY_API_KEY,
      // No telemetry, no update check, no call to anything but the fake.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      ...(runningAsRoot() ? { IS_SANDBOX: "1" } : {}),
      ...pluginEnv,
      ...options.env,
    };
    const args = ["--plugin-dir", world.pluginRoot];
    if (options.permissionMode !== undefined)
      args.push("--permission-mode", options.permissionMode);
    let claude: TmuxClaude;
    try {
      claude = await TmuxClaude.start({
        executable: options.executable,
        args,
        cwd: who.checkout,
        env,
        dir,
      });
    } catch (error) {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    const session = new RealClaudeSession(world, who, api, claude, configDir, dir);
    try {
      const timeoutMs = options.startTimeoutMs ?? 90_000;
      await claude.waitForPane(/❯/, timeoutMs, "Claude Code's prompt");
      await waitFor(
        () => existsSync(session.byPidMapPath()),
        timeoutMs,
        "the plugin's SessionStart",
      );
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /** Claude Code's pid (`CLAUDE_PID` of its hooks and tools). */
  get claudePid(): number {
    return this.claude.pid;
  }

  /** The plugin's by-pid map of this session (written by SessionStart). */
  byPidMapPath(): string {
    return join(this.who.stateDir, "sessions", "by-pid", `${this.claude.pid}.json`);
  }

  /** The Brigade session id SessionStart registered. */
  brigadeSessionId(): string {
    return this.#world.mapOf(this.who, { claudePid: this.claude.pid }).brigade_session_id;
  }

  /** Claude Code's registry entry for this process (`$CLAUDE_CONFIG_DIR/sessions/<pid>.json`). */
  registry(): ClaudeRegistryEntry {
    return JSON.parse(
      readFileSync(join(this.configDir, "sessions", `${this.claude.pid}.json`), "utf8"),
    ) as ClaudeRegistryEntry;
  }

  /** Waits until Claude Code's registry says the session is idle (its turn is over). */
  async waitForIdle(timeoutMs = 60_000): Promise<void> {
    try {
      await waitFor(
        () => {
          try {
            return this.registry().status === "idle";
          } catch {
            return false;
          }
        },
        timeoutMs,
        "the session to be idle",
      );
    } catch {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for the session to be idle; the screen:\n${this.claude.pane()}`,
      );
    }
  }

  /**
   * Types `text` as the user's prompt and resolves with the conversation request that carries it
   * (the first one, from now on, whose texts include it).
   */
  async prompt(text: string, timeoutMs = 60_000): Promise<RecordedRequest> {
    const from = this.api.requests.length;
    await this.claude.type(text);
    return this.api.waitForRequest(
      (request) =>
        request.conversation &&
        modelTexts(request.body).some(
          (entry) => entry.place === "user" && entry.text.includes(text),
        ),
      timeoutMs,
      "the prompt in a model request",
      from,
    );
  }

  /**
   * Resolves with the first conversation request, at index `from` of `api.requests` or later, one
   * of whose texts satisfies `matches`, and that text.
   */
  async waitForModelText(
    matches: (text: ModelText) => boolean,
    timeoutMs: number,
    what: string,
    from = 0,
  ): Promise<{ request: RecordedRequest; text: ModelText }> {
    const request = await this.api.waitForRequest(
      (candidate) => candidate.conversation && modelTexts(candidate.body).some(matches),
      timeoutMs,
      what,
      from,
    );
    const text = modelTexts(request.body).find(matches);
    if (text === undefined) throw new Error("unreachable: the matched request lost its text");
    return { request, text };
  }

  /**
   * Ends the session as a person does: `/exit` at the prompt, which runs SessionEnd. Resolves once
   * the process has exited.
   */
  async end(timeoutMs = 30_000): Promise<void> {
    await this.claude.type("/exit");
    await this.claude.waitForExit(timeoutMs);
  }

  /**
   * Kills Claude Code and whatever it left (its tmux server), waits (up to 10 s) for the
   * plugin's watcher to notice and go, stops the fake API and removes the session's folder and
   * config folder. Safe to call twice.
   */
  async close(): Promise<void> {
    await this.claude.close();
    const pidfile = join(this.who.stateDir, "watchers", `${this.claude.pid}.json`);
    await waitFor(() => !existsSync(pidfile), 10_000, "the watcher to exit").catch(() => undefined);
    await this.api.close();
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5 });
    rmSync(this.configDir, { recursive: true, force: true, maxRetries: 5 });
  }
}
