import { type CliIo, CliUsageError } from "./cli-io.ts";

/** A `brigade` subcommand: runs with the arguments after its name and returns the exit status. */
export type CommandRunner = (argv: string[], io: CliIo) => Promise<number>;

/** Subcommands, loaded lazily so a command pays only for its own imports (hooks start fast). */
const commands: Record<string, { summary: string; load: () => Promise<CommandRunner> }> = {
  inspect: {
    summary: "report every frame, envelope, sentinel, manifest and forged tag in text on stdin",
    load: async () => (await import("./inspect-command.ts")).runInspect,
  },
  serve: {
    summary: "run the team backend (HTTP API on embedded SQLite)",
    load: async () => (await import("./serve-command.ts")).runServe,
  },
  adapter: {
    summary: "run a bundled BAP/1 adapter: brigade adapter http <group> <verb> [flags]",
    load: async () => (await import("./adapter-command.ts")).runAdapter,
  },
  conformance: {
    summary: "run the BAP/1 conformance suite against an adapter executable",
    load: async () => (await import("../conformance/cli.ts")).runConformanceCli,
  },
  frame: {
    summary: "build a <brigade-message> frame from a JSON message envelope on stdin",
    load: async () => (await import("./frame-command.ts")).runFrame,
  },
};

const USAGE = [
  "usage: brigade <command> [options]",
  "",
  "commands:",
  ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`),
  "",
].join("\n");

/**
 * Runs `brigade` with `argv` (the arguments after the program name) and returns the exit status:
 * 0 success, 2 a usage or input error (one line on stderr), 1 an internal error.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (command === undefined) {
    io.stderr(`brigade: unknown command (run "brigade help")\n`);
    return 2;
  }
  try {
    const run = await command.load();
    return await run(rest, io);
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.stderr(`brigade ${name}: ${error.message}\n`);
      return 2;
    }
    io.stderr(
      `brigade ${name}: internal error (${error instanceof Error ? error.name : "unknown"})\n`,
    );
    return 1;
  }
}
