import { type ParseArgsConfig, parseArgs } from "node:util";
import { CliUsageError } from "./cli-io.ts";
import { nearestName } from "./nearest-name.ts";

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
 * a command that words it its own way (`brigade team <sub>`). An unknown long option near one of
 * the command's own ({@link nearestName}: `--sumary`, `--human_label`) is answered with that
 * option's name instead, as an unknown command is: the name comes from `options`, never from the
 * input.
 *
 * @throws CliUsageError `unknown option; did you mean "--<option>"? (run "brigade <command> --help")`,
 * `unknown option or argument (run "brigade <command> --help")`, or `refusal`, or
 * `--<option> is given more than once (run "brigade <command> --help")` (exit 2).
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
    const near = nearestUnknownOption(argv, options);
    throw new CliUsageError(
      near !== undefined
        ? `unknown option; did you mean "--${near}"? (run "brigade ${command} --help")`
        : (refusal ?? `unknown option or argument (run "brigade ${command} --help")`),
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

/**
 * The command's own long option nearest to the first unknown long option of `argv`
 * ({@link nearestName}), or `undefined` when the first unknown one is near none, or when nothing
 * in `argv` is an unknown long option (the failure was a missing value or a stray argument).
 * Arguments after `--` are positionals, never options. The answer is a key of `options`, never
 * text from `argv`.
 *
 * @example nearestUnknownOption(["--sumary", "x"], { summary: { type: "string" } }) === "summary"
 */
export function nearestUnknownOption(
  argv: string[],
  options: CommandFlagOptions,
): string | undefined {
  let tokens: readonly { kind: string; name?: string; rawName?: string }[];
  try {
    tokens = parseArgs({
      args: argv,
      options,
      strict: false,
      allowPositionals: true,
      tokens: true,
    }).tokens;
  } catch {
    return undefined;
  }
  const known = Object.keys(options).filter((name) => name.length > 1);
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined) continue;
    if (Object.hasOwn(options, token.name)) continue;
    if (token.rawName?.startsWith("--") !== true) return undefined;
    return nearestName(token.name, known);
  }
  return undefined;
}
