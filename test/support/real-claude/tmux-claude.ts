/**
 * Drives one interactive Claude Code process in a tmux server of its own: start it with an exact
 * environment, type into it, read its screen, wait on the screen with a bound, end it, and kill
 * whatever is left.
 */
import { execFile, execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { waitFor } from "../plugin-world.ts";

const run = promisify(execFile);

/** How to start the process. */
export interface TmuxClaudeOptions {
  /** The Claude Code executable. */
  readonly executable: string;
  /** Its arguments (e.g. `--plugin-dir <path>`). */
  readonly args: readonly string[];
  /** The folder it starts in. */
  readonly cwd: string;
  /** Its whole environment: nothing of the test's own environment leaks in. `TERM` is added. */
  readonly env: Readonly<Record<string, string>>;
  /** A folder of the caller's for the tmux socket and config (short: socket paths are limited). */
  readonly dir: string;
  /** Screen size; default 200 × 50 (wide, so a frame's lines are not wrapped on screen). */
  readonly columns?: number;
  readonly rows?: number;
}

/** The tmux session name inside the private server. */
const SESSION = "claude";

/**
 * One Claude Code under tmux. The pane keeps its last screen after the process exits
 * (`remain-on-exit`), so a failure can still show it.
 *
 * @example
 * const claude = await TmuxClaude.start({ executable, args: [], cwd, env, dir });
 * await claude.waitForPane(/❯/, 30_000, "the prompt");
 * await claude.type("hello");
 */
export class TmuxClaude {
  /** The Claude Code process id (the pane's process: tmux execs the executable directly). */
  readonly pid: number;
  readonly #socket: string;

  private constructor(socket: string, pid: number) {
    this.#socket = socket;
    this.pid = pid;
  }

  /** Starts the tmux server and Claude Code in it; resolves once the pane's pid is known. */
  static async start(options: TmuxClaudeOptions): Promise<TmuxClaude> {
    const socket = join(options.dir, "tmux.sock");
    const conf = join(options.dir, "tmux.conf");
    writeFileSync(conf, "set -g remain-on-exit on\nset -g history-limit 5000\n");
    const env = { ...options.env, TERM: "xterm-256color" };
    await run(
      "tmux",
      [
        "-S",
        socket,
        "-f",
        conf,
        "new-session",
        "-d",
        "-s",
        SESSION,
        "-x",
        String(options.columns ?? 200),
        "-y",
        String(options.rows ?? 50),
        "-c",
        options.cwd,
        "--",
        options.executable,
        ...options.args,
      ],
      { env, timeout: 10_000 },
    );
    const { stdout } = await run(
      "tmux",
      ["-S", socket, "display", "-p", "-t", SESSION, "#{pane_pid}"],
      {
        timeout: 10_000,
      },
    );
    const pid = Number(stdout.trim());
    if (!Number.isSafeInteger(pid) || pid <= 0) throw new Error("tmux gave no pane pid");
    return new TmuxClaude(socket, pid);
  }

  /** The visible screen, trailing blank lines dropped. Empty once the tmux server is gone. */
  pane(): string {
    try {
      return execFileSync("tmux", ["-S", this.#socket, "capture-pane", "-p", "-t", SESSION], {
        encoding: "utf8",
        timeout: 10_000,
      }).trimEnd();
    } catch {
      return "";
    }
  }

  /** Whether the process has exited (the pane is dead, or the tmux server is gone). */
  exited(): boolean {
    try {
      const dead = execFileSync(
        "tmux",
        ["-S", this.#socket, "display", "-p", "-t", SESSION, "#{pane_dead}"],
        { encoding: "utf8", timeout: 10_000 },
      );
      return dead.trim() === "1";
    } catch {
      return true;
    }
  }

  /** Waits until the screen matches `pattern`; the rejection shows the screen. */
  async waitForPane(pattern: RegExp | string, timeoutMs: number, what: string): Promise<string> {
    const matches = (screen: string): boolean =>
      typeof pattern === "string" ? screen.includes(pattern) : pattern.test(screen);
    let screen = "";
    try {
      await waitFor(
        () => {
          screen = this.pane();
          return matches(screen);
        },
        timeoutMs,
        what,
      );
    } catch {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${screen}`,
      );
    }
    return screen;
  }

  /**
   * Types `text` literally (one line: a newline in it would press Enter), then presses Enter as a
   * separate key, as a person would. Text starting with `-` is typed, never read as a tmux flag.
   */
  async type(text: string): Promise<void> {
    await run("tmux", ["-S", this.#socket, "send-keys", "-t", SESSION, "-l", "--", text], {
      timeout: 10_000,
    });
    await this.keys("Enter");
  }

  /** Presses tmux key names (`Enter`, `Escape`, `C-c`, `Down` …). */
  async keys(...names: readonly string[]): Promise<void> {
    await run("tmux", ["-S", this.#socket, "send-keys", "-t", SESSION, ...names], {
      timeout: 10_000,
    });
  }

  /**
   * Picks the item of the menu on screen whose line contains `label`: presses Down until the
   * selection marker `❯` stands on that line (each press confirmed on screen before the next, so
   * no key is lost while the menu is still mounting), then Enter. Rejects with the screen when
   * the item is not reached within `timeoutMs`.
   */
  async chooseMenuItem(label: string, timeoutMs: number): Promise<void> {
    const selected = (): string =>
      this.pane()
        .split("\n")
        .find((line) => /^\s*❯ \S/.test(line) && !/^\s*❯\s*$/.test(line)) ?? "";
    const deadline = Date.now() + timeoutMs;
    while (!selected().includes(label)) {
      if (Date.now() > deadline)
        throw new Error(`the menu item "${label}" was not reached; the screen:\n${this.pane()}`);
      const before = selected();
      await this.keys("Down");
      await waitFor(() => selected() !== before, 2_000, "the selection to move").catch(
        () => undefined,
      );
    }
    await this.keys("Enter");
  }

  /** Waits until the process has exited; rejects after `timeoutMs` with the screen. */
  async waitForExit(timeoutMs: number): Promise<void> {
    try {
      await waitFor(() => this.exited(), timeoutMs, "Claude Code to exit");
    } catch {
      throw new Error(`Claude Code did not exit in ${timeoutMs} ms; the screen:\n${this.pane()}`);
    }
  }

  /**
   * Kills everything: the tmux server (which hangs up on the pane), then Claude Code itself with
   * SIGKILL if it outlived the hang-up for 3 s. Safe to call twice.
   */
  async close(): Promise<void> {
    try {
      await run("tmux", ["-S", this.#socket, "kill-server"], { timeout: 10_000 });
    } catch {
      // Already gone.
    }
    const alive = (): boolean => {
      try {
        process.kill(this.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      await waitFor(() => !alive(), 3_000, "Claude Code to exit after the hang-up");
    } catch {
      if (alive()) process.kill(this.pid, "SIGKILL");
    }
  }
}
