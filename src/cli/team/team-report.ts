import { oneLine, sanitizeName } from "../../formats/sanitize/index.ts";
import { ERROR_MESSAGES, isBapError } from "../../protocol/index.ts";
import type { CliIo } from "../cli-io.ts";

/**
 * How `brigade team …` reports: one value-free line on stderr per failure, prefixed with the
 * subcommand, and the exit status it carries.
 */

// Only a plain token from a server's error details is printed; anything else could be hostile text.
const PRINTABLE_REASON = /^[a-z][a-z0-9_]{0,47}$/;

/** A failure already reported on stderr: carries the exit status. */
export interface Failed {
  readonly status: number;
}

/** The subcommands only a team's creator may run (their refusals get a creator hint). */
export const ADMIN_SUBCOMMANDS: ReadonlySet<string> = new Set([
  "rotate-secret",
  "remove",
  "transfer",
]);

/**
 * Writes `brigade team <sub>: <line>` to stderr.
 *
 * @example say(io, "create", "could not write the --secret-file");
 */
export function say(io: CliIo, sub: string, line: string): void {
  io.stderr(`brigade team ${sub}: ${line}\n`);
}

/**
 * {@link say}s `line` and returns the failure with exit `status`.
 *
 * @example return fail(io, "leave", 11, "nothing to leave").status;
 */
export function fail(io: CliIo, sub: string, status: number, line: string): Failed {
  say(io, sub, line);
  return { status };
}

/**
 * One value-free line for an adapter failure (the code, a plain-token reason, the code's fixed
 * message and a hint); returns its exit status, the protocol's (docs/spec/protocol.md §3.3).
 *
 * @throws the error itself when it is not a `BapError`.
 * @example return reportAdapterError(io, "join", error);
 */
export function reportAdapterError(io: CliIo, sub: string, error: unknown): number {
  if (!isBapError(error)) throw error;
  const reason = error.details?.reason;
  const shown = reason !== undefined && PRINTABLE_REASON.test(reason) ? ` (${reason})` : "";
  // The code's fixed message, never the error's own text: a server's message passes through.
  say(
    io,
    sub,
    `${error.code}${shown}: ${ERROR_MESSAGES[error.code]}${hintFor(sub, error.code, reason)}`,
  );
  return error.exitStatus;
}

function hintFor(sub: string, code: string, reason: string | undefined): string {
  if (sub === "join" && code === "unauthorized") return " — the join secret was refused";
  if (sub === "create" && code === "unauthorized") {
    return " — this server's registration is closed: pass --operator-key-file <path> holding the key its operator gave you";
  }
  if (ADMIN_SUBCOMMANDS.has(sub)) {
    if (reason === "not_creator") return " — only the team's creator may do this";
    if (code === "unauthorized") return " — you are not an active member of this team";
    if (code === "not_found") return " — no such member in this team (see brigade team members)";
    if (code === "conflict") return " — the creator cannot remove itself: transfer the team first";
  }
  if (code === "unavailable") return " — check the server address and try again";
  if (code === "conflict") return " — this machine's profile for that team is bound elsewhere";
  return "";
}

/**
 * A team name as printed: sanitised, one line, at most 64 code points.
 *
 * @example displayName("core\n") === "core"
 */
export const displayName = (name: string): string => oneLine(sanitizeName(name), 64);

/** The line for each reason no team is resolved for the folder (`members` and the creator-only three). */
export const SESSION_TEAM_LINES: Readonly<Record<string, string>> = {
  no_binding: "no .brigade.json names a team for this folder",
  binding_invalid: "this checkout's .brigade.json is not a valid team binding",
  binding_unreadable: "this checkout's .brigade.json cannot be read",
  no_consent:
    "you have not joined this checkout's team: run `brigade team join --secret-file <path>` here",
  consent_mismatch:
    "this checkout's .brigade.json names another server or team than the one you joined here",
  no_config_dir: "no configuration folder: set HOME (or XDG_CONFIG_HOME) to an absolute path",
};
