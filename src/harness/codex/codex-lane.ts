import { currentUid } from "../../local-files/index.ts";
import type { DoorContext, DoorOpening, DoorSession } from "../host-session/index.ts";
import { startPushLane } from "../push-lane/index.ts";
import type { ByPidMap } from "../state/index.ts";
import { codexDoorAddress } from "./codex-door-address.ts";
import { CODEX_HOME_VARIABLE } from "./codex-facts.ts";
import { CODEX_HOST } from "./codex-hook.ts";
import { codexHomeOf } from "./codex-install.ts";
import { openCodexSessionDoor } from "./codex-open-door.ts";

/** The variables of Codex's own the push lane needs: where the Codex home is. */
export const CODEX_LANE_ENVIRONMENT: readonly string[] = [CODEX_HOME_VARIABLE];

/**
 * Starts the push lane of a Codex session the start just bound (`ensurePushLane`: one per client
 * process, detached, `brigade host-watch codex --host-pid <pid>`) and answers its outcome word
 * (`running`, `spawned`, or why not). A session whose process has no door (`codex exec`, an
 * app-server on stdio: `codexDoorAddress`) starts nothing and answers `no_door`: it keeps the
 * pull lane, and its start pays no lane process. Never throws.
 *
 * @example await startCodexLane(map, process.env) === "spawned"
 */
export async function startCodexLane(
  map: ByPidMap,
  env: Readonly<Record<string, string | undefined>>,
  uid: number = currentUid(),
): Promise<string> {
  const home = codexHomeOf(env);
  if (home === undefined) return "no_home";
  // No door (`codex exec`, a stdio app-server) is the pull lane's ordinary case, not a fault.
  if (!codexDoorAddress(map.claude_pid, home, uid).ok) return "no_door";
  return startPushLane(CODEX_HOST, CODEX_LANE_ENVIRONMENT, map, env);
}

/**
 * Codex's door for the shared push lane (`HostClient.openDoor`, docs/49-codex.md "The push
 * lane"): the app-server door of the by-pid map's process and thread (`openCodexSessionDoor`);
 * Codex holds nothing for its person (`heldForPerson` false). Without a door the reason (a
 * `CODEX_NO_DOOR_REASONS` or `CODEX_DOOR_OPEN_FAILURES` word): the session keeps the pull lane.
 * Never throws.
 *
 * @example const opening = await openCodexLaneDoor(session, ctx);
 */
export async function openCodexLaneDoor(
  session: DoorSession,
  ctx: DoorContext,
  uid: number = currentUid(),
): Promise<DoorOpening> {
  const opened = await openCodexSessionDoor(
    ctx,
    { hostPid: session.map.claude_pid, threadId: session.map.claude_session_id },
    session.env,
    uid,
  );
  if (!opened.ok) return { ok: false, reason: opened.reason };
  ctx.log("info", "codex_door_open", {});
  return { ok: true, door: opened.door, heldForPerson: false };
}
