import { oneLine, sanitizeAttribute, sanitizeLabel } from "../../formats/sanitize/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../../harness/adapter/index.ts";
import { resolveSessionTeam } from "../../harness/binding/index.ts";
import type { TeamMember } from "../../protocol/index.ts";
import type { CliIo } from "../cli-io.ts";
import { parseTeamFlags } from "./team-flags.ts";
import { displayName, fail, reportAdapterError, SESSION_TEAM_LINES } from "./team-report.ts";

/** Who a roster row is to the reader: the reader itself, the team's creator. */
interface Marks {
  readonly you: string | undefined;
  readonly creator: string | undefined;
}

function memberJson(m: TeamMember, marks: Marks) {
  return {
    principal_ref: sanitizeAttribute(m.principal_ref),
    you: m.principal_ref === marks.you,
    creator: m.principal_ref === marks.creator,
    human_label: oneLine(sanitizeLabel(m.human_label), 128),
    status: sanitizeAttribute(m.status),
    joined_at: sanitizeAttribute(m.joined_at),
    last_seen_at: m.last_seen_at === null ? null : sanitizeAttribute(m.last_seen_at),
    session_count: m.session_count,
  };
}

/**
 * `brigade team members [--json]`: the active members of the folder's team, every server string
 * sanitised (labels are each member's own choice, never verified), the reader marked `(you)` (its
 * own principal, from this machine's profile) and the team's creator `(creator)` (when the server
 * names it, capability `team.labels`); a member without a label says how to set one. Allowed
 * inside a session.
 * Exit 0, 2 (usage), 11 (no team for the folder), or the adapter failure's status.
 *
 * @example await teamMembers(["--json"], io, "/home/dana/src/api");
 */
export async function teamMembers(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { values } = parseTeamFlags("members", argv, { json: { type: "boolean" } }, 0);
  const team = resolveSessionTeam({ cwd, configDir: harnessConfigDir(io.env) });
  if (!team.ok)
    return fail(io, "members", 11, SESSION_TEAM_LINES[team.reason] ?? team.reason).status;
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamMembers"]>>;
  let you: string | undefined;
  try {
    const adapter = openHarnessAdapter({ configDir: team.configDir, teamKey: team.teamKey });
    result = await adapter.teamMembers();
    // The profile names this machine's principal; describe reads local files only.
    const profile = (await adapter.describe()).profile;
    you = profile.state === "joined" ? profile.principal_ref : undefined;
  } catch (error) {
    return reportAdapterError(io, "members", error);
  }
  const marks = { you, creator: result.creator_principal_ref };
  const list = result.members.map((m) => memberJson(m, marks));
  if (values.json === true) {
    io.stdout(
      `${JSON.stringify({
        team_ref: sanitizeAttribute(result.team_ref),
        team_name: displayName(result.team_name),
        creator_principal_ref:
          result.creator_principal_ref === undefined
            ? null
            : sanitizeAttribute(result.creator_principal_ref),
        labels_verified: false,
        members: list,
      })}\n`,
    );
    return 0;
  }
  const lines = [
    `Team "${displayName(result.team_name)}" (${sanitizeAttribute(result.team_ref)}): ${list.length} active member${list.length === 1 ? "" : "s"}. Labels are chosen by each member and unverified.`,
  ];
  for (const m of list) {
    const label = m.human_label === "" ? "(no label)" : `"${m.human_label}"`;
    const seen = m.last_seen_at === null ? "never" : m.last_seen_at;
    const who = [m.you ? "(you)" : "", m.creator ? "(creator)" : ""].filter(Boolean).join(" ");
    lines.push(
      `  ${m.principal_ref}  ${label}${who === "" ? "" : `  ${who}`}  joined ${m.joined_at}  last seen ${seen}  sessions ${m.session_count}`,
    );
  }
  if (list.some((m) => m.you && m.human_label === "")) {
    lines.push(
      'You have no label: set one with `brigade team label "<how teammates should see you>"`.',
    );
  }
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}
