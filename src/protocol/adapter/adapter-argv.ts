import { usageError } from "../errors/error-builders.ts";
import type { UsageReason } from "../errors/error-reasons.ts";
import type { ProtocolError } from "../errors/protocol-error.ts";
import { DEFAULT_RECEIVE_LIMIT } from "../limits.ts";
import { isReceiveLimit } from "../messages/receive-limit.ts";

/** `--log-level` values (docs/spec/protocol.md §1.2). */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;

/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Command groups: `describe`, `session`, `message` (frozen core) and `team`, `profile` (conventions). */
export const ADAPTER_GROUPS = ["describe", "session", "message", "team", "profile"] as const;

/** A command group. */
export type AdapterGroup = (typeof ADAPTER_GROUPS)[number];

/** What a command reads on stdin (docs/spec/protocol.md §1.3, §4.1). */
export type StdinUse = "none" | "document" | "ndjson" | "adapter_defined";

/** The flags a command accepts besides `--profile` and `--log-level` (which every command takes). */
type CommandFlag =
  | "session"
  | "include-offline"
  | "limit"
  | "name"
  | "label"
  | "prompt"
  | "secret-file"
  | "principal"
  | "force"
  | "uses"
  | "expires-in"
  | "invitation";

/** One row of {@link ADAPTER_COMMANDS}. */
export interface AdapterCommandSpec {
  /** Flags besides `--profile` and `--log-level`, without the leading `--`. */
  readonly flags: readonly CommandFlag[];
  /** Flags that must be present. */
  readonly required: readonly CommandFlag[];
  /** What the command reads on stdin. `team create`/`team join` skip the document with `--name` or `--prompt`. */
  readonly stdin: StdinUse;
  /** `core` (frozen) or `convention` (capability-gated, may add flags). */
  readonly tier: "core" | "convention";
}

const row = (
  flags: readonly CommandFlag[],
  required: readonly CommandFlag[],
  stdin: StdinUse,
  tier: "core" | "convention",
): AdapterCommandSpec => Object.freeze({ flags, required, stdin, tier });

/**
 * The BAP/1 command table (docs/spec/protocol.md §1.2, §4.1), keyed `"<group> <verb>"`
 * (`"describe"` alone).
 *
 * @example
 * ADAPTER_COMMANDS["message receive"].flags; // ["session", "limit"]
 */
