import { showsClaudeCodeSession } from "./claude-code/claude-pid.ts";
import { CODEX_SESSION_VARIABLES } from "./codex/codex-facts.ts";
import { GEMINI_SESSION_VARIABLES } from "./gemini/gemini-facts.ts";
import { type HostClient, repositoryDotenvChoice } from "./host-session/index.ts";
import { QWEN_SESSION_VARIABLE } from "./qwen/qwen-facts.ts";

/**
 * The coding-agent clients reached through their hooks and `brigade mcp` (docs/49-hosts.md), by
 * the name `brigade install <name>` takes, each loaded only when named. A new client is one folder
 * under `src/harness/` exporting a `HostClient`, and one line here.
 */
export const HOST_CLIENTS: Readonly<Record<string, () => Promise<HostClient>>> = {
  gemini: async () => (await import("./gemini/index.ts")).GEMINI_CLIENT,
  codex: async () => (await import("./codex/index.ts")).CODEX_CLIENT,
  qwen: async () => (await import("./qwen/index.ts")).QWEN_CLIENT,
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
 * Whether `env` shows an agent session of any client Brigade knows, where a model, not the
 * person, may be typing: Claude Code's variables (`showsClaudeCodeSession`), Gemini CLI's
 * (`GEMINI_SESSION_VARIABLES`), Codex's (`CODEX_SESSION_VARIABLES`) or Qwen Code's
 * (`QWEN_SESSION_VARIABLE`), any of them set and non-empty. The same variables each client's
 * `HostClient.insideSession` reads, from the facts files alone, so a caller in the plugin's bundle
 * does not load the clients.
 *
 * @example insideAgentSession({ GEMINI_CLI: "1" }) === true
 */
export function insideAgentSession(env: Readonly<Record<string, string | undefined>>): boolean {
  const set = (name: string) => (env[name] ?? "") !== "";
  return (
    showsClaudeCodeSession(env) ||
    GEMINI_SESSION_VARIABLES.some(set) ||
    CODEX_SESSION_VARIABLES.some(set) ||
    set(QWEN_SESSION_VARIABLE)
  );
}
