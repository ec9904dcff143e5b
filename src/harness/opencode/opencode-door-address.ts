import { join } from "node:path";
import type { DoorContext } from "../host-session/index.ts";
import {
  fileStem,
  readPrivateStateFile,
  resolveStateDir,
  writePrivateStateFile,
} from "../state/index.ts";
import { OpenCodeDoor } from "./opencode-door.ts";
import { OPENCODE_PASSWORD_VARIABLE, OPENCODE_USERNAME_VARIABLE } from "./opencode-facts.ts";
import {
  isOpenCodeSessionId,
  listenerOwnedBy,
  openCodeServer,
  parseOpenCodeServerUrl,
} from "./opencode-server.ts";

/** Where a bound OpenCode session's server listens, as its session-start hook found it. */
export interface OpenCodeDoorAddress {
  /** OpenCode's id of the session (`ses_…`). */
  readonly session_id: string;
  /** `http://<loopback>:<port>` (`parseOpenCodeServerUrl`). */
  readonly server_url: string;
  /** The OpenCode process that listens there and runs the session. */
  readonly host_pid: number;
}

/** Largest door address file read, bytes. */
const MAX_ADDRESS_BYTES = 4_096;

/**
 * The file of a session's door address: `sessions/opencode-doors/<stem>.json` under Brigade's
 * state folder (0700 folders, 0600 file), or `undefined` when the state folder cannot be found.
 *
 * @example openCodeDoorAddressPath({ HOME: "/home/lee" }, "ses_1") // "/home/lee/.local/state/brigade/sessions/opencode-doors/ses_1.json"
 */
export function openCodeDoorAddressPath(
  env: Readonly<Record<string, string | undefined>>,
  sessionId: string,
): string | undefined {
  const state = resolveStateDir(env);
  if (!state.ok) return undefined;
  return join(state.dir, "sessions", "opencode-doors", `${fileStem(sessionId)}.json`);
}

/**
 * The address of a session's door when OpenCode's server can be reached from outside: the
 * plugin's `serverUrl` is a loopback URL (`parseOpenCodeServerUrl`) and process `hostPid` holds
 * its listening socket (`listenerOwnedBy`); `undefined` otherwise (a TUI started without
 * `--port`, `opencode run`: the session keeps the pull lane). Never throws.
 *
 * @example openCodeDoorAddress("ses_1", "http://127.0.0.1:4520/", 3551)?.server_url === "http://127.0.0.1:4520"
 */
export function openCodeDoorAddress(
  sessionId: string,
  serverUrl: string,
  hostPid: number,
): OpenCodeDoorAddress | undefined {
  const origin = parseOpenCodeServerUrl(serverUrl);
  if (origin === undefined || !isOpenCodeSessionId(sessionId)) return undefined;
  if (!listenerOwnedBy(Number(new URL(origin).port), hostPid)) return undefined;
  return { session_id: sessionId, server_url: origin, host_pid: hostPid };
}

/**
 * Writes a session's door address for the push lane (`openCodeDoorAddressPath`). Returns whether
 * it was written. Never throws.
 */