export const ADAPTER_COMMANDS: {
  readonly describe: AdapterCommandSpec;
  readonly "session register": AdapterCommandSpec;
  readonly "session heartbeat": AdapterCommandSpec;
  readonly "session list": AdapterCommandSpec;
  readonly "session close": AdapterCommandSpec;
  readonly "message send": AdapterCommandSpec;
  readonly "message receive": AdapterCommandSpec;
  readonly "message watch": AdapterCommandSpec;
  readonly "message ack": AdapterCommandSpec;
  readonly "message state": AdapterCommandSpec;
  readonly "message sent": AdapterCommandSpec;
  readonly "message report": AdapterCommandSpec;
  readonly "message adopt": AdapterCommandSpec;
  readonly "message upload": AdapterCommandSpec;
  readonly "message download": AdapterCommandSpec;
  readonly "message person-send": AdapterCommandSpec;
  readonly "message person-sent": AdapterCommandSpec;
  readonly "team create": AdapterCommandSpec;
  readonly "team join": AdapterCommandSpec;
  readonly "team leave": AdapterCommandSpec;
  readonly "team members": AdapterCommandSpec;
  readonly "team rotate-secret": AdapterCommandSpec;
  readonly "team revoke-member": AdapterCommandSpec;
  readonly "team transfer": AdapterCommandSpec;
  readonly "team accept-transfer": AdapterCommandSpec;
  readonly "team invite": AdapterCommandSpec;
  readonly "team invitations": AdapterCommandSpec;
  readonly "team revoke-invite": AdapterCommandSpec;
  readonly "team label": AdapterCommandSpec;
  readonly "profile init": AdapterCommandSpec;
  readonly "profile status": AdapterCommandSpec;
  readonly "profile reset": AdapterCommandSpec;
  readonly "profile revoke-credentials": AdapterCommandSpec;
  readonly "profile rotate-token": AdapterCommandSpec;
} = Object.freeze({
  describe: row([], [], "none", "core"),
  "session register": row([], [], "document", "core"),
  "session heartbeat": row(["session"], ["session"], "document", "core"),
  "session list": row(["session", "include-offline"], [], "none", "core"),
  "session close": row(["session"], ["session"], "none", "core"),
  "message send": row([], [], "document", "core"),
  "message receive": row(["session", "limit"], ["session"], "none", "core"),
  "message watch": row(["session"], ["session"], "ndjson", "core"),
  "message ack": row(["session"], ["session"], "document", "core"),
  "message state": row(["session"], ["session"], "document", "convention"),
  "message sent": row(["session", "limit"], ["session"], "none", "convention"),
  "message report": row(["session"], ["session"], "document", "convention"),
  "message adopt": row(["session"], ["session"], "document", "convention"),
  "message upload": row([], [], "document", "convention"),
  "message download": row([], [], "document", "convention"),
  "message person-send": row([], [], "document", "convention"),
  "message person-sent": row(["limit"], [], "none", "convention"),
  "team create": row(["name", "label", "prompt", "secret-file"], [], "document", "convention"),
  "team join": row(["prompt", "label"], [], "document", "convention"),
  "team leave": row([], [], "none", "convention"),
  "team members": row([], [], "none", "convention"),
  "team rotate-secret": row(["secret-file"], [], "none", "convention"),
  "team revoke-member": row(["principal"], ["principal"], "none", "convention"),
  "team transfer": row(["principal", "expires-in"], ["principal"], "none", "convention"),
  "team accept-transfer": row([], [], "none", "convention"),
  "team invite": row(["uses", "expires-in", "secret-file"], [], "none", "convention"),
  "team invitations": row([], [], "none", "convention"),
  "team revoke-invite": row(["invitation"], ["invitation"], "none", "convention"),
  "team label": row(["label"], ["label"], "none", "convention"),
  "profile init": row(["force"], [], "adapter_defined", "convention"),
  "profile status": row([], [], "adapter_defined", "convention"),
  "profile reset": row([], [], "adapter_defined", "convention"),
  "profile revoke-credentials": row([], [], "adapter_defined", "convention"),
  "profile rotate-token": row([], [], "none", "convention"),
});

/** A command name: `"describe"` or `"<group> <verb>"`. */
export type AdapterCommandName = keyof typeof ADAPTER_COMMANDS;

/** Every command name, in table order. */
export const ADAPTER_COMMAND_NAMES: readonly AdapterCommandName[] = Object.freeze(
  Object.keys(ADAPTER_COMMANDS) as AdapterCommandName[],
);

/** Parsed flags; a member is present only when its flag was given (except `limit`, see below). */
export interface AdapterFlags {
  /** `--profile`; when absent the caller applies `BRIGADE_PROFILE`, else `default`. */
  profile?: string;
  /** `--log-level`; when absent the caller applies `BRIGADE_LOG_LEVEL`. */
  logLevel?: LogLevel;
  /** `--session <id>`. */
  session?: string;
  /** `--include-offline` (`session list`). */
  includeOffline?: boolean;
  /** `--limit <n>` (`message receive`, `message sent`): always set there, default 50, range 1..200. */
  limit?: number;
  /** `--name <team_name>` (`team create`). */
  name?: string;
  /** `--label <human_label>` (`team create`, `team join`). */
  label?: string;
  /** `--prompt` (`team create`, `team join`); without a TTY the command answers `usage`. */
  prompt?: boolean;
  /** `--secret-file <path>` (`team create`, `team rotate-secret`). */
  secretFile?: string;
  /** `--principal <principal_ref>` (`team revoke-member`, `team transfer`): the member acted on. */
  principal?: string;
  /** `--force` (`profile init`). */
  force?: boolean;
  /** `--uses <n>` (`team invite`): decimal digits; the range is the verb's to check. */
  uses?: number;
  /**
   * `--expires-in <seconds>` (`team invite`, `team transfer`): decimal digits; the range is the
   * verb's to check.
   */
  expiresIn?: number;
  /** `--invitation <invitation_id>` (`team revoke-invite`). */
  invitation?: string;
  /** Convention flags an adapter added through {@link AdapterArgvOptions}, keyed without `--`. */
  extra?: Record<string, string | true>;
}

