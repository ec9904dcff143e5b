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
 * the argument (possibly hostile). An option that takes a value, given twice, is a usage error
 * naming the option (from `options`, never the input). `refusal` replaces that fixed message for
 * a command that words it its own way (`brigade team <sub>`).
 *
 * @throws CliUsageError `unknown option or argument (run "brigade <command> --help")`, or
 * `refusal`, or `--<option> is given more than once (run "brigade <command> --help")` (exit 2).
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
  let parsed: ParsedCommandFlags<O, P>;
  let tokens: readonly { kind: string; name?: string }[];
  try {
    const config = {
      args: argv,
      options,
      allowPositionals: (allowPositionals ?? false) as P,
      strict: true,
    } as const;
    parsed = parseArgs(config);
    tokens = parseArgs({ ...config, tokens: true }).tokens;
  } catch {
    throw new CliUsageError(
      refusal ?? `unknown option or argument (run "brigade ${command} --help")`,
    );
  }
  const repeated = repeatedValueOption(tokens, options);
  if (repeated !== undefined) {
    throw new CliUsageError(
      `--${repeated} is given more than once (run "brigade ${command} --help")`,
    );
  }
  return parsed;
}

/**
 * The first option that takes a value and is not `multiple` yet appears twice in `tokens`:
 * `parseArgs` would keep the last silently. A switch given twice means the same and passes.
 */
function repeatedValueOption(
  tokens: readonly { kind: string; name?: string }[],
  options: CommandFlagOptions,
): string | undefined {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined) continue;
    const option = options[token.name];
    if (option === undefined || option.type !== "string" || option.multiple === true) continue;
    if (seen.has(token.name)) return token.name;
    seen.add(token.name);
  }
  return undefined;
}
