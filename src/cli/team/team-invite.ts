import { resolve } from "node:path";
import { sanitizeAttribute } from "../../formats/sanitize/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../../harness/adapter/index.ts";
import {
  joinSecretLine,
  resolveSessionTeam,
  type SessionTeam,
} from "../../harness/binding/index.ts";
import { createFileExclusive } from "../../local-files/index.ts";
import { INVITATION_LIMITS, type InvitationRecord } from "../../protocol/index.ts";
import { type CliIo, CliUsageError } from "../cli-io.ts";
import { checkGivenSecretFile } from "./secret-placement.ts";
import { parseTeamFlags, stringOption } from "./team-flags.ts";
import {
  displayName,
  type Failed,
  fail,
  reportAdapterError,
  SESSION_TEAM_LINES,
  say,
} from "./team-report.ts";

/**
 * The invitation subcommands (capability `team.invitations`, docs/44-team-binding.md
 * "Invitations"): `invite` makes one, `invitations` lists them, `revoke-invite <id>` ends one.
 * Only the team's creator may run them; the server decides.
 */

/** The longest `<invitation-id>` argument taken (server-issued ids are far shorter). */
const MAX_ID_ARGUMENT = 256;

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** The `--expires` rule, as the refusal states it (the value is never repeated). */
const EXPIRES_RULE =
  "--expires must be a duration such as 30m, 24h or 7d (s, m, h or d), from 1s to 7d";

/** The `--uses` rule, as the refusal states it. */
const USES_RULE = `--uses must be a whole number from 1 to ${INVITATION_LIMITS.max_uses}`;

/**
 * `--expires <duration>` in seconds: digits then one unit, `s`, `m`, `h` or `d`, from 1 s to
 * 7 days (`INVITATION_LIMITS`).
 *
 * @throws CliUsageError {@link EXPIRES_RULE}.
 * @example expiresSeconds("24h") === 86400
 */
export function expiresSeconds(text: string): number {
  const match = /^([0-9]{1,7})([smhd])$/.exec(text);
  const seconds =
    match === null
      ? Number.NaN
      : Number(match[1]) * (UNIT_SECONDS[match[2] as string] ?? Number.NaN);
  if (
    !Number.isInteger(seconds) ||
    seconds < INVITATION_LIMITS.min_expires_in_seconds ||
    seconds > INVITATION_LIMITS.max_expires_in_seconds
  ) {
    throw new CliUsageError(EXPIRES_RULE);
  }
  return seconds;
}

/**
 * `--uses <n>`: a whole number from 1 to 100.
 *
 * @throws CliUsageError {@link USES_RULE}.
 * @example usesCount("3") === 3
 */
export function usesCount(text: string): number {
  const uses = /^[0-9]{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!(uses >= 1 && uses <= INVITATION_LIMITS.max_uses)) throw new CliUsageError(USES_RULE);
  return uses;
}

/** The team of the folder, or the exit status already reported. */
function folderTeam(
  io: CliIo,
  sub: string,
  cwd: string,
): (SessionTeam & { readonly ok: true }) | Failed {
  const team = resolveSessionTeam({ cwd, configDir: harnessConfigDir(io.env) });
  if (!team.ok) return fail(io, sub, 11, SESSION_TEAM_LINES[team.reason] ?? team.reason);
  return team;
}

