import { type CliIo, CliUsageError } from "./cli-io.ts";
import type { CommandRunner } from "./command-table.ts";
import { nearestName } from "./nearest-name.ts";
import {
  teamAcceptTransfer,
  teamRemove,
  teamRotateSecret,
  teamTransfer,
} from "./team/team-admin.ts";
import { IN_SESSION_LINE, inSession } from "./team/team-context.ts";
import { teamCreate } from "./team/team-create.ts";
import { teamInvitations, teamInvite, teamRevokeInvite } from "./team/team-invite.ts";
import { teamJoin } from "./team/team-join.ts";
import { teamLabel } from "./team/team-label.ts";
import { teamLeave } from "./team/team-leave.ts";
import { teamMembers } from "./team/team-members.ts";
import { fail } from "./team/team-report.ts";
import { teamRotateToken } from "./team/team-rotate-token.ts";

/** What {@link runTeamCommand} needs besides argv and io (tests inject the folder). */
export interface TeamCommandOptions {
  /** The folder the command acts for (the checkout is found from it). */
  readonly cwd: string;
}

const USAGE = [
  "usage: brigade team <subcommand>",
  "  create <team-name> [--server <url>] [--secret-file <path>] [--human-label <text>]",
  "         [--operator-key-file <path>]   (a server whose registration is closed)",
  "  join [--secret-file <path>] [--server <url>] [--human-label <text>]",
  "                                         (no --secret-file: paste the invitation, unseen)",
  "  leave",
  "  members [--json]                       who is in the team; you and the creator are marked",
  "  label <text>                           how teammates see you",
  "  rotate-secret [--secret-file <path>]   (creator) replace the join secret; the old one dies",
  "  remove <member>                        (creator) revoke a member for good: no rejoin",
  "  transfer <member>                      (creator) offer the team to another member",
  "  accept-transfer                        take the team its creator offered you",
  "  rotate-token                           replace your credential for the team; the old one dies",
  "  invite [--uses N] [--expires 24h] [--out FILE]",
  "                                         (creator) an invitation: one use, 24 h unless asked",
  "  invitations [--json]                   (creator) list invitations and what became of them",
  "  revoke-invite <invitation-id>          (creator) an invitation admits nobody from now on",
  "",
  "<member> is the principal id `brigade team members` lists (labels are unverified, so they",
  "never pick one).",
  "All but members are yours to run in your own terminal, never from a Claude Code session.",
  'Run "brigade team <subcommand> --help" for one subcommand\'s help.',
  "",
].join("\n");

interface TeamSubcommand {
  /** A person's act: refused inside a Claude Code session. */
  readonly human: boolean;
  /** `brigade team <sub> --help`: the usage line(s) and what it does. */
  readonly help: string;
  readonly run: (argv: string[], io: CliIo, cwd: string) => Promise<number>;
}

