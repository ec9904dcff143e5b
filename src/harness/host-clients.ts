import { type HostClient, repositoryDotenvChoice } from "./host-session/index.ts";

/**
 * The coding-agent clients reached through their hooks and `brigade mcp` (docs/49-hosts.md), by
 * the name `brigade install <name>` takes, each loaded only when named. A new client is one folder
 * under `src/harness/` exporting a `HostClient`, and one line here.
 */
export const HOST_CLIENTS: Readonly<Record<string, () => Promise<HostClient>>> = {
  gemini: async () => (await import("./gemini/index.ts")).GEMINI_CLIENT,
  codex: async () => (await import("./codex/index.ts")).CODEX_CLIENT,
  qwen: async () => (await import("./qwen/index.ts")).QWEN_CLIENT,
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
