import type { HostClient } from "./host-session/index.ts";

/**
 * The coding-agent clients reached through their hooks and `brigade mcp` (docs/49-hosts.md), by
 * the name `brigade install <name>` takes, each loaded only when named. A new client is one folder
 * under `src/harness/` exporting a `HostClient`, and one line here.
 */
export const HOST_CLIENTS: Readonly<Record<string, () => Promise<HostClient>>> = {
  gemini: async () => (await import("./gemini/index.ts")).GEMINI_CLIENT,
  codex: async () => (await import("./codex/index.ts")).CODEX_CLIENT,
};
