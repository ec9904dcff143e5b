import { accessSync, constants, statSync } from "node:fs";
import { dirname } from "node:path";
import { normalizeServerUrl } from "../../adapters/http/index.ts";
import { entryExists } from "../../local-files/index.ts";
import { CliUsageError } from "../cli-io.ts";
import {
  type CommandFlagOptions,
  type ParsedCommandFlags,
  parseCommandFlags,
} from "../parse-command-flags.ts";

/** The fixed line for an unknown option, a missing value or a stray argument: never the input. */
const FLAGS_REFUSAL = 'unknown option, missing value or stray argument (run "brigade team help")';

/**
 * Parses a `brigade team <sub>` argv through the shared parser: strict options, and exactly
 * `positionals` positional arguments (0 or 1, called `positionalName` in the refusal).
 *
 * @throws CliUsageError one fixed line naming `brigade team help` (exit 2).
 * @example const { values } = parseTeamFlags(argv, { json: { type: "boolean" } }, 0);
 */
export function parseTeamFlags<const O extends CommandFlagOptions>(
  argv: string[],
  options: O,
  positionals: number,
  positionalName = "team name",
): ParsedCommandFlags<O, boolean> {
  const parsed = parseCommandFlags("team", argv, options, positionals > 0, FLAGS_REFUSAL);
  if (parsed.positionals.length !== positionals) {
    throw new CliUsageError(
      positionals === 0
        ? 'this subcommand takes no argument (run "brigade team help")'
        : `expected exactly one ${positionalName} (run "brigade team help")`,
    );
  }
  return parsed;
}

/**
 * The value of the string option `--<name>`, or `undefined` when absent.
 *
 * @throws CliUsageError `--<name> needs a non-empty value`.
 * @example stringOption(values, "human-label") // "Dana"
 */
export function stringOption(values: Record<string, unknown>, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new CliUsageError(`--${name} needs a non-empty value`);
  }
  return value;
}

/**
 * `--server`, normalised (`normalizeServerUrl`), or `undefined` when absent.
 *
 * @throws CliUsageError when it is not an http(s) URL without user, query or fragment.
 * @example serverOption({ server: "http://127.0.0.1:7777/" }) === "http://127.0.0.1:7777"
 */
export function serverOption(values: Record<string, unknown>): string | undefined {
  const text = stringOption(values, "server");
  if (text === undefined) return undefined;
  const server = normalizeServerUrl(text);
  if (server === undefined) {
    throw new CliUsageError("--server must be an http(s) URL without user, query or fragment");
  }
  return server;
}

/**
 * Before any network call: a `--secret-file` must name a new entry (nothing there, not even a
 * dangling link) in an existing folder we may write to.
 *
 * @throws CliUsageError `--secret-file must name a new file in an existing, writable folder`.
 * @example checkNewSecretFile("/home/dana/team.secret");
 */
export function checkNewSecretFile(path: string): void {
  let folderOk = false;
  try {
    folderOk = statSync(dirname(path)).isDirectory();
    accessSync(dirname(path), constants.W_OK);
  } catch {
    folderOk = false;
  }
  if (entryExists(path) || !folderOk) {
    throw new CliUsageError("--secret-file must name a new file in an existing, writable folder");
  }
}
