import { isAbsolute } from "node:path";
import {
  type AdapterCallOptions,
  BapError,
  configError,
  conflictError,
  invalidInputError,
  parseJoinSecret,
  type TeamCreateRequest,
  type TeamCreateResult,
  type TeamJoinRequest,
  type TeamJoinResult,
  type TeamLeaveResult,
  validateTeamCreateRequest,
  validateTeamCreateResult,
  validateTeamJoinRequest,
  validateTeamJoinResult,
  validateTeamLeaveResult,
  valueOrThrow,
} from "../../protocol/index.ts";
import { readPrivateFile } from "../private-files.ts";
import { callWithSetup } from "./credential-setup.ts";
import type { HttpAdapterRuntime } from "./http-adapter-options.ts";
import {
  readCredential,
  readProfileForSetup,
  requireStore,
  writeCredential,
  writeProfile,
} from "./profile-files.ts";
import type { ProfileStore, StoredProfile } from "./profile-store.ts";
import { normalizeServerUrl } from "./server-url.ts";
import { callTarget, readTeamContext, teamPath } from "./team-context.ts";

/**
 * `team create`: refused with `conflict` (`profile_bound`) on a bound profile, before any network
 * call; sends the operator key of `BRIGADE_OPERATOR_KEY_FILE` when set; binds the profile to the
 * new team. Server and credential as `callWithSetup`.
 */
export async function createTeam(
  runtime: HttpAdapterRuntime,
  request: TeamCreateRequest,
  options: AdapterCallOptions | undefined,
): Promise<TeamCreateResult> {
  const store = requireStore(runtime.store);
  const profile = readProfileForSetup(store);
  if (profile.team_ref !== undefined) throw new BapError(conflictError("profile_bound"));
  const body = valueOrThrow(validateTeamCreateRequest(request));
  const operatorKey = readOperatorKey(runtime);
  const { baseUrl, result } = await callWithSetup(
    runtime,
    { store, profile, backendServer: undefined },
    {
      method: "POST",
      path: "/v1/teams",
      body,
      ...(operatorKey === undefined ? {} : { operatorKey }),
    },
    validateTeamCreateResult,
    options,
  );
  bindProfile(runtime, store, baseUrl, result, body.human_label);
  runtime.log.info("team_created");
  return result;
}

/**
 * `team join`: a bound profile may only rejoin its own team (else `conflict`, `profile_bound`);
 * a `backend.server` that is not a server URL, or differs from the profile's, is `invalid_input`
 * — all checked before any network call. Binds the profile to the team, keeping its label on a
 * rejoin without a new one. Server and credential as `callWithSetup`.
 */
export async function joinTeam(
  runtime: HttpAdapterRuntime,
  request: TeamJoinRequest,
  options: AdapterCallOptions | undefined,
): Promise<TeamJoinResult> {
  const store = requireStore(runtime.store);
  const parsed = valueOrThrow(validateTeamJoinRequest(request));
  const profile = readProfileForSetup(store);
  const secret = parseJoinSecret(parsed.join_secret);
  const secretTeam = secret.ok ? secret.value.teamRef : "";
  if (profile.team_ref !== undefined && profile.team_ref !== secretTeam) {
    throw new BapError(conflictError("profile_bound"));
  }
  let backendServer: string | undefined;
  if (parsed.backend !== undefined) {
    const server = parsed.backend.server;
    const normalized = typeof server === "string" ? normalizeServerUrl(server) : undefined;
    if (normalized === undefined) {
      throw new BapError(invalidInputError("backend.server", "invalid_value"));
    }
    if (profile.server !== undefined && profile.server !== normalized) {
      // `backend` is accepted only while the profile has no backend of its own
      // (docs/spec/protocol.md §4.10).
      throw new BapError(invalidInputError("backend", "invalid_value"));
    }
    backendServer = normalized;
  }
  const body: Record<string, string> = { join_secret: parsed.join_secret };
  if (parsed.human_label !== undefined) body.human_label = parsed.human_label;
  const { baseUrl, result } = await callWithSetup(
    runtime,
    { store, profile, backendServer },
    { method: "POST", path: "/v1/teams/join", body },
    validateTeamJoinResult,
    options,
  );
  const label =
    parsed.human_label ?? (profile.team_ref === result.team_ref ? profile.human_label : undefined);
  bindProfile(runtime, store, baseUrl, result, label);
  runtime.log.info("team_joined", { rejoined: result.rejoined });
  return result;
}

/**
 * `team leave`: idempotent — a profile that already left answers from what it remembers
 * (`config`, `no_team_bound`, when it remembers no team or principal). Otherwise leaves on the
 * server, then unbinds the profile (keeping its server and `left_team_ref`) and records the
 * principal in the credential when it lacked one.
 */
export async function leaveTeam(
  runtime: HttpAdapterRuntime,
  options: AdapterCallOptions | undefined,
): Promise<TeamLeaveResult> {
  const store = requireStore(runtime.store);
  const credential = readCredential(store);
  const profile = readProfileForSetup(store);
  if (profile.team_ref === undefined) {
    const principal = credential.principal_ref ?? profile.principal_ref;
    if (profile.left_team_ref === undefined || principal === undefined) {
      throw new BapError(configError("no_team_bound"));
    }
    return { team_ref: profile.left_team_ref, principal_ref: principal, left: true };
  }
  const ctx = readTeamContext(runtime);
  const result = await callTarget(
    ctx,
    { method: "POST", path: teamPath(ctx, "/leave") },
    validateTeamLeaveResult,
    options,
  );
  const unbound: StoredProfile = { left_team_ref: result.team_ref };
  if (profile.server !== undefined) unbound.server = profile.server;
  writeProfile(store, unbound, runtime.log);
  if (credential.principal_ref === undefined) {
    writeCredential(store, { ...credential, principal_ref: result.principal_ref }, runtime.log);
  }
  runtime.log.info("team_left");
  return result;
}

/**
 * The operator key named by `BRIGADE_OPERATOR_KEY_FILE`, read before any network call, or
 * `undefined` when the variable is unset or empty. A relative path, or a file that is missing,
 * not a private regular file (symlink, FIFO, group/other bits, foreign owner) or does not hold
 * one line of 1–256 printable ASCII characters, is `config`.
 */
function readOperatorKey(runtime: HttpAdapterRuntime): string | undefined {
  const path = runtime.env.BRIGADE_OPERATOR_KEY_FILE;
  if (path === undefined || path === "") return undefined;
  if (!isAbsolute(path)) throw new BapError(configError());
  const file = readPrivateFile(path);
  if (file.kind !== "ok") throw new BapError(configError());
  const key = file.text.trim();
  if (!/^[\x21-\x7e]{1,256}$/.test(key)) throw new BapError(configError());
  return key;
}

/** Records the team a create or join bound this profile to (the label only when known). */
function bindProfile(
  runtime: HttpAdapterRuntime,
  store: ProfileStore,
  server: string,
  team: { team_ref: string; team_name: string; principal_ref: string },
  label: string | undefined,
): void {
  const bound: StoredProfile = {
    server,
    team_ref: team.team_ref,
    team_name: team.team_name,
    principal_ref: team.principal_ref,
  };
  if (label !== undefined) bound.human_label = label;
  writeProfile(store, bound, runtime.log);
}
