import { isAbsolute } from "node:path";
import {
  type AckRequest,
  type AckResult,
  type Adapter,
  type AdapterCallOptions,
  type AdapterCommandName,
  BapError,
  configError,
  conflictError,
  type DescribeResult,
  type HeartbeatRequest,
  type HeartbeatResult,
  invalidInputError,
  isJsonObject,
  parseJoinSecret,
  type ReceiveOptions,
  type ReceiveResult,
  type SendRequest,
  type SendResponse,
  type SessionCloseResult,
  type SessionListOptions,
  type SessionListResult,
  type SessionRegistration,
  type SessionRegistrationResult,
  type TeamCreateRequest,
  type TeamCreateResult,
  type TeamJoinRequest,
  type TeamJoinResult,
  type TeamLeaveResult,
  type TeamMembersResult,
  type TeamMemberTarget,
  type TeamRevokeMemberResult,
  type TeamRotateSecretResult,
  type TeamTransferResult,
  unauthenticatedError,
  type ValidationResult,
  validateAckRequest,
  validateAckResult,
  validateHeartbeatRequest,
  validateHeartbeatResult,
  validateReceiveResult,
  validateSendRequest,
  validateSendResponse,
  validateSessionCloseResult,
  validateSessionListResult,
  validateSessionRegistration,
  validateSessionRegistrationResult,
  validateTeamCreateRequest,
  validateTeamCreateResult,
  validateTeamJoinRequest,
  validateTeamJoinResult,
  validateTeamLeaveResult,
  validateTeamMembersResult,
  validateTeamMemberTarget,
  validateTeamRevokeMemberResult,
  validateTeamRotateSecretResult,
  validateTeamTransferResult,
  valueOrThrow,
  type WatchHandle,
} from "../../protocol/index.ts";
import { type AdapterLogger, silentLogger } from "../adapter-logger.ts";
import { PrivateFileError, readPrivateFile } from "../private-files.ts";
import {
  type HttpAdapterEnv,
  isValidProfileName,
  resolveConfigDir,
  resolveProfileName,
} from "./config-location.ts";
import { describeHttpAdapter } from "./describe-profile.ts";
import {
  HTTP_ADAPTER_LEASE,
  HTTP_CALL_TIMEOUT_MS,
  WATCH_BACKOFF_MS,
  WATCH_IDLE_TIMEOUT_MS,
} from "./http-adapter-constants.ts";
import { callServer, type ServerRequest, type ServerTransport, segment } from "./http-client.ts";
import { HttpWatch } from "./http-watch.ts";
import { ProfileStore, type StoredCredential, type StoredProfile } from "./profile-store.ts";
import { normalizeServerUrl } from "./server-url.ts";

/** Options of {@link HttpAdapter}. */
export interface HttpAdapterOptions {
  /**
   * Environment (docs/spec/protocol.md §1.5): config dir, profile, and `BRIGADE_SERVER` for
   * first-time setup.
   */
  readonly env: HttpAdapterEnv;
  /** `--profile`; else `BRIGADE_PROFILE`, else `default`. */
  readonly profile?: string | undefined;
  /** `fetch` to use; defaults to Node's global. */
  readonly fetch?: typeof fetch;
  /** Per-call HTTP budget in ms (default 15 000). */
  readonly timeoutMs?: number;
  /** Diagnostics sink (default: silent). */
  readonly logger?: AdapterLogger;
  /** Watch tuning (tests shorten them): silent-stream timeout and reconnect backoff, in ms. */
  readonly watch?: {
    readonly idleTimeoutMs?: number;
    readonly backoff?: { readonly first: number; readonly max: number };
  };
}

/** A bound profile, ready for a team-scoped call. */
interface TeamContext {
  readonly transport: ServerTransport;
  readonly token: string;
  readonly teamRef: string;
  readonly profile: StoredProfile;
  readonly credential: StoredCredential;
}

/**
 * The session/message verbs that need a bound team (docs/spec/protocol.md §3.3: 4 or 11 when
 * unbound).
 */
