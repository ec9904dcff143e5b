import { type CliIo, CliUsageError } from "./cli-io.ts";

/** A `brigade` subcommand: runs with the arguments after its name and returns the exit status. */
export type CommandRunner = (argv: string[], io: CliIo) => Promise<number>;

/** One entry of a command table: a help line and a lazy loader (a command pays only for its imports). */
export interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<CommandRunner>;
}

/** Subcommand name → entry. */
export type CommandTable = Readonly<Record<string, CommandEntry>>;

function usage(table: CommandTable): string {
  return [
    "usage: brigade <command> [options]",
    "",
    "commands:",
    ...Object.entries(table).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`),
    "",
  ].join("\n");
}

/**
 * Runs the command `argv[0]` of `table` with the rest of `argv` and returns its exit status:
 * 0 success, 2 a usage or input error (one value-free line on stderr; `CliUsageError` is caught
 * here), 1 an internal error (the error's class name only, never its message).
 */
export async function dispatchCommand(
  table: CommandTable,
  argv: string[],
  io: CliIo,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout)(usage(table));
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(table, name) ? table[name] : undefined;
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
