import { CLAUDE_CODE_PROCESS_SIGNATURE, showsClaudeCodeSession } from "./claude-code/index.ts";
import { CLINE_COMMAND_ENV, CLINE_PROCESS_SIGNATURE } from "./cline/cline-facts.ts";
import { CODEX_PROCESS_SIGNATURE, CODEX_SESSION_VARIABLES } from "./codex/codex-facts.ts";
import { GEMINI_PROCESS_SIGNATURE, GEMINI_SESSION_VARIABLES } from "./gemini/gemini-facts.ts";
import {
  agentAncestor,
  type HostClient,
  type ProcessReader,
  type ProcessSignature,
  processReader,
  repositoryDotenvChoice,
} from "./host-session/index.ts";
import {
  OPENCODE_COMMAND_ENV,
  OPENCODE_PROCESS_SIGNATURE,
  OPENCODE_SESSION_VARIABLE,
} from "./opencode/opencode-facts.ts";
import { QWEN_PROCESS_SIGNATURE, QWEN_SESSION_VARIABLE } from "./qwen/qwen-facts.ts";

/**
 * The coding-agent clients reached through their hooks and `brigade mcp` (docs/49-hosts.md), by
 * the name `brigade install <name>` takes, each loaded only when named. A new client is one folder
 * under `src/harness/` exporting a `HostClient`, and one line here.
 */
export const HOST_CLIENTS: Readonly<Record<string, () => Promise<HostClient>>> = {
  gemini: async () => (await import("./gemini/index.ts")).GEMINI_CLIENT,
  codex: async () => (await import("./codex/index.ts")).CODEX_CLIENT,
  qwen: async () => (await import("./qwen/index.ts")).QWEN_CLIENT,
  cline: async () => (await import("./cline/index.ts")).CLINE_CLIENT,
  opencode: async () => (await import("./opencode/index.ts")).OPENCODE_CLIENT,
};

/**
 * The repository `.env` that a client whose session `env` shows loaded into that environment and
 * that chooses Brigade's folders (`repositoryDotenvChoice` over each such client's
 * `dotenvFiles`, walking up from `cwd` to `env.HOME`), or `undefined`. `brigade mcp` asks it
 * before acting for anyone: such an environment may point it at a repository's own files.
 *
 * @example await clientDotenvChoice(process.env, process.cwd()) // "/w/api/.env" under a Gemini session whose repository set XDG_STATE_HOME
 */
export async function clientDotenvChoice(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<string | undefined> {
  for (const load of Object.values(HOST_CLIENTS)) {
    const client = await load();
    if (!client.insideSession(env) || client.dotenvFiles.length === 0) continue;
    const chosen = repositoryDotenvChoice(cwd, env.HOME ?? "", client.dotenvFiles);
    if (chosen !== undefined) return chosen;
  }
  return undefined;
}

/**
 * The variables each listed client (docs/49-hosts.md) sets for the commands its model runs, from
 * their measured facts: Gemini CLI's, Codex's, Qwen Code's, OpenCode's. Claude Code's are
 * `showsClaudeCodeSession`'s. A test checks every client's `insideSession` answers yes to its own.
 *
 * @example CLIENT_SESSION_VARIABLES.includes("GEMINI_CLI") === true
 */
export const CLIENT_SESSION_VARIABLES: readonly string[] = Object.freeze([
  ...GEMINI_SESSION_VARIABLES,
  ...CODEX_SESSION_VARIABLES,
  QWEN_SESSION_VARIABLE,
  OPENCODE_SESSION_VARIABLE,
]);

/**
 * The environments that mark a listed client's model shell by their values together, for clients
 * that set no variable of their own there (the Cline CLI 2.x: its pager settings), or whose own
 * variable is a plain word (OpenCode's `OPENCODE=1`). A test checks
 * every client's `insideSession` answers yes to its own.
 */
export const CLIENT_COMMAND_ENVS: readonly Readonly<Record<string, string>>[] = Object.freeze([
  CLINE_COMMAND_ENV,
  OPENCODE_COMMAND_ENV,
]);

/**
 * Whether anything in `env` says this process runs inside a coding agent's session, where a
 * model may be the one typing: any of Claude Code's session variables (`showsClaudeCodeSession`)
 * or any listed client's ({@link CLIENT_SESSION_VARIABLES}), set and non-empty, or all of one
 * of {@link CLIENT_COMMAND_ENVS}. The person's own
 * terminal shows none. An environment can be emptied (`env -i`), so a caller that must tell the
 * person apart checks a terminal too (docs/43-session-cli.md "The person's terminal"). Reads only the
 * clients' facts, never a client module, so the plugin's bundle stays small.
 *
 * @example insideAgentSession({ GEMINI_CLI: "1" }) === true
 */
export function insideAgentSession(env: Readonly<Record<string, string | undefined>>): boolean {
  return (
    showsClaudeCodeSession(env) ||
    CLIENT_SESSION_VARIABLES.some((name) => (env[name] ?? "") !== "") ||
    CLIENT_COMMAND_ENVS.some((marks) =>
      Object.entries(marks).every(([name, value]) => env[name] === value),
    )
  );
}

/**
 * What tells each coding-agent client's own process, by the name `brigade install` takes (Claude
 * Code as `claude-code`), from their measured facts: Claude Code's, and each listed client's
 * `HostClient.processSignature` (a test checks each is its client's own).
 *
 * @example Object.keys(CLIENT_PROCESS_SIGNATURES).includes("gemini") === true
 */
export const CLIENT_PROCESS_SIGNATURES: Readonly<Record<string, ProcessSignature>> = Object.freeze({
  "claude-code": CLAUDE_CODE_PROCESS_SIGNATURE,
  gemini: GEMINI_PROCESS_SIGNATURE,
  codex: CODEX_PROCESS_SIGNATURE,
  qwen: QWEN_PROCESS_SIGNATURE,
  cline: CLINE_PROCESS_SIGNATURE,
  opencode: OPENCODE_PROCESS_SIGNATURE,
});

/**
 * The coding-agent client (a key of {@link CLIENT_PROCESS_SIGNATURES}) running among the
 * ancestors of `pid` (this process by default), nearest first, or `undefined`: `agentAncestor`
 * over this machine's process table (`/proc` on Linux, `ps` on macOS; where neither can be read,
 * `undefined`). A model's shell tool runs its commands beneath its client, whatever it strips from
 * their environment. Never throws.
 *
 * @example agentClientAbove() // "gemini" from a command Gemini CLI's shell tool ran
 */
export function agentClientAbove(
  pid: number = process.pid,
  read: ProcessReader = processReader(),
): string | undefined {
  return agentAncestor(pid, read, CLIENT_PROCESS_SIGNATURES);
}