const TEAM_SCOPED: ReadonlySet<AdapterCommandName> = new Set<AdapterCommandName>([
  "session register",
  "session heartbeat",
  "session list",
  "session close",
  "message send",
  "message receive",
  "message watch",
  "message ack",
  "team members",
  "team rotate-secret",
  "team revoke-member",
  "team transfer",
]);

const credentialMissing = (): BapError => new BapError(unauthenticatedError("credential_missing"));

/**
 * The BAP/1 `Adapter` for `brigade serve` (docs/31-http-adapter.md). Bound to one profile:
 * `profiles/<profile>.json` (server URL, team, principal) and `credentials/<profile>.json` (the
 * bearer token, 0600) under `BRIGADE_CONFIG_DIR`. Errors (all `BapError`):
 * - no usable credential → `unauthenticated` (4), reason `credential_missing`; a credential but no
 *   bound team → `config` (11), reason `no_team_bound`; a world-readable or invalid profile or
 *   credential file, or no server URL → `config`;
 * - network failure, timeout, 5xx → `unavailable`; a malformed server answer → `internal`; any
 *   other server error passes through unchanged.
 * `team create`/`team join` take the server URL from the profile, the join document's
 * `backend.server`, or `BRIGADE_SERVER`, and mint a credential (`POST /v1/principals`) on first use.
 *
 * @example
 * const adapter = new HttpAdapter({ env: process.env });
 * const d = await adapter.describe(); // offline
 */
export class HttpAdapter implements Adapter {
  /** The profile this adapter is bound to. */
  readonly profileName: string;
  readonly #env: HttpAdapterEnv;
  readonly #store: ProfileStore | undefined;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #log: AdapterLogger;
  readonly #watchIdleMs: number;
  readonly #watchBackoff: { readonly first: number; readonly max: number };

  constructor(options: HttpAdapterOptions) {
    this.#env = options.env;
    this.profileName = resolveProfileName(options.profile, options.env);
    const configDir = resolveConfigDir(options.env);
    this.#store =
      configDir !== undefined && isValidProfileName(this.profileName)
        ? new ProfileStore(configDir, this.profileName)
        : undefined;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? HTTP_CALL_TIMEOUT_MS;
    this.#log = options.logger ?? silentLogger();
    this.#watchIdleMs = options.watch?.idleTimeoutMs ?? WATCH_IDLE_TIMEOUT_MS;
    this.#watchBackoff = options.watch?.backoff ?? WATCH_BACKOFF_MS;
  }

  /**
   * The local part of a command's checks (docs/spec/protocol.md §6.16 (a)): run by the process
   * binding before it reads stdin, so a missing credential or team wins over a bad document. Throws
   * a `BapError`.
   */
  checkLocalReady(command: AdapterCommandName): void {
    if (TEAM_SCOPED.has(command)) this.#teamContext();
  }