/** `2026-12-05 23:45 UTC` from a server timestamp (sanitised when it does not parse). */
function whenText(timestamp: string): string {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return sanitizeAttribute(timestamp);
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function people(n: number): string {
  return n === 1 ? "1 person" : `${n} people`;
}

/**
 * `brigade team invite [--uses N] [--expires 24h] [--out FILE]` (creator only): a new invitation
 * to the folder's team. It is one line, `<invitation> server <url>`, which `brigade team join`
 * takes pasted or from a file: printed alone on stdout (the summary goes to stderr), or with
 * `--out` written to a new file (mode 0600, created exclusively, never inside a git work tree
 * that does not ignore it) and not printed — unless that write fails, when it is printed once
 * rather than lost. Exit 0, 2 (usage, an unusable `--out`: nothing made), 11 (no team for the
 * folder), or the adapter failure's status (`unauthorized` 5 when not the creator; `rate_limited`
 * 8 past 100 invitations a day).
 *
 * @example await teamInvite(["--uses", "3", "--expires", "2d"], io, "/home/dana/src/api");
 */
export async function teamInvite(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parseTeamFlags(
    "invite",
    argv,
    { uses: { type: "string" }, expires: { type: "string" }, out: { type: "string" } },
    0,
  );
  const usesText = stringOption(values, "uses");
  const expiresText = stringOption(values, "expires");
  const maxUses = usesText === undefined ? INVITATION_LIMITS.default_uses : usesCount(usesText);
  const expiresIn =
    expiresText === undefined
      ? INVITATION_LIMITS.default_expires_in_seconds
      : expiresSeconds(expiresText);
  const outOption = stringOption(values, "out");
  const out = outOption === undefined ? undefined : resolve(cwd, outOption);
  if (out !== undefined) checkGivenSecretFile(out, "--out");
  const team = folderTeam(io, "invite", cwd);
  if (!("ok" in team)) return team.status;
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamInvite"]>>;
  try {
    result = await openHarnessAdapter(team).teamInvite({
      max_uses: maxUses,
      expires_in_seconds: expiresIn,
    });
  } catch (error) {
    return reportAdapterError(io, "invite", error);
  }
  if (result.invitation === undefined) {
    return fail(io, "invite", 1, "the server's answer held no invitation").status;
  }
  const line = joinSecretLine(result.invitation, team.server);
  const id = sanitizeAttribute(result.invitation_id);
  const summary = [
    `Invitation ${id} to team "${displayName(result.team_name)}": admits ${people(result.max_uses)} until ${whenText(result.expires_at)}.`,
    "Send it privately (anyone holding it can join); each person runs `brigade team join` in their clone and pastes it, or passes the file with --secret-file.",
    `Revoke it with \`brigade team revoke-invite ${id}\`; \`brigade team invitations\` shows who used what.`,
  ];
  if (out !== undefined) {
    if (createFileExclusive(out, `${line}\n`).ok) {
      io.stdout(
        [
          `${summary[0]} It is in ${out} (mode 0600); it was not printed.`,
          ...summary.slice(1),
          "",
        ].join("\n"),
      );
      return 0;
    }
    say(
      io,
      "invite",
      "could not write the --out file: the invitation is shown once, below on stdout",
    );
  }
  io.stderr(`${summary.join("\n")}\n`);
  io.stdout(`${line}\n`);
  return 0;
}

function stateText(record: InvitationRecord): string {
  switch (record.state) {
    case "active":
      return `active, until ${whenText(record.expires_at)}`;
    case "used":
      return `used${record.last_used_at === null ? "" : ` (last ${whenText(record.last_used_at)})`}`;
    case "expired":
      return `expired ${whenText(record.expires_at)}`;
    case "revoked":
      return `revoked${record.revoked_at === null ? "" : ` ${whenText(record.revoked_at)}`}`;
  }
}

/**
 * `brigade team invitations [--json]` (creator only): the folder's team's invitations, newest
 * first, with their state and uses; never a secret (the server keeps none to show). Ended ones
 * stay listed for 7 days. Exit 0, 2, 11, or the adapter failure's status.
 *
 * @example await teamInvitations([], io, "/home/dana/src/api");
 */
export async function teamInvitations(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parseTeamFlags("invitations", argv, { json: { type: "boolean" } }, 0);
  const team = folderTeam(io, "invitations", cwd);
  if (!("ok" in team)) return team.status;
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamInvitations"]>>;
  try {
    result = await openHarnessAdapter(team).teamInvitations();
  } catch (error) {
    return reportAdapterError(io, "invitations", error);
  }
  const rows = result.invitations.map((r) => ({
    invitation_id: sanitizeAttribute(r.invitation_id),
    state: r.state,
    uses: r.uses,
    max_uses: r.max_uses,
    created_at: sanitizeAttribute(r.created_at),
    expires_at: sanitizeAttribute(r.expires_at),
    last_used_at: r.last_used_at === null ? null : sanitizeAttribute(r.last_used_at),
    revoked_at: r.revoked_at === null ? null : sanitizeAttribute(r.revoked_at),
  }));
  if (values.json === true) {
    io.stdout(
      `${JSON.stringify({ team_ref: sanitizeAttribute(result.team_ref), invitations: rows, truncated: result.truncated })}\n`,
    );
    return 0;
  }
  const active = result.invitations.filter((r) => r.state === "active").length;
  const lines = [
    `Team ${sanitizeAttribute(result.team_ref)}: ${rows.length} invitation${rows.length === 1 ? "" : "s"}, ${active} active (ended ones stay listed for 7 days).`,
  ];
  result.invitations.forEach((record, i) => {
    const row = rows[i];
    if (row === undefined) return;
    lines.push(
      `  ${row.invitation_id}  ${stateText(record)}  used ${record.uses} of ${record.max_uses}  made ${whenText(record.created_at)}`,
    );
  });
  if (result.truncated) lines.push("  … and older ones, not shown.");
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}

/**
 * `brigade team revoke-invite <invitation-id>` (creator only): the invitation admits nobody from
 * now on; one that already ended keeps its state, and the line says which. Exit 0, 2 (usage),
 * 11, or the adapter failure's status (`not_found` 6 for an id that is not the team's).
 *
 * @example await teamRevokeInvite(["i-3f2a…"], io, "/home/dana/src/api");
 */
export async function teamRevokeInvite(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { positionals } = parseTeamFlags("revoke-invite", argv, {}, 1, "invitation id");
  const argument = positionals[0] as string;
  if (argument === "" || argument.length > MAX_ID_ARGUMENT || /[\p{Cc}\p{Cf}\s]/u.test(argument)) {
    throw new CliUsageError("<invitation-id> must be an id as brigade team invitations lists it");
  }
  const team = folderTeam(io, "revoke-invite", cwd);
  if (!("ok" in team)) return team.status;
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamRevokeInvite"]>>;
  try {
    result = await openHarnessAdapter(team).teamRevokeInvite({ invitation_id: argument });
  } catch (error) {
    return reportAdapterError(io, "revoke-invite", error);
  }
  const id = sanitizeAttribute(result.invitation_id);
  io.stdout(
    result.state === "revoked"
      ? `Revoked invitation ${id}: it admits nobody from now on. People who already joined with it stay members (brigade team remove <member> removes one).\n`
      : `Invitation ${id} had already ended (${result.state}); nothing changed.\n`,
  );
  return 0;
}
