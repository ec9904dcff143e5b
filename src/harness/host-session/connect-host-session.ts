import { basename } from "node:path";
import { registeredName } from "../../formats/sanitize/index.ts";
import { type Adapter, BapError, type SessionRegistration } from "../../protocol/index.ts";
import { harnessConfigDir, openHarnessAdapter } from "../adapter/index.ts";
import { resolveSessionTeam, type SessionTeam } from "../binding/index.ts";
import {
  defaultNamePerson,
  defaultSessionName,
  describeAdapter,
  gitUserName,
  isoSeconds,
  personNamePart,
  registerOrResume,
} from "../hooks/index.ts";
import { readHarnessBinding, writeHarnessBinding } from "../mcp/index.ts";
import {
  type ByPidMap,
  readByPidMap,
  resolveStateDir,
  stateLayout,
  UNKNOWN_PERMISSION_MODE,
  writeByPidMap,
} from "../state/index.ts";
import { deliveryOwned } from "../watcher/index.ts";
import { repositoryDotenvChoice } from "./repository-dotenv.ts";

/** Cap of each call a session-start hook makes (describe, register, heartbeat), ms. */
export const HOST_CONNECT_CALL_MS = 4_000;

/** The session a host named, and where it runs. */
export interface HostSessionRequest {
  /** The host's binding folder name (`gemini`, `codex`): lower-case letters, digits, `-`. */
  readonly host: string;
  /** The `harness` a registration names (`gemini-cli`, `codex`). */
  readonly harness: string;
  /** The host's version as measured (`"unknown"` when it cannot be told). */
  readonly harnessVersion: string;
  /** The host's own id of the session (its `session_id` / thread id). */
  readonly nativeSessionId: string;
  /** The pid of the host process that runs the session (its hooks' and MCP servers' parent). */
  readonly hostPid: number;
  /** The session's working folder (absolute). */
  readonly cwd: string;
  /** The host's transcript of the session, when it names one (absolute, or `""`). */
  readonly transcriptPath: string;
  /** The hook's environment: HOME and the XDG folders decide where Brigade's files are. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly uid: number;
  readonly now: () => number;
  /** Opens the person's adapter (tests inject one); `openHarnessAdapter` by default. */
  readonly openAdapter?: (target: { configDir: string; teamKey: string }) => Adapter;
  /** The `.env` files (relative to a folder) the client loads into its environment from the
   * first folder up from `cwd` that has one (`repositoryDotenvChoice`); none when it loads none. */
  readonly dotenvFiles?: readonly string[];
  /** Finds the team of `cwd` (tests inject one); `resolveSessionTeam` by default. */
  readonly resolveTeam?: (options: { cwd: string; configDir: string | undefined }) => SessionTeam;
}

/** Result of {@link connectHostSession}. */
export type HostConnectResult =
  | {
      readonly ok: true;
      readonly map: ByPidMap;
      /** `registered` (new), `resumed` (the same host session again), `renewed` (heartbeat). */
      readonly how: "registered" | "resumed" | "renewed";
    }
  /** No team binds this folder (or its consent is missing): Brigade stays off, silently. */
  | {
      readonly ok: false;
      readonly code: string;
      readonly off: boolean;
      /** The repository file that chose Brigade's folders (`repository_env`). */
      readonly file?: string;
    };

function failure(error: unknown): HostConnectResult {
  const code = error instanceof BapError ? error.code : "internal";
  return { ok: false, code, off: false };
}

/**
 * The name a host session registers: the person's part of their label (`personNamePart`), the
 * folder's name and the host's (`dana-api-gemini`, `defaultSessionName`), so two teammates'
 * sessions of one repository, and one person's in two hosts, are told apart; sanitised like
 * every registered name (`registeredName`, ≤ 64 code points).
 *
 * @example hostSessionName("/w/api", "gemini", "dana") === "dana-api-gemini"
 */
export function hostSessionName(cwd: string, host: string, person = ""): string {
  const folder = cwd === "" ? "" : basename(cwd);
  return defaultSessionName(person, folder, host) || registeredName(host) || host;
}

/**
 * Connects a host's session to Brigade, from the host's session-start hook (docs/49-hosts.md):
 * a repository `.env` the client loaded that chooses Brigade's folders → `repository_env` and
 * nothing read (`repositoryDotenvChoice`); then the team the folder is bound to and the person consented to (`resolveSessionTeam` over the
 * person's configuration folder; none → `{ok: false, off: true}`), then
 * - the by-pid map of `hostPid` already names this host session on this team → a heartbeat
 *   (`renewed`); a failed heartbeat falls through to
 * - the binding file of this host session (`by-harness/<host>/<id>.json`) names a Brigade session
 *   of this team → `session register` with `resume` (`resumed`; `not_found`/`conflict` → fresh),
 * - else `session register` (`registered`),
 * then says the session's lane is `pull` (`live_delivery` `no` `pull_lane`, with the capability
 * `session.live_delivery`, unless a live push lane already owns the session), then writes both the by-pid map of `hostPid` (which binds the host's MCP servers through the
 * process tree, docs/48-mcp.md "Identity" step 3) and the binding file (step 1, for a host that
 * names its session on each call). Each call is capped at {@link HOST_CONNECT_CALL_MS}. The token
 * is never written. Errors come back as their BAP code. Never throws.
 *
 * @example const r = await connectHostSession({ host: "gemini", harness: "gemini-cli", harnessVersion: "0.61.0", nativeSessionId, hostPid, cwd, transcriptPath: "", env, uid, now: Date.now });
 */
