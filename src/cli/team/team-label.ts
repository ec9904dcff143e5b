import { oneLine, sanitizeAttribute, sanitizeLabel } from "../../formats/sanitize/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../../harness/adapter/index.ts";
import { resolveSessionTeam } from "../../harness/binding/index.ts";
import type { CliIo } from "../cli-io.ts";
import { humanLabelText, parseTeamFlags } from "./team-flags.ts";
import { displayName, fail, reportAdapterError, SESSION_TEAM_LINES } from "./team-report.ts";

/**
 * `brigade team label <text>`: sets how teammates see you in the folder's team. The text follows
 * the `--human-label` rule (at most 128 characters as typed, stored as one line through the
 * sanitiser; refused when nothing visible is left), so the label teammates read is the label
 * given. Messages sent from then on carry it. A person's act: refused inside a Claude Code
 * session (by the caller). Exit 0, 2 (usage, a label that breaks the rule: nothing sent), 11 (no
 * team for the folder), or the adapter failure's status.
 *
 * @example await teamLabel(["Dana (laptop)"], io, "/home/dana/src/api");
 */
export async function teamLabel(argv: string[], io: CliIo, cwd: string): Promise<number> {
  const { positionals } = parseTeamFlags("label", argv, {}, 1, "label");
  const label = humanLabelText(positionals[0] as string, "the label");
  const team = resolveSessionTeam({ cwd, configDir: harnessConfigDir(io.env) });
  if (!team.ok) return fail(io, "label", 11, SESSION_TEAM_LINES[team.reason] ?? team.reason).status;
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamLabel"]>>;
  try {
    result = await openHarnessAdapter(team).teamLabel({ human_label: label });
  } catch (error) {
    return reportAdapterError(io, "label", error);
  }
  io.stdout(
    `Your label in team "${displayName(team.teamName)}" (${sanitizeAttribute(result.team_ref)}) is now "${oneLine(sanitizeLabel(result.human_label), 128)}".\n`,
  );
  return 0;
}