/** A parsed adapter command line. */
export interface AdapterCommand {
  /** `"describe"` or `"<group> <verb>"`. */
  name: AdapterCommandName;
  group: AdapterGroup;
  /** `null` for `describe`. */
  verb: string | null;
  flags: AdapterFlags;
}

/**
 * An extra flag an adapter adds to a convention command (docs/spec/protocol.md §1.2: conventions
 * may add flags).
 */
export interface ConventionFlagSpec {
  /** Flag name without `--`; must not collide with a BAP/1 flag or be `join-secret`. */
  readonly name: string;
  /** `true` for `--flag <value>`, `false` for a boolean switch. */
  readonly takesValue: boolean;
}

/** Options of {@link parseAdapterArgv}. */
export interface AdapterArgvOptions {
  /** Extra flags per convention command (core commands cannot be extended). */
  readonly conventionFlags?: Readonly<
    Partial<Record<AdapterCommandName, readonly ConventionFlagSpec[]>>
  >;
}

/** Result of {@link parseAdapterArgv}. */
export type AdapterArgvResult =
  | { readonly ok: true; readonly command: AdapterCommand }
  | { readonly ok: false; readonly error: ProtocolError };

type FlagKind = "string" | "boolean" | "limit" | "count" | "log-level";

const FLAG_KINDS: Readonly<Record<CommandFlag | "profile" | "log-level", FlagKind>> = {
  profile: "string",
  "log-level": "log-level",
  session: "string",
  "include-offline": "boolean",
  limit: "limit",
  name: "string",
  label: "string",
  prompt: "boolean",
  "secret-file": "string",
  principal: "string",
  force: "boolean",
  uses: "count",
  "expires-in": "count",
  invitation: "string",
};

const LIMIT_DIGITS = /^[0-9]{1,9}$/;

function isSecretFlag(arg: string): boolean {
  const bare = arg.startsWith("--") ? arg.slice(2) : arg.startsWith("-") ? arg.slice(1) : undefined;
  return bare !== undefined && (bare === "join-secret" || bare.startsWith("join-secret="));
}

const fail = (reason: UsageReason, flag?: string): AdapterArgvResult => ({
  ok: false,
  error: usageError(reason, flag),
});

/**
 * Parses `<group> <verb> [flags]` (docs/spec/protocol.md §1.2) — pure, never throws, never echoes
 * an argument in its error (only flag names we define appear, in `details.flag`). Every failure is
 * `usage` (exit 2) with one of `USAGE_REASONS`:
 * - `--join-secret` (any form, anywhere) → `secret_on_argv`, checked first;
 * - unknown group or verb → `unknown_command`; a flag the command does not take → `unknown_flag`
 *   (flags are per command: `describe --include-offline` fails);
 * - positional leftovers → `unexpected_argument`; a flag twice → `duplicate_flag`;
 * - a value flag without value (end of argv or next token starting `--`) → `missing_value`; a
 *   boolean flag given `=value`, an empty value, a bad `--log-level` or a non-decimal `--limit`,
 *   `--uses` or `--expires-in` → `invalid_value` (the last two are range-checked by their verb); `--limit` outside 1..200 → `out_of_range`; a required flag (`--session`,
 *   `--principal`) absent → `missing_flag`.
 * Flags take `--flag value` or `--flag=value`. `message receive` always gets `limit` (default 50).
 * Terminal checks (`--prompt` without a TTY) belong to the caller.
 *
 * @example
 * parseAdapterArgv(["message", "receive", "--session", "s-51d0", "--limit", "10"]);
 * // { ok: true, command: { name: "message receive", group: "message", verb: "receive",
 * //   flags: { session: "s-51d0", limit: 10 } } }
 * parseAdapterArgv(["team", "join", "--join-secret", "brg1.t.s"]); // usage, secret_on_argv
 */
