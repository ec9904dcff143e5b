import type { DoorContext } from "../host-session/index.ts";
import { CodexAppServer } from "./codex-app-server.ts";
import { CodexDoor } from "./codex-delivery.ts";

/** The client name Brigade gives the app-server (`initialize` `clientInfo.name`). */
export const CODEX_DOOR_CLIENT_NAME = "brigade";

/** What {@link openCodexDoor} gives: the door, or why the session stays on the pull lane. */
export type CodexOpenDoorResult =
  | { readonly ok: true; readonly door: CodexDoor }
  | {
      readonly ok: false;
      readonly reason:
        | "connect_failed"
        | "upgrade_refused"
        | "initialize_failed"
        | "timeout"
        | "not_loaded"
        | "resume_failed"
        | "read_failed";
    };

/**
 * Opens the Codex door of the thread `threadId` served by the app-server on `socketPath`
 * (`codexDoorAddress`): connects, initialises, attaches (the thread must be loaded there). On any
 * failure the connection is closed and the reason returned (docs/49-codex.md "The push lane").
 * Never throws.
 *
 * @example const opened = await openCodexDoor(ctx, socketPath, threadId);
 */
export async function openCodexDoor(
  ctx: DoorContext,
  socketPath: string,
  threadId: string,
): Promise<CodexOpenDoorResult> {
  const opened = await CodexAppServer.open(socketPath, CODEX_DOOR_CLIENT_NAME);
  if (!opened.ok) return opened;
  const attached = await CodexDoor.attach(ctx, opened.server, threadId);
  if (!attached.ok) opened.server.close();
  return attached;
}
