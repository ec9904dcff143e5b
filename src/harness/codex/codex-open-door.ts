import type { DoorContext } from "../host-session/index.ts";
import { CodexAppServer } from "./codex-app-server.ts";
import { CodexDoor } from "./codex-delivery.ts";
import { type CodexNoDoorReason, codexDoorAddress } from "./codex-door-address.ts";
import { codexHomeOf } from "./codex-install.ts";

/** The client name Brigade gives the app-server (`initialize` `clientInfo.name`). */
export const CODEX_DOOR_CLIENT_NAME = "brigade";

/**
 * Why an app-server door did not open (docs/errors.md): the socket (`connect_failed`), the
 * WebSocket upgrade (`upgrade_refused`), `initialize` (`initialize_failed`), no answer in time
 * (`timeout`), the thread is not loaded in that app-server (`not_loaded`: no live session there),
 * the read of its record failed (`read_failed`), or the
 * person's Codex home is unknown (`no_home`).
 *
 * @example CODEX_DOOR_OPEN_FAILURES.includes("not_loaded") === true
 */
export const CODEX_DOOR_OPEN_FAILURES = [
  "connect_failed",
  "upgrade_refused",
  "initialize_failed",
  "timeout",
  "not_loaded",
  "read_failed",
  "no_home",
] as const;

/** What {@link openCodexDoor} gives: the door, or why the session stays on the pull lane. */
export type CodexOpenDoorResult =
  | { readonly ok: true; readonly door: CodexDoor }
  | {
      readonly ok: false;
      readonly reason: Exclude<(typeof CODEX_DOOR_OPEN_FAILURES)[number], "no_home">;
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

/** What {@link openCodexSessionDoor} gives: the door, or why the session keeps the pull lane. */
export type CodexSessionDoorResult =
  | { readonly ok: true; readonly door: CodexDoor; readonly socketPath: string }
  | {
      readonly ok: false;
      readonly reason:
        | CodexNoDoorReason
        | "no_home"
        | Extract<CodexOpenDoorResult, { ok: false }>["reason"];
    };

/**
 * The door of one Brigade session of Codex (docs/49-codex.md "Which sessions Brigade reaches"):
 * `hostPid` is the Codex process its hooks ran under (the binding's `claude_pid`: the app-server
 * that serves the thread), `threadId` Codex's session id, `env` the person's environment (its
 * `CODEX_HOME` or `HOME` names the Codex home). A process without a door (`codex exec`, an
 * app-server on stdio) answers its reason: that session keeps the pull lane. Never throws.
 *
 * @example const r = await openCodexSessionDoor(ctx, { hostPid: 4711, threadId }, process.env, uid);
 */
export async function openCodexSessionDoor(
  ctx: DoorContext,
  session: { readonly hostPid: number; readonly threadId: string },
  env: Readonly<Record<string, string | undefined>>,
  uid: number,
): Promise<CodexSessionDoorResult> {
  const codexHome = codexHomeOf(env);
  if (codexHome === undefined) return { ok: false, reason: "no_home" };
  const address = codexDoorAddress(session.hostPid, codexHome, uid);
  if (!address.ok) return address;
  const opened = await openCodexDoor(ctx, address.socketPath, session.threadId);
  return opened.ok ? { ...opened, socketPath: address.socketPath } : opened;
}
