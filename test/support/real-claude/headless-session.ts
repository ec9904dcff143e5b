/**
 * One real, headless Claude Code session (`claude -p`) of a {@link PluginWorld} person, set up as
 * the interactive one is (its own config folder and fake Messages API, the plugin loaded with
 * `--plugin-dir`), run as a plain child process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { Person, PluginWorld } from "../plugin-world.ts";
import { ClaudeSession } from "./claude-session.ts";
import {
  discardSession,
  prepareSession,
  type SessionOptions,
  type SessionSetup,
} from "./session-setup.ts";

/** How to start a headless session. */
export interface HeadlessSessionOptions extends SessionOptions {
  /** The first prompt. */
  readonly prompt: string;
  /**
   * Keep stdin open and speak stream-json (`--input-format stream-json --output-format
   * stream-json --verbose`): the prompt is the first input line, {@link HeadlessClaudeSession.send}
   * adds more, {@link HeadlessClaudeSession.endInput} lets the run finish. Default false: the
   * prompt is an argument, stdin is `/dev/null`, and the run ends after one turn.
   */
  readonly keepInputOpen?: boolean;
}

/** How the process ended. */
export interface HeadlessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** One stream-json user line. */
function userLine(prompt: string): string {
  return `${JSON.stringify({ type: "user", message: { role: "user", content: prompt } })}\n`;
}

/**
 * A running `claude -p`. `start` resolves once the process is spawned (not once SessionStart has
 * run: a one-turn run may be over before a test could look; use `waitForRegistration`-backed
 * helpers such as {@link HeadlessClaudeSession.registered} while it runs).
 *
 * @example
 * const run = await HeadlessClaudeSession.start(world, eli, { executable, prompt: "go", keepInputOpen: true });
 * await run.registered();
 * // … send it a message, look at run.api …
 * run.endInput();
 * await run.waitForExit(60_000);
 */
export class HeadlessClaudeSession extends ClaudeSession {
  readonly child: ChildProcess;
  readonly exited: Promise<HeadlessExit>;
  #stdout = "";
  #stderr = "";

  private constructor(world: PluginWorld, who: Person, setup: SessionSetup, child: ChildProcess) {
    super(world, who, setup);
    this.child = child;
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      this.#stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.#stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      child.once("close", (code, signal) => resolve({ code, signal }));
      child.once("error", () => resolve({ code: null, signal: null }));
    });
  }

  /** Starts `claude -p` for `who` in their checkout. */
  static async start(
    world: PluginWorld,
    who: Person,
    options: HeadlessSessionOptions,
  ): Promise<HeadlessClaudeSession> {
    const setup = await prepareSession(world, who, options);
    const streaming = options.keepInputOpen === true;
    const args = streaming
      ? [
          ...setup.args,
          "-p",
          "--input-format",
          "stream-json",
          "--output-format",
          "stream-json",
          "--verbose",
        ]
      : [...setup.args, "-p", options.prompt];
    let child: ChildProcess;
    try {
      child = spawn(options.executable, args, {
        cwd: who.checkout,
        env: setup.env,
        stdio: [streaming ? "pipe" : "ignore", "pipe", "pipe"],
      });
    } catch (error) {
      await discardSession(setup);
      throw error;
    }
    const session = new HeadlessClaudeSession(world, who, setup, child);
    if (streaming) session.send(options.prompt);
    return session;
  }

  get claudePid(): number {
    const pid = this.child.pid;
    if (pid === undefined) throw new Error("claude -p did not start");
    return pid;
  }

  /** What the process printed on stdout so far. */
  stdout(): string {
    return this.#stdout;
  }

  /** What the process printed on stderr so far. */
  stderr(): string {
    return this.#stderr;
  }

  /** Resolves once SessionStart has registered the session; rejects after `timeoutMs`. */
  registered(timeoutMs = 90_000): Promise<void> {
    return this.waitForRegistration(timeoutMs);
  }

  /** Sends one more user prompt (only with `keepInputOpen`). */
  send(prompt: string): void {
    if (this.child.stdin === null)
      throw new Error("send: this run was started without keepInputOpen");
    this.child.stdin.write(userLine(prompt));
  }

  /** Closes stdin: the run ends once its work is done. */
  endInput(): void {
    this.child.stdin?.end();
  }

  /** Resolves with how the process ended; rejects after `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<HeadlessExit> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`claude -p did not exit in ${timeoutMs} ms; ${this.describe()}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The exit status (if any) and the tail of stderr. */
  describe(): string {
    const { exitCode, signalCode } = this.child;
    const state =
      exitCode === null && signalCode === null ? "running" : `exited ${exitCode ?? signalCode}`;
    return `claude -p ${state}; stderr tail:\n${this.#stderr.slice(-2000)}`;
  }

  /** SIGTERM, then SIGKILL after 3 s. */
  protected async stopProcess(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 3_000);
    await this.exited;
    clearTimeout(timer);
  }
}