const SUBCOMMANDS: Readonly<Record<string, TeamSubcommand>> = {
  create: {
    human: true,
    help: `usage: brigade team create <team-name> [--server <url>] [--secret-file <path>]
                           [--human-label <text>] [--operator-key-file <path>]

Creates a team on the server (--server, else BRIGADE_SERVER), writes this checkout's .brigade.json
(commit it) and joins this checkout. The join secret goes to a new file, mode 0600: --secret-file,
else <config>/join-secrets/<team name>-<8 hex>.secret (it prints which); never inside a git
work tree that does not ignore it.
<team-name>: 1 to 64 characters of visible text (no control or invisible characters).
--human-label: how teammates see you, up to 128 characters, kept on one line.
--operator-key-file: a private file of yours (mode 0600) holding the operator key of a server
started with --registration closed, on one line.
Run it in your own terminal, never from a Claude Code session.
`,
    run: teamCreate,
  },
  join: {
    human: true,
    help: `usage: brigade team join [--secret-file <path>] [--server <url>] [--human-label <text>]

Joins the team with an invitation (the one line \`brigade team invite\` printed) or the team's join
secret, and records your consent for this checkout, so Claude Code sessions started here connect.
Without --secret-file it asks you to paste the invitation on the terminal, unseen (or reads it
from a pipe); it is never taken from the command line. The invitation line names the team's
server; a bare join secret needs --server <url> (or the file \`brigade team create\` wrote).
Run it in your own terminal, never from a Claude Code session.
`,
    run: teamJoin,
  },
  leave: {
    human: true,
    help: `usage: brigade team leave

Leaves this checkout's team: your membership ends, your sessions close, this checkout's consent is
deleted. Run it in your own terminal.
`,
    run: teamLeave,
  },
  members: {
    human: false,
    help: `usage: brigade team members [--json]

Lists the active members of this checkout's team, marking you and the team's creator. Labels are
chosen by each member: unverified (set yours with \`brigade team label <text>\`).
`,
    run: teamMembers,
  },
  label: {
    human: true,
    help: `usage: brigade team label <text>

Sets how teammates see you in this checkout's team (\`brigade team members\`, and the messages you
send from now on): up to 128 characters, kept on one line; control and invisible characters are
removed. Labels are never verified. Run it in your own terminal.
`,
    run: teamLabel,
  },
  "rotate-secret": {
    human: true,
    help: `usage: brigade team rotate-secret [--secret-file <path>]

(The team's creator) replaces the join secret: the old one admits nobody from now on; members stay.
The new secret goes to a new 0600 file: --secret-file, else <config>/join-secrets/. Run it in your
own terminal.
`,
    run: teamRotateSecret,
  },
  remove: {
    human: true,
    help: `usage: brigade team remove <member>

(The team's creator) removes a member for good: its sessions close and no join secret lets it back.
<member> is the principal id \`brigade team members\` lists. Run it in your own terminal.
`,
    run: teamRemove,
  },
  transfer: {
    human: true,
    help: `usage: brigade team transfer <member>

(The team's creator) offers the team to another member. It stays yours until they run
\`brigade team accept-transfer\`; then they are the creator and you stay a member. The offer
lasts 7 days: not accepted by then, it lapses and the team stays yours. A new offer replaces
the last (and lasts 7 days from then); naming yourself withdraws it. <member> is the principal
id \`brigade team members\` lists. Run it in your own terminal.
`,
    run: teamTransfer,
  },
  "accept-transfer": {
    human: true,
    help: `usage: brigade team accept-transfer

Takes over this checkout's team, which its creator offered you with \`brigade team transfer\`:
you become its creator, and the previous creator stays a member. Run it in your own terminal.
`,
    run: teamAcceptTransfer,
  },
  "rotate-token": {
    human: true,
    help: `usage: brigade team rotate-token

Replaces this machine's credential for this checkout's team with a new one: the old token is refused
from now on (use it when a copy may have leaked). You stay the same member, with the same sessions.
The token is never printed. Run it in your own terminal.
`,
    run: teamRotateToken,
  },
  invite: {
    human: true,
    help: `usage: brigade team invite [--uses N] [--expires <duration>] [--out FILE]

(The team's creator) makes an invitation to this checkout's team: one line holding a secret of its
own and the server, which a teammate pastes into \`brigade team join\`. It admits N people
(--uses, 1 to 100, default 1) until it expires (--expires: 30m, 24h, 7d…, from 1s to 7d,
default 24h). Printed alone on stdout, or with --out written to a new file, mode 0600 (not inside
a git work tree that does not ignore it), and not printed. Send it privately. A rotation of the
team's secret revokes every active invitation. Run it in your own terminal.
`,
    run: teamInvite,
  },
  invitations: {
    human: true,
    help: `usage: brigade team invitations [--json]

(The team's creator) lists this checkout's team's invitations, newest first: active, used (with
how many of its uses), expired or revoked. Ended ones stay listed for 7 days. No secret is shown:
the server keeps none. Run it in your own terminal.
`,
    run: teamInvitations,
  },
  "revoke-invite": {
    human: true,
    help: `usage: brigade team revoke-invite <invitation-id>

(The team's creator) revokes an invitation: it admits nobody from now on. People who already
joined with it stay members (brigade team remove <member>). <invitation-id> is the id
\`brigade team invite\` and \`brigade team invitations\` show. Run it in your own terminal.
`,
    run: teamRevokeInvite,
  },
};

/**
 * `brigade team <subcommand>` (the subcommands of {@link SUBCOMMANDS}) for the folder
 * `options.cwd` (docs/44-team-binding.md). Exit statuses: 0 success; 2 bad usage
 * (`CliUsageError`, one value-free line) or a local refusal — every subcommand but `members`
 * while `CLAUDE_PID` is set (nothing touched), a `.brigade.json` that already names a team
 * (`create`) or another team than the secret (`join`); 3 a `--secret-file` without a join
 * secret; 11 no configuration folder, no team for the folder (`members`, `leave`, the
 * creator-only subcommands, `accept-transfer`, `rotate-token`, `label`) or a private file that
 * cannot be written; an adapter failure exits with its code's protocol status (1..12, one line
 * naming the code; `unauthorized` 5 when the caller is not the creator, or an invitation that was
 * used, expired or revoked). A join secret or invitation is read only from a file or stdin (a
 * terminal asks unseen), and printed only by `create` and `rotate-secret` without
 * `--secret-file` and `invite` without `--out`; a bearer token is never printed.
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
  if (sub === undefined) {
    const near = nearestName(name, Object.keys(SUBCOMMANDS));
    throw new CliUsageError(
      near === undefined
        ? 'unknown subcommand (run "brigade team help")'
        : `unknown subcommand; did you mean "brigade team ${near}"? (run "brigade team help")`,
    );
  }
  if (rest.length === 1 && (rest[0] === "--help" || rest[0] === "-h")) {
    io.stdout(sub.help);
    return 0;
  }
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
