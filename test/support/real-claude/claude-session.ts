/**
 * What a test asks of any real Claude Code session, interactive or headless: its ids, Claude
 * Code's registry entry, what its model read, and its clean-up.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Person, type PluginWorld, waitFor } from "../plugin-world.ts";
import type { FakeMessagesApi, RecordedRequest } from "./fake-messages-api.ts";
import { type ModelText, modelTexts } from "./model-view.ts";
import { discardSession, type SessionSetup } from "./session-setup.ts";

/** The members of Claude Code's session registry file the tests read (docs/spec/claude-code.md §5). */
export interface ClaudeRegistryEntry {
  readonly pid: number;
  readonly sessionId: string;
  readonly status?: string;
  readonly kind?: string;
  readonly entrypoint?: string;
  readonly messagingSocketPath?: string;
  readonly version?: string;
}

/** The shared part of {@link RealClaudeSession} and {@link HeadlessClaudeSession}. */
export abstract class ClaudeSession {
  readonly who: Person;
  readonly api: FakeMessagesApi;
  readonly configDir: string;
  /** The session's own folder (tmux socket, Claude Code's `TMPDIR`). */
  readonly dir: string;
  protected readonly world: PluginWorld;
  readonly #setup: SessionSetup;

  protected constructor(world: PluginWorld, who: Person, setup: SessionSetup) {
    this.world = world;
    this.who = who;
    this.#setup = setup;
    this.api = setup.api;
    this.configDir = setup.configDir;
    this.dir = setup.dir;
  }

  /** Claude Code's pid (`CLAUDE_PID` of its hooks and tools). */
  abstract get claudePid(): number;

  /** Kills the process and whatever it left; see the subclasses. */
  protected abstract stopProcess(): Promise<void>;

  /** The plugin's by-pid map of this session (written by SessionStart, removed by SessionEnd). */
  byPidMapPath(): string {
    return join(this.who.stateDir, "sessions", "by-pid", `${this.claudePid}.json`);
  }

  /** The plugin's watcher pidfile of this session. */
  watcherPidfilePath(): string {
    return join(this.who.stateDir, "watchers", `${this.claudePid}.json`);
  }

  /** The plugin's watcher log of this session (one JSON object a line). */
  watcherLogPath(): string {
    return join(this.who.stateDir, "logs", `watcher-${this.claudePid}.log`);
  }

  /** The Brigade session id SessionStart registered. */
  brigadeSessionId(): string {
    return this.world.mapOf(this.who, { claudePid: this.claudePid }).brigade_session_id;
  }

  /** Claude Code's registry entry for this process (`$CLAUDE_CONFIG_DIR/sessions/<pid>.json`). */
  registry(): ClaudeRegistryEntry {
    return JSON.parse(
      readFileSync(join(this.configDir, "sessions", `${this.claudePid}.json`), "utf8"),
    ) as ClaudeRegistryEntry;
  }

  /**
   * The session's transcript, `$CLAUDE_CONFIG_DIR/projects/<slug>/<session id>.jsonl`, found by
   * the registry's session id (so the slug rule of the checkout path need not be repeated here), or
   * `undefined` while Claude Code has written none.
   */
  transcriptPath(): string | undefined {
    const name = `${this.registry().sessionId}.jsonl`;
    const projects = join(this.configDir, "projects");
    if (!existsSync(projects)) return undefined;
    for (const slug of readdirSync(projects)) {
      const path = join(projects, slug, name);
      if (existsSync(path)) return path;
    }
    return undefined;
  }

  /** Waits until SessionStart has registered the session (the by-pid map exists). */
  protected async waitForRegistration(timeoutMs: number): Promise<void> {
    await waitFor(() => existsSync(this.byPidMapPath()), timeoutMs, "the plugin's SessionStart");
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
        `timed out after ${timeoutMs} ms waiting for the session to be idle; ${this.describe()}`,
      );
    }
  }

  /** A line or a screen that shows the state of the process, for failure messages. */
  abstract describe(): string;

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
   * Kills the process and whatever it left, waits (up to 10 s) for the plugin's watcher to notice
   * and go, stops the fake API and removes the session's folder and config folder. Safe to call
   * twice.
   */
  async close(): Promise<void> {
    await this.stopProcess();
    await waitFor(
      () => !existsSync(this.watcherPidfilePath()),
      10_000,
      "the watcher to exit",
    ).catch(() => undefined);
    await discardSession(this.#setup);
  }
}
