import {
  type AdapterCallOptions,
  type AdapterCommandName,
  BapError,
  configError,
  type ValidationResult,
} from "../../protocol/index.ts";
import { isValidProfileName } from "./config-location.ts";
import type { HttpAdapterRuntime } from "./http-adapter-options.ts";
import { callServer, type ServerRequest, type ServerTransport, segment } from "./http-client.ts";
import { credentialMissing, readCredential } from "./profile-files.ts";
import type { StoredCredential, StoredProfile } from "./profile-store.ts";
import { normalizeServerUrl } from "./server-url.ts";

/** A bound profile, ready for a team-scoped call. */
export interface TeamContext {
  readonly transport: ServerTransport;
  readonly token: string;
  readonly teamRef: string;
  readonly profile: StoredProfile;
  readonly credential: StoredCredential;
}

/** What a call needs to reach the server: where, and with which bearer token. */
export interface CallTarget {
  readonly transport: ServerTransport;
  readonly token: string;
}

/** A server request before the token and the caller's signal are added. */
export type UnsignedRequest = Omit<ServerRequest, "token" | "signal">;

/**
 * The session/message/team verbs that need a bound team (docs/spec/protocol.md §3.3: 4 or 11
 * when unbound).
 */
export const TEAM_SCOPED: ReadonlySet<AdapterCommandName> = new Set<AdapterCommandName>([
  "session register",
  "session heartbeat",
  "session list",
  "session close",
  "message send",
  "message receive",
  "message watch",
  "message ack",
  "message upload",
  "message download",
  "team members",
  "team rotate-secret",
  "team revoke-member",
  "team transfer",
  "team accept-transfer",
  "profile rotate-token",
]);

/** The transport of every call to `baseUrl` (a normalised server URL). */
export function transportFor(runtime: HttpAdapterRuntime, baseUrl: string): ServerTransport {
  return {
    baseUrl,
    fetch: runtime.fetch,
    timeoutMs: runtime.timeoutMs,
    logger: runtime.log.child("http-client"),
  };
}

/**
 * One authenticated call: `request` with the target's token and the caller's signal, its answer
 * checked by `validate`. Errors as {@link callServer}.
 */
export function callTarget<T>(
  target: CallTarget,
  request: UnsignedRequest,
  validate: (value: unknown) => ValidationResult<T>,
  options: AdapterCallOptions | undefined,
): Promise<T> {
  return callServer(
    target.transport,
    { ...request, token: target.token, signal: options?.signal },
    validate,
  );
}

/** `/v1/teams/<team>` followed by `rest` (which starts with `/`). */
export function teamPath(ctx: TeamContext, rest: string): string {
  return `/v1/teams/${segment(ctx.teamRef)}${rest}`;
}

/** `/v1/teams/<team>/sessions/<session>` followed by `rest`; both ids percent-encoded. */
export function sessionPath(ctx: TeamContext, sessionId: string, rest: string): string {
  return `${teamPath(ctx, "/sessions")}/${segment(sessionId)}${rest}`;
}

/**
 * A bound profile with its credential and server, or the docs/spec/protocol.md §3.3 error (4,
 * then 11): an invalid profile name or unsafe profile file is `config`; no credential is
 * `unauthenticated` (`credential_missing`); no profile is `config` (`profile_missing`); no team
 * is `config` (`no_team_bound`); no usable server URL is `config`.
 */
export function readTeamContext(runtime: HttpAdapterRuntime): TeamContext {
  const store = runtime.store;
  if (store === undefined) {
    if (!isValidProfileName(runtime.profileName)) throw new BapError(configError());
    throw credentialMissing();
  }
  const profileRead = store.readProfile();
  if (profileRead.kind === "world_readable" || profileRead.kind === "invalid") {
    throw new BapError(configError());
  }
  const credential = readCredential(store);
  if (profileRead.kind === "missing") throw new BapError(configError("profile_missing"));
  const profile = profileRead.value;
  if (profile.team_ref === undefined) throw new BapError(configError("no_team_bound"));
  const server = profile.server === undefined ? undefined : normalizeServerUrl(profile.server);
  if (server === undefined) throw new BapError(configError());
  return {
    transport: transportFor(runtime, server),
    token: credential.token,
    teamRef: profile.team_ref,
    profile,
    credential,
  };
}
