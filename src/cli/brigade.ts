import type { CliIo } from "./cli-io.ts";
import { type CommandTable, dispatchCommand } from "./command-table.ts";
import { HARNESS_COMMANDS } from "./harness-commands.ts";

export type { CommandRunner } from "./command-table.ts";

/**
 * Every subcommand: the plugin's commands, plus those that need the server's native modules, plus
 * the adapter executable (never in the plugin: see HARNESS_COMMANDS).
 */
const commands: CommandTable = {
  ...HARNESS_COMMANDS,
  adapter: {
    summary: "run a bundled BAP/1 adapter: brigade adapter http <group> <verb> [flags]",
    load: async () => (await import("./adapter-command.ts")).runAdapter,
  },
  mcp: {
    summary: "serve send, inbox and who to a coding-agent host as an MCP server on stdio",
    load: async () => (await import("./mcp/mcp-command.ts")).runMcp,
  },
  install: {
    summary: "connect a coding-agent client to Brigade: brigade install gemini (docs/49-hosts.md)",
    load: async () => (await import("./install-command.ts")).runInstall,
  },
  "host-hook": {
    summary: "run a client's hook: brigade host-hook <client> <event> (written by brigade install)",
    load: async () => (await import("./host-hook-command.ts")).runHostHook,
  },
  "host-watch": {
    summary: "a client session's push lane (started by the client's hook, never by hand)",
    load: async () => (await import("./host-watch-command.ts")).runHostWatch,
  },
  qwen: {
    summary: "keep your Qwen Code controller token for live delivery: brigade qwen token (stdin)",
    load: async () => (await import("./qwen-command.ts")).runQwen,
  },
  serve: {
    summary: "run the team backend (HTTP API on embedded SQLite, or PostgreSQL with --store)",
    load: async () => (await import("./serve-command.ts")).runServe,
  },
  backup: {
    summary: "copy a serve data file while the server runs: brigade backup DATA-FILE OUT-FILE",
    load: async () => (await import("./backup-command.ts")).runBackup,
  },
  demo: {
    summary: "see two teammates' sessions exchange messages, in seconds, with no Claude Code",
    load: async () => (await import("./demo/demo-command.ts")).runDemo,
  },
  doctor: {
    summary:
      "check this machine and checkout: versions, team, server, TLS, credential, watchers (--fix)",
    load: async () => (await import("./doctor/doctor-command.ts")).runDoctor,
  },
  uninstall: {
    summary:
      "put back the Claude Code setting brigade doctor --fix changed; list what else to remove",
    load: async () => (await import("./uninstall-command.ts")).runUninstall,
  },
  "migrate-store": {
    summary: "copy a SQLite data file into PostgreSQL: --from sqlite:FILE --to postgres://…",
    load: async () => (await import("./migrate-store-command.ts")).runMigrateStore,
  },
  conformance: {
    summary: "run the BAP/1 conformance suite against an adapter executable",
    load: async () => (await import("../conformance/cli.ts")).runConformanceCli,
  },
};

/**
 * Runs `brigade` with `argv` (the arguments after the program name) and returns the exit status:
 * 0 success, 2 a usage or input error (one line on stderr), 1 an internal error.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  return dispatchCommand(commands, argv, io);
}
