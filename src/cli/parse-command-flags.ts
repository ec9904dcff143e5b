import { type ParseArgsConfig, parseArgs } from "node:util";
import { CliUsageError } from "./cli-io.ts";

/** The option table {@link parseCommandFlags} takes: `node:util` `parseArgs` options. */
export type CommandFlagOptions = NonNullable<ParseArgsConfig["options"]>;

/** What {@link parseCommandFlags} returns: `parseArgs`'s typed `values` (and `positionals`). */
export type ParsedCommandFlags<O extends CommandFlagOptions, P extends boolean> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: P; strict: true }>
>;

/**
 * Parses `argv` strictly for the command `brigade <command>`: an unknown option, a missing or
 * extra option value, or (unless `allowPositionals`) any positional argument is a usage error
 * whose fixed message names the command's `--help` — never `parseArgs`'s own text, which quotes
 * the argument (possibly hostile). `refusal` replaces that fixed message for a command whose help
 * is reached otherwise (`brigade team help`).
 *
 * @throws CliUsageError `unknown option or argument (run "brigade <command> --help")`, or
 * `refusal` (exit 2).
 * @example const { values } = parseCommandFlags("sessions", argv, { json: { type: "boolean" } });
 */
export function parseCommandFlags<
  const O extends CommandFlagOptions,
  const P extends boolean = false,
>(
  command: string,
  argv: string[],
  options: O,
  allowPositionals?: P,
  refusal?: string,
): ParsedCommandFlags<O, P> {
  try {
    return parseArgs({
      args: argv,
      options,
      allowPositionals: (allowPositionals ?? false) as P,
      strict: true,
    });
  } catch {
    throw new CliUsageError(
      refusal ?? `unknown option or argument (run "brigade ${command} --help")`,
    );
  }
}
