/**
 * The world of a real-client file in which a stand-in session of dana's sends and real Claude
 * Code sessions of eli's receive (the pinned version): the executable, the world, both people,
 * the sender, and what each case asks of them.
 */
import { expect } from "vitest";
import { openHarnessAdapter } from "../../../src/harness/adapter/index.ts";
import type { MessageEnvelope } from "../../../src/protocol/index.ts";
import type { ClaudeCodeHost } from "../claude-code-host/index.ts";
import { type Person, PluginWorld, sendCommand } from "../plugin-world.ts";
import { claudeCodeExecutable, PINNED_CLAUDE_CODE_VERSION } from "./claude-executable.ts";
import { RealClaudeSession } from "./real-session.ts";
import type { SessionOptions } from "./session-setup.ts";
import { storedEnvelope, storedMessageIds } from "./stored-envelope.ts";

/** What dana's `brigade send` stored and printed. */
export interface SentByDana {
  readonly envelope: MessageEnvelope;
  readonly stdout: string;
}

/**
 * Dana (the team's founder, a stand-in session named `api`) and eli (joined); eli's real
 * sessions are started through {@link start} and closed by {@link close}.
 *
 * @example
 * const w = await RecipientWorld.start("billing");
 * const eliCc = await w.start({ permissionMode: "bypassPermissions" });
 * const { envelope } = await w.send(eliCc.brigadeSessionId(), "hello");
 */
export class RecipientWorld {
  readonly executable: string;
  readonly world: PluginWorld;
  readonly dana: Person;
  readonly eli: Person;
  /** Dana's stand-in session: `brigade send` runs through its Bash tool. */
  readonly sender: ClaudeCodeHost;
  /** Dana's Brigade session id. */
  readonly danaId: string;
  readonly #sessions: RealClaudeSession[] = [];

  private constructor(executable: string, world: PluginWorld, eli: Person, sender: ClaudeCodeHost) {
    this.executable = executable;
    this.world = world;
    this.dana = world.founder;
    this.eli = eli;
    this.sender = sender;
    this.danaId = world.mapOf(world.founder, sender).brigade_session_id;
  }

  /** The pinned executable, a world whose team is `team`, eli joined, dana's session running. */
  static async start(team: string): Promise<RecipientWorld> {
    const executable = await claudeCodeExecutable(PINNED_CLAUDE_CODE_VERSION);
    const world = await PluginWorld.start("dana", team);
    const eli = await world.join("eli");
    const sender = await world.session(world.founder, "api");
    return new RecipientWorld(executable, world, eli, sender);
  }

  /** A real session of eli's, closed with the world. */
  async start(options: Partial<SessionOptions> = {}): Promise<RealClaudeSession> {
    const session = await RealClaudeSession.start(this.world, this.eli, {
      executable: this.executable,
      ...options,
    });
    this.#sessions.push(session);
    return session;
  }

  /** The ids of the messages the server still holds unacknowledged for `session`. */
  async unacked(session: { readonly claudePid: number }): Promise<string[]> {
    const map = this.world.mapOf(this.eli, session);
    const adapter = openHarnessAdapter({ configDir: this.eli.configDir, teamKey: map.team_key });
    return (await adapter.messageReceive(map.brigade_session_id)).messages.map((m) => m.message_id);
  }

  /** Dana's model runs `brigade send <to>` with `body`; the envelope the server stored, and stdout. */
  async send(to: string, body: string): Promise<SentByDana> {
    const run = await this.sender.runBash(sendCommand(to, body));
    expect(run.exitCode, run.stderr).toBe(0);
    const ids = storedMessageIds(this.world.dataFile, this.danaId, to);
    const envelope = storedEnvelope(this.world.dataFile, ids.at(-1) ?? "");
    if (envelope === undefined) throw new Error("the server stored no message");
    return { envelope, stdout: run.stdout };
  }

  /** Closes every session started here, then the world. */
  async close(): Promise<void> {
    await Promise.all(this.#sessions.map((session) => session.close()));
    await this.world.close();
  }
}
