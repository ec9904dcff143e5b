import type { CommandTable } from "./command-table.ts";

/**
 * The commands the Claude Code plugin ships (its bundle holds these and nothing that needs a native
 * module): the session CLI the model runs, the human's team commands, the hooks, the watcher, and
 * the format tools. Loaded lazily so a hook pays only for its own imports.
 */
export const HARNESS_COMMANDS: CommandTable = {
  inspect: {
    summary: "report every frame, envelope, sentinel, manifest and forged tag in text on stdin",
    load: async () => (await import("./inspect-command.ts")).runInspect,
  },
  adapter: {
    summary: "run a bundled BAP/1 adapter: brigade adapter http <group> <verb> [flags]",
    load: async () => (await import("./adapter-command.ts")).runAdapter,
  },
  frame: {
    summary: "build a <brigade-message> frame from a JSON message envelope on stdin",
    load: async () => (await import("./frame-command.ts")).runFrame,
  },
};
