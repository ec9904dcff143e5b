import { resolve } from "node:path";
import { sanitizeAttribute } from "../../formats/sanitize/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../../harness/adapter/index.ts";
import { resolveSessionTeam, type SessionTeam } from "../../harness/binding/index.ts";
import type { TeamMember } from "../../protocol/index.ts";
import { type CliIo, CliUsageError } from "../cli-io.ts";
import { handOverJoinSecret } from "./hand-over-secret.ts";
import { checkGivenSecretFile, defaultSecretPath } from "./secret-placement.ts";
import { parseTeamFlags, stringOption } from "./team-flags.ts";
import {
  displayName,
  type Failed,
  fail,
  reportAdapterError,
  SESSION_TEAM_LINES,
} from "./team-report.ts";

/**
 * The creator-only subcommands (team.admin): `rotate-secret`, `remove <member>`,
 * `transfer <member>`, and `accept-transfer`, by which the member offered the team takes it.
 * The server decides who the creator is; these only ask.
 */

/** The longest `<member>` argument taken (server-issued ids are far shorter). */
const MAX_MEMBER_ARGUMENT = 256;

/** The team of the folder for an admin subcommand, or the exit status already reported. */
function adminTeam(
  io: CliIo,
  sub: string,
  cwd: string,
): (SessionTeam & { readonly ok: true }) | Failed {
  const team = resolveSessionTeam({ cwd, configDir: harnessConfigDir(io.env) });
  if (!team.ok) return fail(io, sub, 11, SESSION_TEAM_LINES[team.reason] ?? team.reason);
  return team;
}

/**
 * The principal a `<member>` argument names: the roster entry whose id, or whose id as
 * `team members` prints it, equals the argument; otherwise the argument itself (a member who left
 * is off the roster and can still be removed for good). Labels never select a member: anyone can
 * choose any label.
 */
function memberRef(roster: readonly TeamMember[], argument: string): string {
  const hit = roster.find(
    (m) => m.principal_ref === argument || sanitizeAttribute(m.principal_ref) === argument,
  );
  return hit?.principal_ref ?? argument;
}

function memberArgument(positionals: string[]): string {
  const argument = positionals[0] as string;
  if (
    argument === "" ||
    argument.length > MAX_MEMBER_ARGUMENT ||
    /[\p{Cc}\p{Cf}]/u.test(argument)
  ) {
    throw new CliUsageError("<member> must be a principal id as brigade team members lists it");
  }
  return argument;
}

/**
 * `brigade team rotate-secret [--secret-file <path>]`: replaces the team's join secret (the old
 * one stops admitting anyone) and hands the new one over like `create` (the `--secret-file`, else
 * a new file under `<config>/join-secrets/`; never inside a git work tree that does not ignore it). Exit 0, 2 (usage), 11 (no
 * team for the folder), or the adapter failure's status (`unauthorized` 5 when not the creator).
 *
 * @example await teamRotateSecret(["--secret-file", "new.secret"], io, "/home/dana/src/api");
 */
export async function teamRotateSecret(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parseTeamFlags(
    "rotate-secret",
    argv,
    { "secret-file": { type: "string" } },
    0,
  );
  const secretOption = stringOption(values, "secret-file");
  const given = secretOption === undefined ? undefined : resolve(cwd, secretOption);
  if (given !== undefined) checkGivenSecretFile(given);
  const team = adminTeam(io, "rotate-secret", cwd);
  if (!("ok" in team)) return team.status;
  const secretPath = given ?? defaultSecretPath(team.configDir, team.teamName);
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamRotateSecret"]>>;
  try {
    result = await openHarnessAdapter(team).teamRotateSecret();
  } catch (error) {
    return reportAdapterError(io, "rotate-secret", error);
  }
  // The old secret no longer works: the new one must reach the person whatever happens next.
  const secretInFile = handOverJoinSecret(io, {
    sub: "rotate-secret",
    secret: result.join_secret,
    server: team.server,
    path: secretPath,
    noun: "the new join secret",
  });
  io.stdout(
    [
      `Rotated the join secret of team "${displayName(result.team_name)}" (${sanitizeAttribute(result.team_ref)}): the old secret no longer admits anyone; members stay members.`,
      (result.invitations_revoked ?? 0) > 0
        ? `${result.invitations_revoked} active invitation${result.invitations_revoked === 1 ? " was" : "s were"} revoked with it (brigade team invite makes new ones).`
        : "",
      secretInFile
        ? `The new join secret is in ${secretPath} (mode 0600); it was not printed.`
        : "",
      "Give the new secret privately to anyone who still needs to join.",
      "",
    ]
      .filter((line, i, all) => line !== "" || i === all.length - 1)
      .join("\n"),
  );
  return 0;
}