export async function connectHostSession(request: HostSessionRequest): Promise<HostConnectResult> {
  const { env, uid } = request;
  // A repository must not choose where Brigade's credentials and state live: a `.env` the client
  // loaded that names those variables disconnects the session before anything is read through it.
  const chosen = repositoryDotenvChoice(request.cwd, env.HOME ?? "", request.dotenvFiles ?? []);
  if (chosen !== undefined) return { ok: false, code: "repository_env", off: false, file: chosen };
  const dir = resolveStateDir(env);
  if (!dir.ok) return { ok: false, code: "state_dir_relative", off: false };
  const layout = stateLayout(dir.dir);
  const resolveTeam = request.resolveTeam ?? resolveSessionTeam;
  // As inside a Claude Code session, `BRIGADE_CONFIG_DIR` is not read: the client's environment
  // may hold what a repository put there.
  const team = resolveTeam({
    cwd: request.cwd,
    configDir: harnessConfigDir(env, { asSession: true }),
  });
  if (!team.ok) return { ok: false, code: team.reason, off: team.reason === "no_binding" };
  let adapter: Adapter;
  try {
    adapter = (request.openAdapter ?? openHarnessAdapter)({
      configDir: team.configDir,
      teamKey: team.teamKey,
    });
  } catch (error) {
    return failure(error);
  }
  const described = await describeAdapter(adapter, HOST_CONNECT_CALL_MS);
  if (!described.ok) return { ok: false, code: described.code, off: false };
  const features = described.features;
  const signal = (): AbortSignal => AbortSignal.timeout(HOST_CONNECT_CALL_MS);
  const hostPid = String(request.hostPid);
  const previousRead = readByPidMap({ claudePid: hostPid, env, uid });
  const previous =
    previousRead.ok &&
    previousRead.map.claude_session_id === request.nativeSessionId &&
    previousRead.map.team_key === team.teamKey
      ? previousRead.map
      : undefined;
  // A renewal keeps the default name it registered with: git is asked once, at registration.
  const folder = request.cwd === "" ? "" : basename(request.cwd);
  const kept =
    previous !== undefined &&
    defaultNamePerson(previous.session_name, folder, request.host) !== undefined
      ? previous.session_name
      : undefined;
  const gitLabel = kept === undefined ? gitUserName(request.cwd, env) : undefined;
  const name = kept ?? hostSessionName(request.cwd, request.host, personNamePart(gitLabel));

  let sessionId: string | undefined;
  let how: "registered" | "resumed" | "renewed" = "registered";
  if (previous !== undefined) {
    try {
      await adapter.sessionHeartbeat(
        previous.brigade_session_id,
        { activity: "idle", session_name: name },
        { signal: signal() },
      );
      sessionId = previous.brigade_session_id;
      how = "renewed";
    } catch (error) {
      if (error instanceof BapError && error.retryable) return failure(error);
    }
  }
  if (sessionId === undefined) {
    const bound = readHarnessBinding(layout, request.host, request.nativeSessionId, uid);
    const resumeId =
      features.resume && bound.ok && bound.map.team_ref === team.teamRef
        ? bound.map.brigade_session_id
        : undefined;
    const human = features.humanLabel ? (gitLabel ?? gitUserName(request.cwd, env)) : undefined;
    const registration: SessionRegistration = {
      harness: request.harness,
      harness_version: registeredName(request.harnessVersion) || "unknown",
      session_name: name,
      activity: "idle",
      inbound: "accept",
      ...(human === undefined ? {} : { human_label: human }),
    };
    try {
      ({ sessionId, how } = await registerOrResume(adapter, registration, resumeId, signal));
    } catch (error) {
      return failure(error);
    }
  }
  // The session has the pull lane until a push lane of its client says otherwise; a lane that
  // already runs for it (a renewal) is not contradicted. Sent apart from the registration, so a
  // server that does not know the reason refuses only this report.
  if (features.liveDelivery && !deliveryOwned(layout, request.hostPid, sessionId)) {
    try {
      await adapter.sessionHeartbeat(
        sessionId,
        { live_delivery: "no", live_delivery_reason: "pull_lane" },
        { signal: signal() },
      );
    } catch {
      // only the lane shown to teammates is missing; the next start says it again
    }
  }
  const now = isoSeconds(request.now());
  const map: ByPidMap = {
    claude_pid: request.hostPid,
    claude_session_id: request.nativeSessionId,
    brigade_session_id: sessionId,
    team_ref: team.teamRef,
    team_name: team.teamName,
    session_name: name,
    permission_mode: UNKNOWN_PERMISSION_MODE,
    non_interactive: false,
    inbound: "accept",
    frame_level: "open",
    frame_text: "",
    socket_path: "",
    ...(request.transcriptPath.startsWith("/") ? { transcript_path: request.transcriptPath } : {}),
    // The project folder: where received files go, and what the session may attach.
    ...(team.checkout.startsWith("/") ? { checkout: team.checkout } : {}),
    team_key: team.teamKey,
    config_dir: team.configDir,
    adapter_command: [],
    plugin_bin: "",
    harness_version: registeredName(request.harnessVersion) || "unknown",
    registered_at: how === "renewed" && previous !== undefined ? previous.registered_at : now,
    updated_at: now,
    options: { host: request.host, harness: request.harness },
  };
  try {
    writeByPidMap(layout, map);
    writeHarnessBinding(layout, request.host, map);
  } catch {
    return { ok: false, code: "internal", off: false };
  }
  return { ok: true, map, how };
}
