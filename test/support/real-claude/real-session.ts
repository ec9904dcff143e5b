/**
 * One real, interactive Claude Code session of a {@link PluginWorld} person: its own config
 * folder, its own fake Messages API, the installed plugin loaded with `--plugin-dir`, driven
 * through tmux.
 */
import { type Person, type PluginWorld, waitFor } from "../plugin-world.ts";
import { ClaudeSession } from "./claude-session.ts";
import type { RecordedRequest } from "./fake-messages-api.ts";
import { modelTexts } from "./model-view.ts";
import {
  discardSession,
  prepareSession,
  type SessionOptions,
  type SessionSetup,
} from "./session-setup.ts";
import { TmuxClaude } from "./tmux-claude.ts";

/** The title of Claude Code's dialog for a held peer message (2.1.334). */
export const HELD_DIALOG = "Held message from another session";

/**
 * A running interactive session. `start` resolves once Claude Code shows its prompt and the
 * plugin's SessionStart has registered the session (the by-pid map exists). `close()` kills it and
 * removes its folders; `end()` ends it the way a person does (`/exit`), so SessionEnd runs.
 *
 * @example
 * const dana = await RealClaudeSession.start(world, world.founder, { executable });
 * dana.api.script(bash("brigade sessions"), say("Listed."));
 * await dana.prompt("who is online?");
 * const result = await dana.waitForModelText((t) => t.place === "tool-result", 60_000, "the list");
 */
export class RealClaudeSession extends ClaudeSession {
  /** The tmux driver: the screen, keys, a dialog's answer. */
  readonly claude: TmuxClaude;

  private constructor(world: PluginWorld, who: Person, setup: SessionSetup, claude: TmuxClaude) {
    super(world, who, setup);
    this.claude = claude;
  }

  /** Starts a session of `who` in their checkout. */
  static async start(
    world: PluginWorld,
    who: Person,
    options: SessionOptions,
  ): Promise<RealClaudeSession> {
    const setup = await prepareSession(world, who, options);
    let claude: TmuxClaude;
    try {
      claude = await TmuxClaude.start({
        executable: options.executable,
        args: setup.args,
        cwd: who.checkout,
        env: setup.env,
        dir: setup.dir,
      });
    } catch (error) {
      await discardSession(setup);
      throw error;
    }
    const session = new RealClaudeSession(world, who, setup, claude);
    try {
      const timeoutMs = options.startTimeoutMs ?? 90_000;
      await claude.waitForPane(/❯/, timeoutMs, "Claude Code's prompt");
      if (options.registers !== false) await session.waitForRegistration(timeoutMs);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  get claudePid(): number {
    return this.claude.pid;
  }

  /** The screen. */
  describe(): string {
    return `the screen:\n${this.claude.pane()}`;
  }

  /**
   * Types `text` as the user's prompt and resolves with the conversation request that carries it
   * (the first one, from now on, whose user texts include it).
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
   * Waits for Claude Code's held-message dialog (a post it holds for the user, e.g. in a session
   * that bypasses prompts with no `crossSessionInbound` setting) and answers it as a person does:
   * `deliver` ("Deliver this message to Claude") or `deny` ("Deny — drop it and tell the sender
   * it was declined", selected by default). Resolves once the dialog has gone. Measured on
   * 2.1.334, whose dialog also offers "ctrl+x a to always deliver" (not driven here).
   */
  async answerHeldDialog(answer: "deliver" | "deny", timeoutMs = 30_000): Promise<void> {
    await this.claude.waitForPane(HELD_DIALOG, timeoutMs, "the held-message dialog");
    await this.claude.chooseMenuItem(
      answer === "deliver" ? "Deliver this message" : "Deny",
      timeoutMs,
    );
    try {
      await waitFor(
        () => {
          const screen = this.claude.pane();
          return !screen.includes(HELD_DIALOG);
        },
        timeoutMs,
        "the dialog to close",
      );
    } catch {
      throw new Error(`the held-message dialog did not close; ${this.describe()}`);
    }
  }

  /**
   * Ends the session as a person does: `/exit` at the prompt, which runs SessionEnd. Resolves once
   * the process has exited.
   */
  async end(timeoutMs = 30_000): Promise<void> {
    await this.claude.type("/exit");
    await this.claude.waitForExit(timeoutMs);
  }

  protected stopProcess(): Promise<void> {
    return this.claude.close();
  }
}
