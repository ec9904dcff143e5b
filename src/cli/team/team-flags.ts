import { accessSync, constants, statSync } from "node:fs";
import { dirname } from "node:path";
import { normalizeServerUrl } from "../../adapters/http/index.ts";
import { oneLine } from "../../formats/sanitize/index.ts";
import { entryExists } from "../../local-files/index.ts";
import { PROTOCOL_LIMITS } from "../../protocol/index.ts";
import { CliUsageError } from "../cli-io.ts";
import {
  type CommandFlagOptions,
  type ParsedCommandFlags,
  parseCommandFlags,
} from "../parse-command-flags.ts";

/**
 * Parses a `brigade team <sub>` argv through the shared parser: strict options, and exactly
 * `positionals` positional arguments (0 or 1, called `positionalName` in the refusal). Every
 * refusal is one fixed line naming the subcommand's own help, `brigade team <sub> --help`, and
 * never the input.
 *
 * @throws CliUsageError `unknown option, missing value or stray argument (run "brigade team <sub> --help")`,
 * `this subcommand takes no argument (…)`, `expected exactly one <positionalName> (…)` or
 * `--<option> is given more than once (…)` (exit 2).
 * @example const { values } = parseTeamFlags("members", argv, { json: { type: "boolean" } }, 0);
 */
export function parseTeamFlags<const O extends CommandFlagOptions>(
  sub: string,
  argv: string[],
  options: O,
  positionals: number,
  positionalName = "team name",
): ParsedCommandFlags<O, boolean> {
  const help = `(run "brigade team ${sub} --help")`;
  const parsed = parseCommandFlags(
    `team ${sub}`,
    argv,
    options,
    positionals > 0,
    `unknown option, missing value or stray argument ${help}`,
  );
  if (parsed.positionals.length !== positionals) {
    throw new CliUsageError(
      positionals === 0
        ? `this subcommand takes no argument ${help}`
        : `expected exactly one ${positionalName} ${help}`,
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
 * Control characters (Cc: newline, tab, ESC, DEL, C1), invisible formatting characters (Cf: bidi
 * overrides, zero-width characters), line and paragraph separators (Zl, Zp) and lone surrogates
 * (Cs): nothing a person means to type into a name, and what would make the stored text differ
 * from what every display shows after sanitising.
 */
const NOT_VISIBLE_TEXT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** The team-name rule, as `brigade team create` states it (the name is never repeated). */
const TEAM_NAME_RULE =
  "a team name must be 1 to 64 characters of visible text (not only spaces): no control characters (newline, tab, ESC, …), invisible formatting characters or line separators";

/** The `--human-label` rule, as `create` and `join` state it (the label is never repeated). */
const HUMAN_LABEL_RULE =
  "--human-label must be 1 to 128 characters with something visible in it (line breaks and tabs become spaces; control and invisible characters are removed)";

/**
 * Whether `text` is 1 to `max` code points, not only spaces, with none of the characters a name
 * must not hold ({@link NOT_VISIBLE_TEXT}).
 *
 * @example isVisibleText("core", 64) === true; isVisibleText("a\nb", 64) === false
 */
function isVisibleText(text: string, max: number): boolean {
  if (!/\S/u.test(text) || NOT_VISIBLE_TEXT.test(text)) return false;
  return text.length <= max || [...text].length <= max;
}

/**
 * A team name typed for `brigade team create`, checked before anything is written or sent.
 *
 * @throws CliUsageError {@link TEAM_NAME_RULE} (exit 2).
 * @example checkTeamName("core");
 */
export function checkTeamName(name: string): string {
  if (!isVisibleText(name, PROTOCOL_LIMITS.max_team_name_codepoints))
    throw new CliUsageError(TEAM_NAME_RULE);
  return name;
}

/**
 * `--human-label`, or `undefined` when absent: at most 128 code points as typed, stored the way
 * every display shows it — one line through the sanitiser (`oneLine`), exactly as the plugin's
 * `label` option is — so the label a teammate reads is the label the person gave. Checked before
 * anything is written or sent.
 *
 * @throws CliUsageError {@link HUMAN_LABEL_RULE} (exit 2): too long, or nothing left.
 * @example humanLabelOption({ "human-label": "Dana\t(laptop)" }) === "Dana (laptop)"
 */
export function humanLabelOption(values: Record<string, unknown>): string | undefined {
  const value = values["human-label"];
  if (value === undefined) return undefined;
  return humanLabelText(value, "--human-label");
}

/**
 * A label as typed (`--human-label`, or `brigade team label <text>`, whose rule names `what`),
 * under the `--human-label` rule: at most 128 code points, stored as one line through the
 * sanitiser, something visible left.
 *
 * @throws CliUsageError the rule in words, naming `what` (exit 2); the text is never repeated.
 * @example humanLabelText("Dana\t(laptop)", "the label") === "Dana (laptop)"
 */
export function humanLabelText(value: unknown, what: string): string {
  const rule = HUMAN_LABEL_RULE.replace("--human-label", what);
  if (typeof value !== "string" || [...value].length > PROTOCOL_LIMITS.max_human_label_chars) {
    throw new CliUsageError(rule);
  }
  const label = oneLine(value, PROTOCOL_LIMITS.max_human_label_chars);
  if (label === "") throw new CliUsageError(rule);
  return label;
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
 * @throws CliUsageError `--secret-file must name a new file in an existing, writable folder`
 * (`flag` instead of `--secret-file` when given).
 * @example checkNewSecretFile("/home/dana/team.secret");
 */
export function checkNewSecretFile(path: string, flag = "--secret-file"): void {
  let folderOk = false;
  try {
    folderOk = statSync(dirname(path)).isDirectory();
    accessSync(dirname(path), constants.W_OK);
  } catch {
    folderOk = false;
  }
  if (entryExists(path) || !folderOk) {
    throw new CliUsageError(`${flag} must name a new file in an existing, writable folder`);
  }
}
