import type { HttpAdapter } from "../adapters/http/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../harness/adapter/index.ts";
import { resolveSessionTeam } from "../harness/binding/index.ts";
import { agentClientAbove, insideAgentSession } from "../harness/host-clients.ts";
import { bapErrorLine } from "../harness/session-context/index.ts";
import { isBapError } from "../protocol/index.ts";
import type { CliIo } from "./cli-io.ts";
import { SESSION_TEAM_LINES } from "./team/team-report.ts";

/**
 * The person a command acts for when it runs outside any agent session (`brigade status`,
 * `sessions`, `sent`, `send --as-me`): the team the current folder is bound to and this
 * machine's credential for it, found by the session rule of docs/44-team-binding.md
 * (`resolveSessionTeam`), and the person's principal.
 */
export interface PersonContext {
  /** The in-process http adapter on the team's profile. */
  readonly adapter: HttpAdapter;
  /** The team's server, normalised (`https://…`). */
  readonly server: string;
  readonly teamRef: string;
  /** The team's name as the server answered at join time (unsanitised). */
  readonly teamName: string;
  /** This machine's principal in the team (from the profile; local, no server call). */
  readonly principalRef: string;
}

/** Result of {@link loadPersonContext}. */
export type PersonContextResult =
  | ({ readonly ok: true } & PersonContext)
  | {
      readonly ok: false;
      /** 11 (`config`) for a folder without a joined team, or the BAP status of `describe`. */
      readonly status: number;
      /** One value-free line, without the command's prefix. */
      readonly line: string;
    };

/**
 * Finds the person's team for the folder the command runs in (`io.cwd`, else the process's) and opens its adapter (`timeoutMs` a call).
 * Failures: no binding, no consent, a mismatch or no configuration folder → exit 11 and the
 * `SESSION_TEAM_LINES` sentence; a profile that is not joined → 11, "join the team first". No
 * server call: the principal comes from the local profile.
 *
 * @example const ctx = await loadPersonContext(io, 10_000); ctx.ok && ctx.principalRef
 */
export async function loadPersonContext(
  io: CliIo,
  timeoutMs: number,
): Promise<PersonContextResult> {
  const cwd = io.cwd ?? process.cwd();
  const team = resolveSessionTeam({ cwd, configDir: harnessConfigDir(io.env) });
  if (!team.ok) {
    return {
      ok: false,
      status: 11,
      line: `config: ${team.reason}: ${SESSION_TEAM_LINES[team.reason] ?? "no team for this folder"}`,
    };
  }
  const adapter = openHarnessAdapter(
    { configDir: team.configDir, teamKey: team.teamKey },
    { timeoutMs },
  );
  try {
    const profile = (await adapter.describe()).profile;
    if (profile.state !== "joined") {
      return {
        ok: false,
        status: 11,
        line: "config: not_joined: this machine holds no credential for the folder's team; run brigade team join here",
      };
    }
    return {
      ok: true,
      adapter,
      server: team.server,
      teamRef: team.teamRef,
      teamName: team.teamName,
      principalRef: profile.principal_ref,
    };
  } catch (error) {
    if (!isBapError(error)) throw error;
    return { ok: false, status: error.exitStatus, line: bapErrorLine(error) };
  }
}

/**
 * Why a command that speaks as the person refuses to run here, or `undefined` in the person's
 * own terminal, checked in this order: `agent_session` when anything in the environment shows a
 * coding agent's session (`insideAgentSession`: Claude Code's variables, Gemini CLI's, Codex's,
 * Qwen Code's, …); `under_agent` when a coding-agent client's process is among this process's
 * ancestors (`io.agentAbove`, by default `agentClientAbove`: its shell tool runs the command,
 * whatever was stripped from the environment); `no_terminal` when stdin or stdout is not a
 * terminal (a pipe, a script). All three must pass. What this cannot tell apart is said in
 * docs/43-session-cli.md ("Telling the person's terminal apart").
 *
 * @example await personTerminalRefusal(io) // "no_terminal" in a test, undefined in a terminal
 */
export async function personTerminalRefusal(
  io: CliIo,
): Promise<"agent_session" | "under_agent" | "no_terminal" | undefined> {
  if (insideAgentSession(io.env)) return "agent_session";
  if ((io.agentAbove ?? agentClientAbove)() !== undefined) return "under_agent";
  if (io.terminal?.stdin !== true || io.terminal.stdout !== true) return "no_terminal";
  return undefined;
}
