import { brigadeVersion } from "../local-files/index.ts";
import { type CliIo, CliUsageError } from "./cli-io.ts";
import { nearestName } from "./nearest-name.ts";

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
  // Every summary starts in one column, after the longest name.
  const width = Math.max(...Object.keys(table).map((name) => name.length)) + 1;
  return [
    "usage: brigade <command> [options]",
    "",
    'A command\'s own help: "brigade <command> --help". The version: "brigade --version".',
    "",
    "commands:",
    ...Object.entries(table).map(([name, c]) => `  ${name.padEnd(width)} ${c.summary}`),
    "",
  ].join("\n");
}

/** The words that ask for the version instead of a command. */
const VERSION_WORDS: readonly string[] = ["--version", "-V", "version"];

/**
 * Runs the command `argv[0]` of `table` with the rest of `argv` and returns its exit status:
 * 0 success, 2 a usage or input error (one value-free line on stderr; `CliUsageError` is caught
 * here), 1 an internal error (the error's class name only, never its message). `--version`
 * (`-V`, `version`), or a known command followed by `--version` (`-V`) alone, prints
 * `brigade <version>` ({@link brigadeVersion}); `help <command>` runs
 * `<command> --help`; an unknown command is refused with the nearest known name when one is near
 * (the typed text is never repeated: it may be hostile). A name in `elsewhere` (commands another
 * `brigade` has, not this one) is refused, exit 2, with its sentence instead.
 */
export async function dispatchCommand(
  table: CommandTable,
  argv: string[],
  io: CliIo,
  elsewhere: Readonly<Record<string, string>> = {},
): Promise<number> {
  const [first, ...afterFirst] = argv;
  // `brigade <command> --version` as well: no command takes --version or -V as its only argument.
  const second = afterFirst.length === 1 ? afterFirst[0] : undefined;
  const versionAfterCommand =
    first !== undefined &&
    Object.hasOwn(table, first) &&
    (second === "--version" || second === "-V");
  if (
    versionAfterCommand ||
    (first !== undefined && VERSION_WORDS.includes(first) && afterFirst.length === 0)
  ) {
    io.stdout(`brigade ${brigadeVersion()}\n`);
    return 0;
  }
  const helpFor = first === "help" && afterFirst.length === 1 ? afterFirst[0] : undefined;
  const [name, ...rest] = helpFor === undefined ? argv : [helpFor, "--help"];
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout)(usage(table));
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(table, name) ? table[name] : undefined;
  if (command === undefined && Object.hasOwn(elsewhere, name)) {
    io.stderr(`brigade: ${elsewhere[name]}\n`);
    return 2;
  }
  if (command === undefined) {
    const near = nearestName(name, Object.keys(table));
    io.stderr(
      near === undefined
        ? `brigade: unknown command (run "brigade help")\n`
        : `brigade: unknown command; did you mean "brigade ${near}"? (run "brigade help")\n`,
    );
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