export function writeOpenCodeDoorAddress(
  env: Readonly<Record<string, string | undefined>>,
  address: OpenCodeDoorAddress,
): boolean {
  const path = openCodeDoorAddressPath(env, address.session_id);
  const state = resolveStateDir(env);
  if (path === undefined || !state.ok) return false;
  try {
    writePrivateStateFile(state.dir, path, `${JSON.stringify(address)}\n`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a session's door address, or `undefined` when there is none, it is not private to
 * `uid`, or it does not hold a valid address of that session. Never throws.
 */
export function readOpenCodeDoorAddress(
  env: Readonly<Record<string, string | undefined>>,
  sessionId: string,
  uid: number,
): OpenCodeDoorAddress | undefined {
  const path = openCodeDoorAddressPath(env, sessionId);
  if (path === undefined) return undefined;
  const read = readPrivateStateFile(path, { maxBytes: MAX_ADDRESS_BYTES, uid });
  if (read.kind !== "ok") return undefined;
  try {
    const o = JSON.parse(new TextDecoder().decode(read.bytes)) as Partial<OpenCodeDoorAddress>;
    if (o.session_id !== sessionId || typeof o.server_url !== "string") return undefined;
    if (parseOpenCodeServerUrl(o.server_url) !== o.server_url) return undefined;
    if (typeof o.host_pid !== "number" || !Number.isInteger(o.host_pid)) return undefined;
    return { session_id: o.session_id, server_url: o.server_url, host_pid: o.host_pid };
  } catch {
    return undefined;
  }
}

/**
 * Opens the door of a bound session for the push lane (docs/49-opencode.md "The door"): the
 * address is trusted again now (the same process still holds the port), and the server is called
 * with the OpenCode process's own basic-authentication password when `env` (the environment the
 * session's hooks run in, OpenCode's own) has one. `undefined` when the server cannot be trusted.
 *
 * @example const door = openOpenCodeDoor(context, address, process.env);
 */
export function openOpenCodeDoor(
  context: DoorContext,
  address: OpenCodeDoorAddress,
  env: Readonly<Record<string, string | undefined>>,
): OpenCodeDoor | undefined {
  const trusted = openCodeDoorAddress(address.session_id, address.server_url, address.host_pid);
  if (trusted === undefined) return undefined;
  const server = openCodeServer({
    origin: trusted.server_url,
    password: env[OPENCODE_PASSWORD_VARIABLE],
    username: env[OPENCODE_USERNAME_VARIABLE],
  });
  return new OpenCodeDoor({ context, server, sessionId: trusted.session_id });
}

/**
 * Why {@link openOpenCodeSessionDoor} opened no door, so the session keeps the pull lane
 * (docs/errors.md): `opencode_no_address` (its session start wrote no door address: the OpenCode
 * process listens nowhere, e.g. a TUI started without `--port`, or `opencode run`),
 * `opencode_not_listening` (the address's port is no longer held by the session's own process).
 *
 * @example OPENCODE_DOOR_REFUSALS.includes("opencode_no_address") === true
 */
export const OPENCODE_DOOR_REFUSALS = ["opencode_no_address", "opencode_not_listening"] as const;

/** What {@link openOpenCodeSessionDoor} answers: a door, or why the session has only the pull lane. */
export type OpenCodeDoorOpening =
  | { readonly ok: true; readonly door: OpenCodeDoor; readonly heldForPerson: false }
  | { readonly ok: false; readonly reason: (typeof OPENCODE_DOOR_REFUSALS)[number] };

/**
 * Opens the door of one bound OpenCode session for the shared push lane (docs/49-opencode.md
 * "The door"): the door address its session start wrote for OpenCode's session `sessionId`, whose
 * process must be `hostPid` (the by-pid map's) and still hold the port. OpenCode holds nothing for
 * review, so `heldForPerson` is always `false`. Never throws.
 *
 * @example const opening = openOpenCodeSessionDoor(map.claude_session_id, map.claude_pid, env, uid, ctx);
 */
export function openOpenCodeSessionDoor(
  sessionId: string,
  hostPid: number,
  env: Readonly<Record<string, string | undefined>>,
  uid: number,
  context: DoorContext,
): OpenCodeDoorOpening {
  const address = readOpenCodeDoorAddress(env, sessionId, uid);
  if (address === undefined || address.host_pid !== hostPid) {
    return { ok: false, reason: "opencode_no_address" };
  }
  const door = openOpenCodeDoor(context, address, env);
  if (door === undefined) return { ok: false, reason: "opencode_not_listening" };
  context.log("info", "opencode_door_open", { server: address.server_url });
  return { ok: true, door, heldForPerson: false };
}