  async describe(_options?: AdapterCallOptions): Promise<DescribeResult> {
    return describeHttpAdapter(this.#store, this.profileName);
  }

  async sessionRegister(
    registration: SessionRegistration,
    options?: AdapterCallOptions,
  ): Promise<SessionRegistrationResult> {
    const ctx = this.#teamContext();
    const body = valueOrThrow(
      validateSessionRegistration(registration, { lease: HTTP_ADAPTER_LEASE }),
    );
    return this.#call(
      ctx,
      { method: "POST", path: this.#teamPath(ctx, "/sessions"), body },
      validateSessionRegistrationResult,
      options,
    );
  }

  async sessionHeartbeat(
    sessionId: string,
    heartbeat: HeartbeatRequest,
    options?: AdapterCallOptions,
  ): Promise<HeartbeatResult> {
    const ctx = this.#teamContext();
    const body = valueOrThrow(validateHeartbeatRequest(heartbeat, { lease: HTTP_ADAPTER_LEASE }));
    return this.#call(
      ctx,
      { method: "POST", path: this.#sessionPath(ctx, sessionId, "/heartbeat"), body },
      validateHeartbeatResult,
      options,
    );
  }

  async sessionList(options?: SessionListOptions): Promise<SessionListResult> {
    const ctx = this.#teamContext();
    const query: string[] = [];
    if (options?.session !== undefined) query.push(`session=${segment(options.session)}`);
    if (options?.includeOffline === true) query.push("include_offline=1");
    const path = `${this.#teamPath(ctx, "/sessions")}${query.length > 0 ? `?${query.join("&")}` : ""}`;
    return this.#call(ctx, { method: "GET", path }, validateSessionListResult, options);
  }

  async sessionClose(sessionId: string, options?: AdapterCallOptions): Promise<SessionCloseResult> {
    const ctx = this.#teamContext();
    return this.#call(
      ctx,
      { method: "POST", path: this.#sessionPath(ctx, sessionId, "/close") },
      validateSessionCloseResult,
      options,
    );
  }

  async messageSend(request: SendRequest, options?: AdapterCallOptions): Promise<SendResponse> {
    const ctx = this.#teamContext();
    // Forbidden sender members are refused here, before any network call
    // (docs/spec/protocol.md §4.7).
    const body = valueOrThrow(validateSendRequest(request));
    return this.#call(
      ctx,
      { method: "POST", path: this.#teamPath(ctx, "/messages"), body },
      validateSendResponse,
      options,
    );
  }

  async messageReceive(sessionId: string, options?: ReceiveOptions): Promise<ReceiveResult> {
    const ctx = this.#teamContext();
    const limit = options?.limit;
    const query = limit === undefined ? "" : `?limit=${String(limit)}`;
    return this.#call(
      ctx,
      { method: "GET", path: `${this.#sessionPath(ctx, sessionId, "/messages")}${query}` },
      validateReceiveResult,
      options,
    );
  }

  async messageAck(
    sessionId: string,
    request: AckRequest,
    options?: AdapterCallOptions,
  ): Promise<AckResult> {
    const ctx = this.#teamContext();
    const body = valueOrThrow(validateAckRequest(request));
    return this.#call(
      ctx,
      { method: "POST", path: this.#sessionPath(ctx, sessionId, "/ack"), body },
      validateAckResult,
      options,
    );
  }

  messageWatch(sessionId: string, _options?: AdapterCallOptions): WatchHandle {
    return new HttpWatch({
      sessionId,
      target: () => {
        const ctx = this.#teamContext();
        return { baseUrl: ctx.transport.baseUrl, token: ctx.token, teamRef: ctx.teamRef };
      },
      fetch: this.#fetch,
      logger: this.#log.child("http-watch"),
      connectTimeoutMs: this.#timeoutMs,
      idleTimeoutMs: this.#watchIdleMs,
      backoff: this.#watchBackoff,
      ack: (ids) => this.messageAck(sessionId, { message_ids: ids }),
      heartbeat: (changes) => this.sessionHeartbeat(sessionId, changes),
      closeSession: () => this.sessionClose(sessionId),
    });
  }

