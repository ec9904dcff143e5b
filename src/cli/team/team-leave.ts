import { sanitizeAttribute } from "../../formats/sanitize/index.ts";
import { openHarnessAdapter } from "../../harness/adapter/index.ts";
import {
  deleteConsent,
  findTeamBinding,
  locateCheckout,
  readConsent,
  teamKeyFor,
} from "../../harness/binding/index.ts";
import type { CliIo } from "../cli-io.ts";
import { configDirOf } from "../config-folder.ts";
import { forgetConsent } from "./team-context.ts";
import { parseTeamFlags } from "./team-flags.ts";
import { fail, reportAdapterError } from "./team-report.ts";

/**
 * `brigade team leave` (docs/44-team-binding.md): leaves the team this checkout's consent (else
 * its `.brigade.json`) names and deletes the consent, so its sessions no longer connect. Exit 0,
 * 2 (usage), 11 (no config, nothing to leave, or the consent not deleted), or the adapter
 * failure's status.
 *
 * @example await teamLeave([], io, "/home/dana/src/api");
 */
export async function teamLeave(argv: string[], io: CliIo, cwd: string): Promise<number> {
  parseTeamFlags("leave", argv, {}, 0);
  const configDir = configDirOf(io, "team leave");
  if (typeof configDir !== "string") return configDir.status;
  const location = locateCheckout(cwd);
  if (location === undefined)
    return fail(io, "leave", 2, "the current folder does not exist").status;
  const found = findTeamBinding(cwd);
  const checkout = found.ok ? found.checkout : (location.repositoryTop ?? location.start);
  const consent = readConsent(configDir, checkout);
  // A record pointing to the folder a join with BRIGADE_CONFIG_DIR used: that folder holds the
  // credential, and its own record is deleted too.
  const teamDir = consent.ok ? (consent.record.config_dir ?? configDir) : configDir;
  // What the person joined here decides; the repository's file only when no consent remains.
  const teamKey = consent.ok
    ? consent.record.team_key
    : found.ok
      ? teamKeyFor(found.binding.server, found.binding.team_ref)
      : undefined;
  if (teamKey === undefined) {
    return fail(
      io,
      "leave",
      11,
      "this checkout names no team and holds no consent: nothing to leave",
    ).status;
  }
  let result: Awaited<ReturnType<ReturnType<typeof openHarnessAdapter>["teamLeave"]>>;
  try {
    result = await openHarnessAdapter({ configDir: teamDir, teamKey }).teamLeave();
  } catch (error) {
    return reportAdapterError(io, "leave", error);
  }
  try {
    forgetConsent(io, teamDir, checkout);
    if (teamDir !== configDir) deleteConsent(configDir, checkout);
  } catch {
    return fail(io, "leave", 11, "left the team, but the consent record could not be deleted")
      .status;
  }
  io.stdout(
    `Left team ${sanitizeAttribute(result.team_ref)}; this checkout's consent is removed and its sessions no longer connect.\n`,
  );
  return 0;
}
