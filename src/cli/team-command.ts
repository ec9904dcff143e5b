import { type CliIo, CliUsageError } from "./cli-io.ts";
import type { CommandRunner } from "./command-table.ts";
import { teamRemove, teamRotateSecret, teamTransfer } from "./team/team-admin.ts";
import { IN_SESSION_LINE, inSession } from "./team/team-context.ts";
import { teamCreate } from "./team/team-create.ts";
import { teamJoin } from "./team/team-join.ts";
import { teamLeave } from "./team/team-leave.ts";
import { teamMembers } from "./team/team-members.ts";
import { fail } from "./team/team-report.ts";

/** What {@link runTeamCommand} needs besides argv and io (tests inject the folder). */
export interface TeamCommandOptions {
  /** The folder the command acts for (the checkout is found from it). */
  readonly cwd: string;
}

const USAGE = [
  "usage: brigade team <subcommand>",
  "  create <team-name> [--server <url>] [--secret-file <path>] [--human-label <text>]",
  "         [--operator-key-file <path>]   (a server whose registration is closed)",
  "  join --secret-file <path> [--server <url>] [--human-label <text>]",
  "  leave",
  "  members [--json]",
  "  rotate-secret [--secret-file <path>]   (creator) replace the join secret; the old one stops working",
  "  remove <member>                        (creator) revoke a member for good: its sessions close, no rejoin",
  "  transfer <member>                      (creator) make another member the team's creator",
  "",
  "<member> is the principal id `brigade team members` lists (labels are unverified, so they never pick one).",
  "All but members are yours to run in your own terminal, never from a Claude Code session.",
  "",
].join("\n");

const SUBCOMMANDS: Readonly<
  Record<
    string,
    {
      readonly human: boolean;
      readonly run: (argv: string[], io: CliIo, cwd: string) => Promise<number>;
    }
  >
> = {
  create: { human: true, run: teamCreate },
  join: { human: true, run: teamJoin },
  leave: { human: true, run: teamLeave },
  members: { human: false, run: teamMembers },
  "rotate-secret": { human: true, run: teamRotateSecret },
  remove: { human: true, run: teamRemove },
  transfer: { human: true, run: teamTransfer },
};

/**
 * `brigade team create|join|leave|members|rotate-secret|remove|transfer` for the folder
 * `options.cwd` (docs/44-team-binding.md). Exit statuses: 0 success; 2 bad usage
 * (`CliUsageError`, one value-free line) or a local refusal — every subcommand but `members`
 * while `CLAUDE_PID` is set (nothing touched), a
 * `.brigade.json` that already names a team (`create`) or another team than the secret
 * (`join`); 3 a `--secret-file` without a join secret; 11 no configuration folder, no team for
 * the folder (`members`, `leave`, the creator-only three) or a private file that cannot be
 * written; an adapter failure exits with its code's protocol status (1..12, one line naming the
 * code; `unauthorized` 5 when the caller is not the creator). The join secret is read only from a
 * file and printed only by `create` and `rotate-secret` without `--secret-file`.
 *
 * @example await runTeamCommand(["members", "--json"], io, { cwd: "/home/dana/src/api" });
 */
export async function runTeamCommand(
  argv: string[],
  io: CliIo,
  options: TeamCommandOptions,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const sub = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (sub === undefined) throw new CliUsageError('unknown subcommand (run "brigade team help")');
  if (sub.human && inSession(io)) return fail(io, name, 2, IN_SESSION_LINE).status;
  return sub.run(rest, io, options.cwd);
}

/**
 * `brigade team …` in the process's working folder: see {@link runTeamCommand}.
 *
 * @example const status = await runTeam(["join", "--secret-file", "team.secret"], processIo());
 */
export const runTeam: CommandRunner = (argv, io) =>
  runTeamCommand(argv, io, { cwd: process.cwd() });
