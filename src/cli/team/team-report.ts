import { PrivateFileError } from "../../adapters/index.ts";
import { oneLine, sanitizeName } from "../../formats/sanitize/index.ts";
import {
  type BapError,
  ERROR_MESSAGES,
  isBapError,
  NOT_CREATOR_MESSAGE,
} from "../../protocol/index.ts";
import type { CliIo } from "../cli-io.ts";
import {
  PLAIN_HTTP_ANSWER_CODE,
  PLAIN_HTTP_ANSWER_FIX,
  systemErrorCode,
  TLS_FAILURE_CODE,
} from "../connection-failure.ts";

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
  "invite",
  "invitations",
  "revoke-invite",
]);

/**
 * What `team join` says of an invitation that was good once (capability `team.invitations`): the
 * server's reason, which only a holder of the whole invitation gets, told in words.
 */
const SPENT_INVITATION_LINES: Readonly<Record<string, string>> = {
  invitation_used:
    "this invitation was already used: ask the team's creator for a new one (if you did not use it yourself, someone else did: tell them)",
  invitation_expired: "this invitation has expired: ask the team's creator for a new one",
  invitation_revoked: "this invitation was revoked: ask the team's creator for a new one",
};

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
 * Why a team command could not write the configuration folder, and the fix, value-free: the
 * folder (or one inside it) is read-only, full, or not the person's.
 */
export const CONFIG_NOT_WRITABLE =
  "the configuration folder cannot be written (read-only, full, or not yours): make it writable by you alone (chmod 700), or set BRIGADE_CONFIG_DIR to a folder of your own";

/** What the failing call was given, where it changes what the person should do. */
export interface ReportContext {
  /** `team create` was given an `--operator-key-file`. */
  readonly operatorKeyFile?: boolean;
}

/**
 * One value-free line for an adapter failure (the code, a plain-token reason, then what happened
 * and what to do); returns its exit status, the protocol's (docs/spec/protocol.md §3.3).
 *
 * @throws the error itself when it is not a `BapError`.
 * @example return reportAdapterError(io, "join", error);
 */
export function reportAdapterError(
  io: CliIo,
  sub: string,
  error: unknown,
  context: ReportContext = {},
): number {
  if (!isBapError(error)) throw error;
  const reason = error.details?.reason;
  const shown = reason !== undefined && PRINTABLE_REASON.test(reason) ? ` (${reason})` : "";
  say(io, sub, `${error.code}${shown}: ${sentenceFor(sub, error, context)}`);
  return error.exitStatus;
}

/**
 * Our sentence for the failure: where the code's fixed message from `ERROR_MESSAGES` would
 * mislead (an `unauthorized` that means a refused join secret or operator key, or a member who is
 * not the creator), a sentence of its own; else that message and a hint. Never the error's own
 * text: a server's message passes through the adapter unchanged.
 */
function sentenceFor(sub: string, error: BapError, context: ReportContext): string {
  const { code } = error;
  const fixed = ERROR_MESSAGES[code];
  const admin = ADMIN_SUBCOMMANDS.has(sub);
  if (code === "unauthorized") {
    if (sub === "join") {
      const spent = SPENT_INVITATION_LINES[error.details?.reason ?? ""];
      if (spent !== undefined) return spent;
      return "the server refused the join secret or invitation: ask the team's creator for a current one (a member the creator removed cannot join again)";
    }
    if (sub === "create") {
      return context.operatorKeyFile === true
        ? "the server refused the operator key in the --operator-key-file: ask the server's operator for the current key"
        : "this server's registration is closed: pass --operator-key-file <path> holding the key its operator gave you";
    }
    if (error.details?.reason === "not_creator") {
      return `${NOT_CREATOR_MESSAGE}: ask the creator, or have the team offered to you (brigade team transfer) and accept it`;
    }
    if (sub === "accept-transfer" && error.details?.reason === "transfer_offer_expired") {
      return "the offer of this team expired before you accepted it (an offer stands 7 days unless its creator chose less): ask its creator to offer it again";
    }
    if (admin || sub === "members" || sub === "accept-transfer")
      return `${fixed} (you left it, or its creator removed you)`;
  }
  if (code === "unauthenticated") {
    // Nothing reached the server: the credential file is gone (deleted, or the team was joined
    // with another BRIGADE_CONFIG_DIR). Otherwise the server knows no such token.
    const where =
      error.details?.reason === "credential_missing"
        ? "this machine holds no credential for the team (deleted, or joined with another BRIGADE_CONFIG_DIR)"
        : "the server does not know this machine's credential (a restored or reset server)";
    return `${where}: join again with \`brigade team join --secret-file <path>\``;
  }
  // The adapter's profile or credential write failed: the fixed config message would mislead.
  if (code === "config" && error.cause instanceof PrivateFileError) return CONFIG_NOT_WRITABLE;
  if (code === "config" && sub === "create" && context.operatorKeyFile === true) {
    return "the --operator-key-file cannot be used: it must be an existing file of yours, mode 0600, not a symbolic link, holding the operator key on one line";
  }
  if (sub === "accept-transfer" && code === "not_found")
    return "the team is not offered to you: its creator offers it with brigade team transfer <member>";
  if (sub === "revoke-invite" && code === "not_found")
    return "no such invitation in this team (brigade team invitations lists them)";
  if (admin && code === "not_found")
    return "no such member in this team (brigade team members lists them)";
  if (admin && code === "conflict") {
    return "the creator cannot remove itself: transfer the team first (brigade team transfer <member>)";
  }
  if (sub === "leave" && code === "conflict" && error.details?.reason === "team_creator") {
    return "you created this team and others are still in it: hand it on first (brigade team transfer <member>, which they accept with brigade team accept-transfer), then leave";
  }
  if (code === "unavailable") {
    const system = systemErrorCode(error.cause);
    if (system !== undefined && PLAIN_HTTP_ANSWER_CODE.test(system)) {
      return `${PLAIN_HTTP_ANSWER_FIX} (${system})`;
    }
    if (system !== undefined && TLS_FAILURE_CODE.test(system)) {
      return `the server's TLS certificate is not trusted by this machine (${system}): use a certificate from a CA this machine trusts, or point NODE_EXTRA_CA_CERTS at your CA's certificate (docs/50-operator.md)`;
    }
    // No cause and no timeout: the server itself answered 5xx (its store down, most often).
    if (error.cause === undefined && error.details?.reason === undefined) {
      return `${fixed} — the server answered that it cannot serve now (its database may be down): try again later, or tell its operator (brigade doctor shows its health)`;
    }
    const why = system === undefined ? "" : ` (${system})`;
    return `${fixed}${why} — check the server address and that brigade serve runs there, then try again`;
  }
  if (code === "conflict")
    return `${fixed} — this machine's profile for that team is bound elsewhere`;
  // The http adapter answers internal when the server's reply is not a BAP/1 answer at all.
  if (code === "internal") {
    return `${fixed} — the server's answer was not one a Brigade server gives: check the server address (a proxy must pass /v1/ through)`;
  }
  return fixed;
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
