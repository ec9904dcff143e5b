import { sanitizeAttribute } from "../../formats/sanitize/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../../harness/adapter/index.ts";
import { resolveSessionTeam } from "../../harness/binding/index.ts";
import type { CliIo } from "../cli-io.ts";
import { parseTeamFlags } from "./team-flags.ts";
import { fail, reportAdapterError, SESSION_TEAM_LINES } from "./team-report.ts";

/**
 * `brigade team rotate-token`: replaces this machine's credential for the folder's team (its
 * bearer token) with a new one; the old token is refused from then on, wherever a copy of it
 * went. You stay the same member, with the same sessions. The token is never printed. Exit 0,
 * 2 (usage), 11 (no team for the folder, or the credential file cannot be written, checked before
 * anything changes), or the adapter failure's status (`unauthenticated` 4 when the server does
 * not know the token).
 *
 * @example await teamRotateToken([], io, "/home/dana/src/api");
 */
export async function teamRotateToken(argv: string[], io: CliIo, cwd: string): Promise<number> {
  parseTeamFlags("rotate-token", argv, {}, 0);
  const team = resolveSessionTeam({ cwd, configDir: harnessConfigDir(io.env) });
  if (!team.ok)
    return fail(io, "rotate-token", 11, SESSION_TEAM_LINES[team.reason] ?? team.reason).status;
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["profileRotateToken"]>>;
  try {
    result = await openHarnessAdapter(team).profileRotateToken();
  } catch (error) {
    return reportAdapterError(io, "rotate-token", error);
  }
  io.stdout(
    `Replaced the credential of ${sanitizeAttribute(result.principal_ref)} for this team: the old token is refused from now on; the new one is in the configuration folder and was not printed. Sessions running now pick it up on their next call.\n`,
  );
  return 0;
}