type HarnessAdapter = ReturnType<typeof openHarnessAdapter>;

/**
 * Runs a creator-only act on the member `argv` names: the folder's team, the roster (to resolve
 * the argument, see memberRef), then `act`; prints `report(result)` on success.
 */
async function actOnMember<R>(
  argv: string[],
  io: CliIo,
  cwd: string,
  sub: string,
  act: (adapter: HarnessAdapter, principalRef: string) => Promise<R>,
  report: (result: R) => string,
): Promise<number> {
  const { positionals } = parseTeamFlags(sub, argv, {}, 1, "member");
  const argument = memberArgument(positionals);
  const team = adminTeam(io, sub, cwd);
  if (!("ok" in team)) return team.status;
  const adapter = openHarnessAdapter(team);
  let result: R;
  try {
    const roster = (await adapter.teamMembers()).members;
    result = await act(adapter, memberRef(roster, argument));
  } catch (error) {
    return reportAdapterError(io, sub, error);
  }
  io.stdout(report(result));
  return 0;
}

/**
 * `brigade team remove <member>`: revokes a member for good (its sessions close, no rejoin).
 * Exit 0, 2 (usage), 11 (no team for the folder), or the adapter failure's status.
 *
 * @example await teamRemove(["p-41c9"], io, "/home/dana/src/api");
 */
export function teamRemove(argv: string[], io: CliIo, cwd: string): Promise<number> {
  return actOnMember(
    argv,
    io,
    cwd,
    "remove",
    (adapter, principalRef) => adapter.teamRevokeMember({ principal_ref: principalRef }),
    (result) =>
      `Removed ${sanitizeAttribute(result.principal_ref)} from team ${sanitizeAttribute(result.team_ref)} for good: its sessions there are closed, its credential no longer works in the team and no join secret lets it back. Messages it already sent stay delivered.\n`,
  );
}

/**
 * `brigade team transfer <member>`: offers the team to another member, who becomes its creator by
 * running `brigade team accept-transfer`; naming yourself withdraws the offer. Exit 0, 2 (usage),
 * 11 (no team for the folder), or the adapter failure's status.
 *
 * @example await teamTransfer(["p-41c9"], io, "/home/dana/src/api");
 */
export function teamTransfer(argv: string[], io: CliIo, cwd: string): Promise<number> {
  return actOnMember(
    argv,
    io,
    cwd,
    "transfer",
    (adapter, principalRef) => adapter.teamTransfer({ principal_ref: principalRef }),
    (result) =>
      result.offered_to_principal_ref === null
        ? `Withdrew the offer of team ${sanitizeAttribute(result.team_ref)}: it stays yours.\n`
        : `Offered team ${sanitizeAttribute(result.team_ref)} to ${sanitizeAttribute(result.offered_to_principal_ref)}. It stays yours until they run \`brigade team accept-transfer\` in their checkout; then you stay a member, without the creator's rights.${offerEnd(result.expires_at)}\n`,
  );
}

/**
 * The sentence on when an offer lapses, for a transfer result's `expires_at` when it is a plain
 * RFC 3339 UTC time; anything else a server sent (or nothing, from a server whose offers do not
 * lapse) gives no sentence, so no server text is ever printed.
 */
function offerEnd(expiresAt: string | null | undefined): string {
  const plain = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
  if (typeof expiresAt !== "string" || !plain.test(expiresAt)) return "";
  return ` The offer lapses at ${expiresAt} if they have not accepted it by then; the team then stays yours.`;
}

/**
 * `brigade team accept-transfer`: takes over the team of this folder that its creator offered to
 * you (`brigade team transfer`). Exit 0, 2 (usage), 11 (no team for the folder), or the adapter
 * failure's status (`not_found` 6 when no offer names you).
 *
 * @example await teamAcceptTransfer([], io, "/home/dana/src/api");
 */
export async function teamAcceptTransfer(argv: string[], io: CliIo, cwd: string): Promise<number> {
  parseTeamFlags("accept-transfer", argv, {}, 0);
  const team = adminTeam(io, "accept-transfer", cwd);
  if (!("ok" in team)) return team.status;
  let result: Awaited<ReturnType<HarnessAdapter["teamAcceptTransfer"]>>;
  try {
    result = await openHarnessAdapter(team).teamAcceptTransfer();
  } catch (error) {
    return reportAdapterError(io, "accept-transfer", error);
  }
  io.stdout(
    `Team ${sanitizeAttribute(result.team_ref)} is yours now: you rotate its secret and remove members; ${sanitizeAttribute(result.previous_creator_principal_ref)} stays a member, without the creator's rights.\n`,
  );
  return 0;
}