export function parseAdapterArgv(
  argv: readonly string[],
  options?: AdapterArgvOptions,
): AdapterArgvResult {
  for (const arg of argv) {
    if (typeof arg !== "string") return fail("unexpected_argument");
    if (isSecretFlag(arg)) return fail("secret_on_argv");
  }
  const group = argv[0];
  if (group === undefined || !(ADAPTER_GROUPS as readonly string[]).includes(group)) {
    return fail("unknown_command");
  }
  let name: string;
  let verb: string | null;
  let index: number;
  if (group === "describe") {
    name = "describe";
    verb = null;
    index = 1;
  } else {
    const candidate = argv[1];
    if (candidate === undefined || candidate.startsWith("-")) return fail("unknown_command");
    name = `${group} ${candidate}`;
    verb = candidate;
    index = 2;
  }
  if (!Object.hasOwn(ADAPTER_COMMANDS, name)) return fail("unknown_command");
  const commandName = name as AdapterCommandName;
  const spec = ADAPTER_COMMANDS[commandName];
  const extraSpecs =
    spec.tier === "convention" ? (options?.conventionFlags?.[commandName] ?? []) : [];

  const flags: AdapterFlags = {};
  const seen = new Set<string>();
  while (index < argv.length) {
    const arg = argv[index] as string;
    index++;
    if (!arg.startsWith("--") || arg === "--") return fail("unexpected_argument");
    const eq = arg.indexOf("=");
    const flagName = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    const known =
      flagName === "profile" ||
      flagName === "log-level" ||
      (spec.flags as readonly string[]).includes(flagName);
    const extra = known ? undefined : extraSpecs.find((s) => s.name === flagName);
    if (!known && extra === undefined) return fail("unknown_flag");
    const display = `--${flagName}`;
    if (seen.has(flagName)) return fail("duplicate_flag", display);
    seen.add(flagName);
    const kind: FlagKind = known
      ? FLAG_KINDS[flagName as keyof typeof FLAG_KINDS]
      : extra?.takesValue === true
        ? "string"
        : "boolean";
    let value: string | undefined;
    if (kind === "boolean") {
      if (inline !== undefined) return fail("invalid_value", display);
    } else if (inline !== undefined) {
      value = inline;
    } else {
      const next = argv[index];
      if (next === undefined || next.startsWith("--")) return fail("missing_value", display);
      value = next;
      index++;
    }
    if (value === "") return fail("invalid_value", display);
    if (!known) {
      flags.extra ??= {};
      flags.extra[flagName] = value ?? true;
      continue;
    }
    switch (flagName) {
      case "profile":
        flags.profile = value as string;
        break;
      case "log-level":
        if (!(LOG_LEVELS as readonly string[]).includes(value as string)) {
          return fail("invalid_value", display);
        }
        flags.logLevel = value as LogLevel;
        break;
      case "session":
        flags.session = value as string;
        break;
      case "include-offline":
        flags.includeOffline = true;
        break;
      case "limit": {
        if (!LIMIT_DIGITS.test(value as string)) return fail("invalid_value", display);
        const limit = Number(value);
        if (!isReceiveLimit(limit)) return fail("out_of_range", display);
        flags.limit = limit;
        break;
      }
      case "name":
        flags.name = value as string;
        break;
      case "label":
        flags.label = value as string;
        break;
      case "prompt":
        flags.prompt = true;
        break;
      case "secret-file":
        flags.secretFile = value as string;
        break;
      case "principal":
        flags.principal = value as string;
        break;
      case "force":
        flags.force = true;
        break;
      case "uses":
      case "expires-in": {
        if (!LIMIT_DIGITS.test(value as string)) return fail("invalid_value", display);
        if (flagName === "uses") flags.uses = Number(value);
        else flags.expiresIn = Number(value);
        break;
      }
      case "invitation":
        flags.invitation = value as string;
        break;
    }
  }
  for (const required of spec.required) {
    if (!seen.has(required)) return fail("missing_flag", `--${required}`);
  }
  if (
    (commandName === "message receive" || commandName === "message sent") &&
    flags.limit === undefined
  ) {
    flags.limit = DEFAULT_RECEIVE_LIMIT;
  }
  return {
    ok: true,
    command: { name: commandName, group: group as AdapterGroup, verb, flags },
  };
}
