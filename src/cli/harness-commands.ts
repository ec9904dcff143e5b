import type { CommandTable } from "./command-table.ts";

/**
 * The commands the Claude Code plugin ships (its bundle holds these and nothing that needs a native
 * module): the session CLI the model runs, the human's team commands, the hooks, the watcher, and
 * the format tools. Loaded lazily so a hook pays only for its own imports. Not `adapter`: the
 * harness calls its adapter in process, and on the model's PATH the raw BAP/1 binding would let
 * the model read held bodies unsanitised, acknowledge, close or leave — acts the session CLI keeps
 * from it.
 */
export const HARNESS_COMMANDS: CommandTable = {
  inspect: {
    summary: "report every frame, envelope, sentinel, manifest and forged tag in text on stdin",
    load: async () => (await import("./inspect-command.ts")).runInspect,
  },
  watch: {
    summary: "the session's message watcher (started by the plugin's hooks, never by hand)",
    load: async () => (await import("./watch-command.ts")).runWatch,
  },
  frame: {
    summary: "build a <brigade-message> frame from a JSON message envelope on stdin",
    load: async () => (await import("./frame-command.ts")).runFrame,
  },
  status: {
    summary:
      "your team, its server and TLS, you, your live sessions and what waits for you (in your terminal)",
    load: async () => (await import("./status-command.ts")).runStatus,
  },
  sessions: {
    summary: "list your team's sessions (from a session's Bash tool, or your own terminal)",
    load: async () => (await import("./sessions-command.ts")).runSessions,
  },
  send: {
    summary:
      "send a message to a session of your team: brigade send <id> <<'EOF' ... EOF; as yourself: brigade send --as-me <id> <text>",
    load: async () => (await import("./send-command.ts")).runSend,
  },
  whoami: {
    summary: "show this session's Brigade name, id, team, policy and delivery",
    load: async () => (await import("./whoami-command.ts")).runWhoami,
  },
  sent: {
    summary:
      "list recent messages and what became of each (a session's own; in your terminal, all of yours)",
    load: async () => (await import("./sent-command.ts")).runSent,
  },
  inbox: {
    summary:
      "list held messages; inbox release (your own terminal only) delivers them; inbox show <id> prints one whole",
    load: async () => (await import("./inbox-command.ts")).runInbox,
  },
  hook: {
    summary:
      "run a Claude Code hook: brigade hook session-start|prompt|post-tool-use|session-end (exits 0)",
    load: async () => (await import("./hook-command.ts")).runHook,
  },
  team: {
    summary:
      "your team for this checkout: create|join|leave|members; the creator's rotate-secret|remove|transfer",
    load: async () => (await import("./team-command.ts")).runTeam,
  },
};

/**
 * The person's CLI's commands that the plugin's `brigade` leaves out, each with the sentence the
 * plugin's `brigade` answers them with (a fixed name, never the typed text): the person runs them
 * with a checkout's CLI (docs/46-cli.md).
 */
export const PERSON_ONLY_COMMANDS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "adapter",
    "serve",
    "backup",
    "demo",
    "doctor",
    "uninstall",
    "migrate-store",
    "conformance",
    "mcp",
    "install",
    "host-hook",
    "host-watch",
    "qwen",
  ].map((name) => [
    name,
    `"brigade ${name}" is not in the Claude Code plugin's brigade: run it with the brigade of a Brigade checkout (npm run install-cli there; docs/46-cli.md)`,
  ]),
);