  async teamCreate(
    request: TeamCreateRequest,
    options?: AdapterCallOptions,
  ): Promise<TeamCreateResult> {
    const store = this.#requireStore();
    const profile = this.#readProfileForSetup(store);
    if (profile.team_ref !== undefined) throw new BapError(conflictError("profile_bound"));
    const body = valueOrThrow(validateTeamCreateRequest(request));
    const operatorKey = this.#readOperatorKey();
    const { baseUrl, result } = await this.#setupAndCall(
      store,
      profile,
      undefined,
      {
        method: "POST",
        path: "/v1/teams",
        body,
        ...(operatorKey === undefined ? {} : { operatorKey }),
      },
      validateTeamCreateResult,
      options,
    );
    this.#bindProfile(store, baseUrl, result, body.human_label);
    this.#log.info("team_created");
    return result;
  }

  async teamJoin(request: TeamJoinRequest, options?: AdapterCallOptions): Promise<TeamJoinResult> {
    const store = this.#requireStore();
    const parsed = valueOrThrow(validateTeamJoinRequest(request));
    const profile = this.#readProfileForSetup(store);
    const secret = parseJoinSecret(parsed.join_secret);
    const secretTeam = secret.ok ? secret.value.teamRef : "";
    // A bound profile may only rejoin its own team; checked locally, before any network call.
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
    const { baseUrl, result } = await this.#setupAndCall(
      store,
      profile,
      backendServer,
      { method: "POST", path: "/v1/teams/join", body },
      validateTeamJoinResult,
      options,
    );
    const label =
      parsed.human_label ??
      (profile.team_ref === result.team_ref ? profile.human_label : undefined);
    this.#bindProfile(store, baseUrl, result, label);
    this.#log.info("team_joined", { rejoined: result.rejoined });
    return result;
  }

  async teamLeave(options?: AdapterCallOptions): Promise<TeamLeaveResult> {
    const store = this.#requireStore();
    const credential = this.#readCredential(store);
    const profile = this.#readProfileForSetup(store);
    if (profile.team_ref === undefined) {
      // Idempotent: the profile already left; answer from what it remembers.
      const principal = credential.principal_ref ?? profile.principal_ref;
      if (profile.left_team_ref === undefined || principal === undefined) {
        throw new BapError(configError("no_team_bound"));
      }
      return { team_ref: profile.left_team_ref, principal_ref: principal, left: true };
    }
    const ctx = this.#teamContext();
    const result = await this.#call(
      ctx,
      { method: "POST", path: this.#teamPath(ctx, "/leave") },
      validateTeamLeaveResult,
      options,
    );
    const unbound: StoredProfile = { left_team_ref: result.team_ref };
    if (profile.server !== undefined) unbound.server = profile.server;
    this.#writeProfile(store, unbound);
    if (credential.principal_ref === undefined) {
      this.#writeCredential(store, { ...credential, principal_ref: result.principal_ref });
    }
    this.#log.info("team_left");
    return result;
  }

  async teamMembers(options?: AdapterCallOptions): Promise<TeamMembersResult> {
    const ctx = this.#teamContext();
    return this.#call(
      ctx,
      { method: "GET", path: this.#teamPath(ctx, "/members") },
      validateTeamMembersResult,
      options,
    );
  }

  async teamRotateSecret(options?: AdapterCallOptions): Promise<TeamRotateSecretResult> {
    const ctx = this.#teamContext();
    const result = await this.#call(
      ctx,
      { method: "POST", path: this.#teamPath(ctx, "/rotate-secret") },
      validateTeamRotateSecretResult,
      options,
    );
    this.#log.info("team_secret_rotated");
    return result;
  }

  async teamRevokeMember(
    target: TeamMemberTarget,
    options?: AdapterCallOptions,
  ): Promise<TeamRevokeMemberResult> {
    const ctx = this.#teamContext();
    const body = valueOrThrow(validateTeamMemberTarget(target));
    return this.#call(
      ctx,
      { method: "POST", path: this.#teamPath(ctx, "/revoke-member"), body },
      validateTeamRevokeMemberResult,
      options,
    );
  }

  async teamTransfer(
    target: TeamMemberTarget,
    options?: AdapterCallOptions,
  ): Promise<TeamTransferResult> {
    const ctx = this.#teamContext();
    const body = valueOrThrow(validateTeamMemberTarget(target));
    return this.#call(
      ctx,
      { method: "POST", path: this.#teamPath(ctx, "/transfer"), body },
      validateTeamTransferResult,
      options,
    );
  }

  #teamPath(ctx: TeamContext, rest: string): string {
    return `/v1/teams/${segment(ctx.teamRef)}${rest}`;
  }

  #sessionPath(ctx: TeamContext, sessionId: string, rest: string): string {
    return `${this.#teamPath(ctx, "/sessions")}/${segment(sessionId)}${rest}`;
  }

  #call<T>(
    ctx: { readonly transport: ServerTransport; readonly token: string },
    request: Omit<ServerRequest, "token" | "signal">,
    validate: (value: unknown) => ValidationResult<T>,
    options: AdapterCallOptions | undefined,
  ): Promise<T> {
    return callServer(
      ctx.transport,
      { ...request, token: ctx.token, signal: options?.signal },
      validate,
    );
  }

  #transport(baseUrl: string): ServerTransport {
    return {
      baseUrl,
      fetch: this.#fetch,
      timeoutMs: this.#timeoutMs,
      logger: this.#log.child("http-client"),
    };
  }

  /**
   * The operator key named by `BRIGADE_OPERATOR_KEY_FILE`, read before any network call, or
   * `undefined` when the variable is unset or empty. A relative path, or a file that is missing,
   * not a private regular file (symlink, FIFO, group/other bits, foreign owner) or does not hold
   * one line of 1–256 printable ASCII characters, is `config`.
   */
  #readOperatorKey(): string | undefined {
    const path = this.#env.BRIGADE_OPERATOR_KEY_FILE;
    if (path === undefined || path === "") return undefined;
    if (!isAbsolute(path)) throw new BapError(configError());
    const file = readPrivateFile(path);
    if (file.kind !== "ok") throw new BapError(configError());
    const key = file.text.trim();
    if (!/^[\x21-\x7e]{1,256}$/.test(key)) throw new BapError(configError());
    return key;
  }

  #requireStore(): ProfileStore {
    if (this.#store === undefined) throw new BapError(configError("profile_missing"));
    return this.#store;
  }

  /** The profile for create/join/leave: missing is `{}`; unsafe or invalid is `config`. */
  #readProfileForSetup(store: ProfileStore): StoredProfile {
    const read = store.readProfile();
    if (read.kind === "missing") return {};
    if (read.kind !== "ok") throw new BapError(configError());
    return read.value;
  }

  /**
   * Only an absent credential is `unauthenticated`: one that exists but is not a private regular
   * file (a symlink, a FIFO, group/other bits, a foreign owner) or does not parse is `config`, so
   * the person fixes the file instead of being told to create a credential over it.
   */
  #readCredential(store: ProfileStore): StoredCredential {
    const read = store.readCredential();
    if (read.kind === "ok") return read.value;
    if (read.kind === "missing") throw credentialMissing();
    throw new BapError(configError());
  }

  /**
   * A bound profile with its credential and server, or the docs/spec/protocol.md §3.3 error (4,
   * then 11).
   */
  #teamContext(): TeamContext {
    const store = this.#store;
    if (store === undefined) {
      if (!isValidProfileName(this.profileName)) throw new BapError(configError());
      throw credentialMissing();
    }
    const profileRead = store.readProfile();
    if (profileRead.kind === "world_readable" || profileRead.kind === "invalid") {
      throw new BapError(configError());
    }
    const credential = this.#readCredential(store);
    if (profileRead.kind === "missing") throw new BapError(configError("profile_missing"));
    const profile = profileRead.value;
    if (profile.team_ref === undefined) throw new BapError(configError("no_team_bound"));
    const server = profile.server === undefined ? undefined : normalizeServerUrl(profile.server);
    if (server === undefined) throw new BapError(configError());
    return {
      transport: this.#transport(server),
      token: credential.token,
      teamRef: profile.team_ref,
      profile,
      credential,
    };
  }

  /**
   * Server and credential for `team create`/`team join`: the server URL from the profile, the
   * join document, or `BRIGADE_SERVER`; a credential minted with `POST /v1/principals` when the
   * profile has none (profile written first, then the token, both 0600). A credential file that
   * exists but is world-readable, unreadable or malformed is `config`, never replaced.
   */
  async #setup(
    store: ProfileStore,
    profile: StoredProfile,
    backendServer: string | undefined,
    options: AdapterCallOptions | undefined,
  ): Promise<{ transport: ServerTransport; token: string; minted: boolean }> {
    const configured = profile.server ?? backendServer ?? this.#env.BRIGADE_SERVER;
    const server =
      configured === undefined || configured === "" ? undefined : normalizeServerUrl(configured);
    if (server === undefined) throw new BapError(configError());
    const transport = this.#transport(server);
    const existing = store.readCredential();
    // Only a missing credential is minted: one that cannot be read or parsed may still be the
    // principal's only token, and writing a new one over it would orphan that membership.
    if (existing.kind === "world_readable" || existing.kind === "invalid") {
      throw new BapError(configError());
    }
    if (existing.kind === "ok") {
      if (profile.server === undefined) this.#writeProfile(store, { ...profile, server });
      return { transport, token: existing.value.token, minted: false };
    }
    return { transport, token: await this.#mint(store, profile, transport, options), minted: true };
  }

  /** Mints a principal, then writes the profile (`server`) and the credential; the new token. */
  async #mint(
    store: ProfileStore,
    profile: StoredProfile,
    transport: ServerTransport,
    options: AdapterCallOptions | undefined,
  ): Promise<string> {
    const minted = await callServer(
      transport,
      { method: "POST", path: "/v1/principals", body: {}, signal: options?.signal },
      validateMintedPrincipal,
    );
    this.#writeProfile(store, { ...profile, server: transport.baseUrl });
    this.#writeCredential(store, { token: minted.token, principal_ref: minted.principal_ref });
    this.#log.info("credential_minted");
    return minted.token;
  }

  /**
   * `team create` / `team join` with {@link #setup}'s credential. When a stored credential is
   * answered `unauthenticated`, the server no longer knows its principal (collected after days
   * without any team, docs/21-service.md, or the server's data was reset): such a principal holds
   * no membership there, so a new one is minted over it and the call is made once more.
   */
  async #setupAndCall<T>(
    store: ProfileStore,
    profile: StoredProfile,
    backendServer: string | undefined,
    request: Omit<ServerRequest, "token" | "signal">,
    validate: (value: unknown) => ValidationResult<T>,
    options: AdapterCallOptions | undefined,
  ): Promise<{ baseUrl: string; result: T }> {
    const setup = await this.#setup(store, profile, backendServer, options);
    const baseUrl = setup.transport.baseUrl;
    try {
      return { baseUrl, result: await this.#call(setup, request, validate, options) };
    } catch (error) {
      if (setup.minted || !(error instanceof BapError) || error.code !== "unauthenticated") {
        throw error;
      }
      this.#log.warn("credential_unknown_to_server");
      const token = await this.#mint(store, profile, setup.transport, options);
      const result = await this.#call({ ...setup, token }, request, validate, options);
      return { baseUrl, result };
    }
  }

  /** Records the team a create or join bound this profile to (the label only when known). */
  #bindProfile(
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
    this.#writeProfile(store, bound);
  }

  #writeProfile(store: ProfileStore, profile: StoredProfile): void {
    try {
      store.writeProfile(profile);
    } catch (error) {
      if (error instanceof PrivateFileError) {
        this.#log.error("profile_write_failed", { reason: error.code });
        throw new BapError(configError(), { cause: error });
      }
      throw error;
    }
  }

  #writeCredential(store: ProfileStore, credential: StoredCredential): void {
    try {
      store.writeCredential(credential);
    } catch (error) {
      if (error instanceof PrivateFileError) {
        this.#log.error("credential_write_failed", { reason: error.code });
        throw new BapError(configError(), { cause: error });
      }
      throw error;
    }
  }
}

/** `POST /v1/principals` result: `{principal_ref, token}`, both non-empty strings. */
function validateMintedPrincipal(
  value: unknown,
): ValidationResult<{ principal_ref: string; token: string }> {
  if (
    isJsonObject(value) &&
    typeof value.principal_ref === "string" &&
    value.principal_ref !== "" &&
    typeof value.token === "string" &&
    value.token !== ""
  ) {
    return { ok: true, value: { principal_ref: value.principal_ref, token: value.token } };
  }
  return { ok: false, error: invalidInputError("token", "invalid_value") };
}
