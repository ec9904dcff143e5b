import {
  type AckRequest,
  type AckResult,
  BapError,
  conflictError,
  digestJoinSecret,
  generateJoinSecret,
  type HeartbeatRequest,
  type HeartbeatResult,
  invalidInputError,
  joinRejectedError,
  type MessageEnvelope,
  notCreatorError,
  notFoundError,
  notMemberError,
  PROTOCOL_LIMITS,
  type ProtocolError,
  parseJoinSecret,
  protocolError,
  type RateLimitedReason,
  type ReceiveResult,
  rateLimitedError,
  type SendRequest,
  type SendResponse,
  type SessionCloseResult,
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
  validateAckRequest,
  validateHeartbeatRequest,
  validateSendRequest,
  validateSessionRegistration,
  validateTeamCreateRequest,
  validateTeamJoinRequest,
  validateTeamMemberTarget,
  verifyJoinSecretDigest,
} from "../protocol/index.ts";
import { PrincipalCache } from "./principal-cache.ts";
import { base64url, sha256Hex } from "./secrets.ts";
import {
  type BackendDescription,
  CAP_RETRY_AFTER_MS,
  describeBackend,
  GC_BATCH_SIZE,
  JOIN_ATTEMPT_LIMIT,
  JOIN_ATTEMPT_WINDOW_MS,
  RECEIVE_LIMIT,
  REGISTER_RATE,
  SERVICE_LEASE,
  SERVICE_RETENTION,
  SESSION_LIST_MAX,
  TEAM_CREATE_RATE,
  UNUSED_PRINCIPAL_RETENTION_MS,
  UNUSED_TEAM_RETENTION_MS,
} from "./service-config.ts";
import type { ServiceDeps } from "./service-deps.ts";
import { systemDeps } from "./service-deps.ts";
import type {
  GarbageCounts,
  MembershipRow,
  MessageRow,
  SessionRow,
  Store,
  StoreTx,
  TeamRow,
  WindowCount,
} from "./store.ts";
import type { WatchListener, WatchSubscription } from "./watch-hub.ts";
import { WatchHub } from "./watch-hub.ts";
import {
  isLive,
  isoTime,
  sessionState,
  toEnvelope,
  toSendResponse,
  toSessionRecord,
} from "./wire-records.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const SECOND_MS = 1000;
/** Longest bearer token `authenticate` looks at; ours are 43 characters. */
const MAX_TOKEN_CHARS = 512;

/** `session list` options: `session_id` marks `is_self` (must be owned); offline only on request. */
export interface SessionListOptions {
  session_id?: string;
  include_offline?: boolean;
}

/** A freshly minted anonymous principal; `token` is shown once and stored only as a digest. */
export interface NewPrincipal {
  principal_ref: string;
  token: string;
}

function fail(error: ProtocolError): never {
  throw new BapError(error);
}

/** Throws `invalid_input` for a bad validation result, else returns the validated value. */
function valid<T>(
  result:
    | { readonly ok: true; readonly value: T }
    | { readonly ok: false; readonly error: ProtocolError },
): T {
  if (!result.ok) fail(result.error);
  return result.value;
}

/** The sliding-window check of spec §6.12: refuse when `limit` messages are already inside. */
function checkWindow(
  count: WindowCount,
  limit: number,
  windowMs: number,
  now: number,
  reason: RateLimitedReason,
): void {
  if (count.count < limit) return;
  const oldest = count.oldest ?? now;
  fail(rateLimitedError(reason, Math.max(1, oldest + windowMs - now)));
}

/** Idempotency fingerprint (spec §6.4): recipient ␀ body ␀ summary ␀ reply_to, absent = empty. */
function fingerprint(
  recipient: string,
  body: string,
  summary: string | null | undefined,
  replyTo: string | null | undefined,
): string {
  return `${recipient}\u0000${body}\u0000${summary ?? ""}\u0000${replyTo ?? ""}`;
}

async function requireMember(
  tx: StoreTx,
  teamRef: string,
  principalRef: string,
): Promise<{ team: TeamRow; membership: MembershipRow }> {
  const team = await tx.getTeam(teamRef);
  const membership = team === null ? null : await tx.getMembership(teamRef, principalRef);
  if (team === null || membership === null || membership.status !== "active")
    fail(notMemberError());
  return { team, membership };
}

/**
 * The team when the caller is its creator. A non-member (or unknown team) gets the uniform
 * `unauthorized` first, so only a member ever learns that the verb is creator-only.
 */
async function requireCreator(
  tx: StoreTx,
  teamRef: string,
  principalRef: string,
): Promise<TeamRow> {
  const { team } = await requireMember(tx, teamRef, principalRef);
  if (team.creator_principal_ref !== principalRef) fail(notCreatorError());
  return team;
}

async function requireOwnedSession(
  tx: StoreTx,
  teamRef: string,
  principalRef: string,
  sessionId: string,
): Promise<SessionRow> {
  const session = await tx.getSession(sessionId);
  if (session === null || session.team_ref !== teamRef || session.principal_ref !== principalRef) {
    fail(notFoundError());
  }
  return session;
}

/**
 * The meaning of BAP/1 on the backend (spec §4, §6, §9, §11): principals, teams, memberships,
 * sessions and leases, messages with idempotency, rate limits, inbox caps and hop counts, acks,
 * watch notifications and retention. All persistence goes through the {@link Store}; the clock, ids
 * and randomness come from {@link ServiceDeps}. Every method fails only with a `BapError` carrying a
 * fixed, value-free message; team-scoped methods take `(principal_ref, team_ref, …)` and fail with
 * the uniform `unauthorized` when the caller is not an active member or the team does not exist,
 * and with the uniform `not_found` for an unknown, foreign-team or not-owned session or message.
 *
 * @example
 * const service = new BrigadeService(openSqliteStore(":memory:"));
 * const { principal_ref } = await service.createPrincipal();
 * const team = await service.createTeam(principal_ref, { team_name: "core" });
 */
export class BrigadeService {
  readonly #store: Store;
  readonly #deps: ServiceDeps;
  readonly #hub = new WatchHub();
  readonly #principals = new PrincipalCache();

  /** `deps` defaults to the wall clock and `node:crypto` randomness. */
  constructor(store: Store, deps: ServiceDeps = systemDeps()) {
    this.#store = store;
    this.#deps = deps;
  }

  /** The backend half of `describe`: limits, lease range, retention, capabilities. Never fails. */
  describeBackend(): BackendDescription {
    return describeBackend();
  }

  /** The service clock as RFC 3339 text (`server_time`). */
  serverTime(): string {
    return isoTime(this.#deps.now());
  }

  // ---------------------------------------------------------------- principals

  /**
   * Mints an anonymous principal and its bearer token (32 random bytes, base64url, 43 characters);
   * only the token's SHA-256 digest is stored.
   */
  async createPrincipal(): Promise<NewPrincipal> {
    const principal_ref = this.#deps.newId("p");
    const token = base64url(this.#deps.randomBytes(32));
    const now = this.#deps.now();
    const token_digest = sha256Hex(token);
    await this.#store.transact((tx) =>
      tx.insertPrincipal({ principal_ref, token_digest, created_at: now }),
    );
    this.#principals.remember(token_digest, principal_ref);
    return { principal_ref, token };
  }

  /**
   * The principal a bearer token belongs to, or `null` (never throws on a bad token). Known
   * principals are answered from an in-memory cache filled only after their row is durable
   * (principals are never re-keyed; the retention sweep clears the cache whenever it deletes
   * one), so a request usually costs no store unit for authentication; unknown tokens always ask
   * the store and are never cached.
   */
  async authenticate(token: string): Promise<string | null> {
    if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_CHARS)
      return null;
    const digest = sha256Hex(token);
    const cached = this.#principals.lookup(digest);
    if (cached !== undefined) return cached;
    const principalRef = await this.#store.transact((tx) => tx.principalByTokenDigest(digest));
    if (principalRef !== null) this.#principals.remember(digest, principalRef);
    return principalRef;
  }

  // ---------------------------------------------------------------- teams

  /**
   * `team create`: a new team with the caller as its first active member (and creator). The join
   * secret `brg1.<team_ref>.<43 base64url chars>` is returned once; only its digest is stored.
   * Errors: `invalid_input` (`team_name` empty or > 64 cp, `human_label` > 128 cp);
   * `rate_limited` `create_team` past {@link TEAM_CREATE_RATE} teams created by the caller in the
   * last hour or day (nothing stored).
   */
  async createTeam(principalRef: string, request: TeamCreateRequest): Promise<TeamCreateResult> {
    const { team_name: teamName, human_label: label } = valid(validateTeamCreateRequest(request));
    const teamRef = this.#deps.newId("t");
    const { secret: joinSecret, digest } = this.#mintSecret(teamRef);
    const now = this.#deps.now();
    await this.#store.transact(async (tx) => {
      for (const [limit, windowMs] of [
        [TEAM_CREATE_RATE.per_hour, HOUR_MS],
        [TEAM_CREATE_RATE.per_day, DAY_MS],
      ] as const) {
        const created = await tx.teamsCreatedSince(principalRef, now - windowMs);
        checkWindow(created, limit, windowMs, now, "create_team");
      }
      await tx.insertTeam({
        team_ref: teamRef,
        team_name: teamName,
        secret_digest: digest,
        creator_principal_ref: principalRef,
        created_at: now,
      });
      await tx.putMembership({
        team_ref: teamRef,
        principal_ref: principalRef,
        human_label: label === undefined || label === "" ? null : label,
        status: "active",
        joined_at: now,
        updated_at: now,
      });
    });
    return {
      team_ref: teamRef,
      team_name: teamName,
      join_secret: joinSecret,
      principal_ref: principalRef,
    };
  }

  /**
   * `team join` (spec §4.10, §9). Check order: malformed secret → `invalid_input`
   * (`field=join_secret`, not counted); `join_attempts` limiter (failed attempts per principal in a
   * sliding window) → `rate_limited`; unknown team, wrong secret, or revoked membership → the one
   * byte-identical `unauthorized` (the failure is recorded). Success creates the membership or
   * re-activates the same one (`rejoined: true`); `human_label` replaces the label when given and is
   * kept when omitted.
   */
  async joinTeam(principalRef: string, request: TeamJoinRequest): Promise<TeamJoinResult> {
    const { parsed_secret: secret, human_label: label } = valid(validateTeamJoinRequest(request));
    const outcome = await this.#store.transact(async (tx): Promise<TeamJoinResult | null> => {
      const now = this.#deps.now();
      const failures = await tx.joinFailuresSince(principalRef, now - JOIN_ATTEMPT_WINDOW_MS);
      checkWindow(failures, JOIN_ATTEMPT_LIMIT, JOIN_ATTEMPT_WINDOW_MS, now, "join_attempts");
      const team = await tx.getTeam(secret.teamRef);
      // Compare against a digest even for an unknown team so both paths do the same work.
      const matches = verifyJoinSecretDigest(
        secret,
        team?.secret_digest ?? digestJoinSecret(secret).replace(/./g, "0"),
      );
      const existing = team === null ? null : await tx.getMembership(team.team_ref, principalRef);
      if (team === null || !matches || existing?.status === "revoked") {
        await tx.recordJoinFailure(principalRef, now);
        return null;
      }
      if (principalRef !== team.creator_principal_ref) await tx.markTeamUsed(team.team_ref, now);
      const humanLabel =
        label === undefined || label === "" ? (existing?.human_label ?? null) : label;
      await tx.putMembership({
        team_ref: team.team_ref,
        principal_ref: principalRef,
        human_label: humanLabel,
        status: "active",
        joined_at: existing?.joined_at ?? now,
        updated_at: now,
      });
      return {
        team_ref: team.team_ref,
        team_name: team.team_name,
        principal_ref: principalRef,
        rejoined: existing !== null,
      };
    });
    if (outcome === null) fail(joinRejectedError());
    return outcome;
  }

  /**
   * `team leave`: revokes the caller's membership, closes its open sessions in the team and ends its
   * watches (`onRevoked`). Idempotent: leaving again succeeds. A principal that never was a member,
   * or an unknown team → uniform `unauthorized`.
   */
  async leaveTeam(principalRef: string, teamRef: string): Promise<TeamLeaveResult> {
    await this.#store.transact(async (tx) => {
      const team = await tx.getTeam(teamRef);
      const membership = team === null ? null : await tx.getMembership(teamRef, principalRef);
      if (membership === null) fail(notMemberError());
      if (membership.status !== "active") return;
      const now = this.#deps.now();
      await tx.putMembership({ ...membership, status: "left", updated_at: now });
      await tx.closeOpenSessions(teamRef, principalRef, now);
    });
    this.#hub.revoke(principalRef, teamRef);
    return { team_ref: teamRef, principal_ref: principalRef, left: true };
  }

  /**
   * `team rotate-secret` (cap `team.admin`): a fresh join secret replaces the team's digest in one
   * unit, so the old secret admits nobody from the moment this resolves (a join racing it sees
   * either the old digest or the new one, never both). Members stay members. Errors: non-member
   * → uniform `unauthorized`; another member → `unauthorized` `not_creator`.
   */
  async rotateSecret(principalRef: string, teamRef: string): Promise<TeamRotateSecretResult> {
    return this.#store.transact(async (tx) => {
      const team = await requireCreator(tx, teamRef, principalRef);
      const { secret, digest } = this.#mintSecret(team.team_ref);
      await tx.updateTeam({ ...team, secret_digest: digest });
      return { team_ref: team.team_ref, team_name: team.team_name, join_secret: secret };
    });
  }

  /**
   * `team revoke-member` (cap `team.admin`): the target's membership becomes `revoked` — its
   * sessions in the team close, its watches end, every team verb answers it the uniform
   * `unauthorized`, and `team join` refuses it with any secret. Messages it already sent stay
   * with their recipients. A `left` member can be revoked (so it cannot come back); revoking a
   * revoked member again succeeds. Errors (after the creator checks of {@link rotateSecret}):
   * `invalid_input` (`principal_ref`); a principal that never was a member → uniform
   * `not_found`; the creator itself → `conflict` `team_creator`.
   */
  async revokeMember(
    principalRef: string,
    teamRef: string,
    target: TeamMemberTarget,
  ): Promise<TeamRevokeMemberResult> {
    const { principal_ref: targetRef } = valid(validateTeamMemberTarget(target));
    await this.#store.transact(async (tx) => {
      const team = await requireCreator(tx, teamRef, principalRef);
      const membership = await tx.getMembership(team.team_ref, targetRef);
      if (membership === null) fail(notFoundError());
      if (targetRef === team.creator_principal_ref) fail(conflictError("team_creator"));
      if (membership.status === "revoked") return;
      const now = this.#deps.now();
      await tx.putMembership({ ...membership, status: "revoked", updated_at: now });
      await tx.closeOpenSessions(team.team_ref, targetRef, now);
    });
    this.#hub.revoke(targetRef, teamRef);
    return { team_ref: teamRef, principal_ref: targetRef, revoked: true };
  }

  /**
   * `team transfer` (cap `team.admin`): makes another **active** member the team's creator; the
   * caller stays an active member without admin rights. Transferring to oneself changes nothing.
   * Errors (after the creator checks of {@link rotateSecret}): `invalid_input`
   * (`principal_ref`); a principal that is not an active member → uniform `not_found`.
   */
  async transferTeam(
    principalRef: string,
    teamRef: string,
    target: TeamMemberTarget,
  ): Promise<TeamTransferResult> {
    const { principal_ref: targetRef } = valid(validateTeamMemberTarget(target));
    return this.#store.transact(async (tx) => {
      const team = await requireCreator(tx, teamRef, principalRef);
      const membership = await tx.getMembership(team.team_ref, targetRef);
      if (membership?.status !== "active") fail(notFoundError());
      await tx.updateTeam({ ...team, creator_principal_ref: targetRef });
      return {
        team_ref: team.team_ref,
        creator_principal_ref: targetRef,
        previous_creator_principal_ref: principalRef,
      };
    });
  }

  /** A new join secret for the team and the digest the store keeps of it. */
  #mintSecret(teamRef: string): { secret: string; digest: string } {
    const secret = generateJoinSecret(teamRef, this.#deps.randomBytes(32));
    const parsed = parseJoinSecret(secret);
    if (!parsed.ok) fail(protocolError("internal"));
    return { secret, digest: digestJoinSecret(parsed.value) };
  }

  /** `team members`: every active member with its roster fields. Non-member → `unauthorized`. */
  async listMembers(principalRef: string, teamRef: string): Promise<TeamMembersResult> {
    return this.#store.transact(async (tx) => {
      const { team } = await requireMember(tx, teamRef, principalRef);
      const now = this.#deps.now();
      const rows = await tx.listActiveMembers(teamRef, now);
      return {
        team_ref: team.team_ref,
        team_name: team.team_name,
        server_time: isoTime(now),
        members: rows.map((row) => ({
          principal_ref: row.principal_ref,
          human_label: row.human_label ?? "",
          status: "active",
          joined_at: isoTime(row.joined_at),
          last_seen_at: row.last_seen_at === null ? null : isoTime(row.last_seen_at),
          session_count: row.live_session_count,
        })),
      };
    });
  }

  // ---------------------------------------------------------------- sessions

  /**
   * `session register` (spec §4.3). Validates first (`invalid_input`, lease outside 30..600 s), then
   * membership (`unauthorized`). With `resume.session_id`: unknown, foreign or not owned →
   * `not_found`; open with a valid lease → `conflict` `session_live` (unchanged); else re-opened in
   * place with the new metadata (`resumed: true`, pending messages kept). Without resume: a new
   * session, limited by `register_session` (30/min, 300/h per principal). A `human_label` fills an
   * empty membership label and never overwrites one.
   */
  async registerSession(
    principalRef: string,
    teamRef: string,
    registration: SessionRegistration,
  ): Promise<SessionRegistrationResult> {
    const request = valid(validateSessionRegistration(registration, { lease: SERVICE_LEASE }));
    const lease = request.lease_seconds ?? SERVICE_LEASE.default_seconds;
    return this.#store.transact(async (tx) => {
      const { membership } = await requireMember(tx, teamRef, principalRef);
      const now = this.#deps.now();
      const resumeId = request.resume?.session_id;
      let row: SessionRow;
      let resumed = false;
      const fields = {
        session_name: request.session_name,
        activity: request.activity,
        inbound: request.inbound,
        session_description:
          request.session_description === "" ? null : (request.session_description ?? null),
        workspace_label: request.workspace_label ?? null,
        model: request.model ?? null,
        context_used_tokens: request.context_used_tokens ?? null,
        brigade_version: request.brigade_version ?? null,
        sync_peer: request.sync_peer ?? null,
        harness: request.harness,
        harness_version: request.harness_version,
        lease_seconds: lease,
        lease_until: now + lease * SECOND_MS,
        last_seen_at: now,
        closed_at: null,
      };
      if (resumeId !== undefined) {
        const existing = await requireOwnedSession(tx, teamRef, principalRef, resumeId);
        if (isLive(existing, now)) fail(conflictError("session_live"));
        row = { ...existing, ...fields };
        await tx.updateSession(row);
        resumed = true;
      } else {
        checkWindow(
          await tx.sessionsCreatedSince(principalRef, now - MINUTE_MS),
          REGISTER_RATE.per_minute,
          MINUTE_MS,
          now,
          "register_session",
        );
        checkWindow(
          await tx.sessionsCreatedSince(principalRef, now - HOUR_MS),
          REGISTER_RATE.per_hour,
          HOUR_MS,
          now,
          "register_session",
        );
        row = {
          session_id: this.#deps.newId("s"),
          team_ref: teamRef,
          principal_ref: principalRef,
          created_at: now,
          ...fields,
        };
        await tx.insertSession(row);
        await tx.markTeamUsed(teamRef, now);
      }
      let label = membership.human_label;
      const offered = request.human_label;
      if ((label === null || label === "") && typeof offered === "string" && offered !== "") {
        label = offered;
        await tx.putMembership({ ...membership, human_label: offered, updated_at: now });
      }
      return {
        ...toSessionRecord(row, label, now, false),
        resumed,
        lease_seconds: lease,
        server_time: isoTime(now),
      };
    });
  }

  /**
   * `session heartbeat` (spec §4.5): renews `lease_until = now + lease` and applies present,
   * non-null members; `session_description: ""` clears it; `model`, `context_used_tokens`,
   * `brigade_version`, `sync_peer` are never cleared. A lapsed (not closed) session is renewed.
   * Errors: `invalid_input`, `unauthorized`, `not_found` (not owned), `conflict` `session_closed`.
   */
  async heartbeatSession(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    heartbeat: HeartbeatRequest,
  ): Promise<HeartbeatResult> {
    const request = valid(validateHeartbeatRequest(heartbeat, { lease: SERVICE_LEASE }));
    return this.#store.transact(async (tx) => {
      await requireMember(tx, teamRef, principalRef);
      const session = await requireOwnedSession(tx, teamRef, principalRef, sessionId);
      if (session.closed_at !== null) fail(conflictError("session_closed"));
      const now = this.#deps.now();
      const row: SessionRow = { ...session };
      if (request.activity != null) row.activity = request.activity;
      if (request.session_name != null) row.session_name = request.session_name;
      if (request.session_description != null) {
        row.session_description =
          request.session_description === "" ? null : request.session_description;
      }
      if (request.inbound != null) row.inbound = request.inbound;
      if (request.lease_seconds != null) row.lease_seconds = request.lease_seconds;
      if (request.model != null) row.model = request.model;
      if (request.context_used_tokens != null)
        row.context_used_tokens = request.context_used_tokens;
      if (request.brigade_version != null) row.brigade_version = request.brigade_version;
      if (request.sync_peer != null) row.sync_peer = request.sync_peer;
      row.lease_until = now + row.lease_seconds * SECOND_MS;
      row.last_seen_at = now;
      await tx.updateSession(row);
      return {
        session_id: row.session_id,
        state: sessionState(row, now),
        lease_until: isoTime(row.lease_until),
        server_time: isoTime(now),
      };
    });
  }

  /**
   * `session list` (spec §4.4): sessions of the team whose owners are active members, oldest first,
   * offline ones only with `include_offline`, at most 500 (`truncated: true` beyond). With
   * `session_id` (must be owned, else `not_found`) that session carries `is_self: true`.
   */
  async listSessions(
    principalRef: string,
    teamRef: string,
    options: SessionListOptions = {},
  ): Promise<SessionListResult> {
    return this.#store.transact(async (tx) => {
      const { team } = await requireMember(tx, teamRef, principalRef);
      const self = options.session_id;
      if (self !== undefined) await requireOwnedSession(tx, teamRef, principalRef, self);
      const now = this.#deps.now();
      const rows = await tx.listTeamSessions(teamRef, {
        now,
        includeOffline: options.include_offline === true,
        limit: SESSION_LIST_MAX + 1,
      });
      const truncated = rows.length > SESSION_LIST_MAX;
      return {
        team_ref: team.team_ref,
        team_name: team.team_name,
        server_time: isoTime(now),
        sessions: rows
          .slice(0, SESSION_LIST_MAX)
          .map((row) => toSessionRecord(row, row.human_label, now, row.session_id === self)),
        truncated,
      };
    });
  }

  /** `session close`: marks the owned session closed (offline at once); idempotent. */
  async closeSession(
    principalRef: string,
    teamRef: string,
    sessionId: string,
  ): Promise<SessionCloseResult> {
    await this.#store.transact(async (tx) => {
      await requireMember(tx, teamRef, principalRef);
      const session = await requireOwnedSession(tx, teamRef, principalRef, sessionId);
      if (session.closed_at === null)
        await tx.updateSession({ ...session, closed_at: this.#deps.now() });
    });
    return { session_id: sessionId, state: "offline" };
  }

  // ---------------------------------------------------------------- messages

  /**
   * `message send` in the check order of spec §6.16: validation (`invalid_input`); (b) membership
   * (`unauthorized`); (c) sender owned and in the team (`not_found`); (d) sender not closed
   * (`conflict` `session_closed`); (e) recipient in the team (`not_found`; closed is fine);
   * (f) idempotency replay (`duplicate: true`, original id/time/hop) or `conflict`
   * `idempotency_key_reused`; (g) hop count (`not_found` bad `reply_to`, `loop_detected` above 32);
   * (h) `send_per_minute`, `send_per_hour`, `principal_per_minute`, `principal_per_hour`;
   * (i) `sender_quota_for_recipient`, then `recipient_inbox_full`; (j) persist, then notify watchers.
   * Resolves only once the message is durable.
   */
  async sendMessage(
    principalRef: string,
    teamRef: string,
    send: SendRequest,
  ): Promise<SendResponse> {
    const request = valid(validateSendRequest(send));
    const { row, duplicate } = await this.#store.transact(async (tx) => {
      const { membership } = await requireMember(tx, teamRef, principalRef);
      const sender = await requireOwnedSession(
        tx,
        teamRef,
        principalRef,
        request.sender_session_id,
      );
      if (sender.closed_at !== null) fail(conflictError("session_closed"));
      const recipient = await tx.getSession(request.recipient_session_id);
      if (recipient === null || recipient.team_ref !== teamRef) fail(notFoundError());
      const key = request.idempotency_key;
      if (key !== undefined) {
        const original = await tx.messageByIdempotencyKey(sender.session_id, key);
        if (original !== null) {
          const same =
            fingerprint(
              original.recipient_session_id,
              original.body,
              original.summary,
              original.reply_to,
            ) ===
            fingerprint(recipient.session_id, request.body, request.summary, request.reply_to);
          if (!same) fail(conflictError("idempotency_key_reused"));
          return { row: original, duplicate: true };
        }
      }
      const now = this.#deps.now();
      const hopCount = await this.#hopCount(
        tx,
        sender.session_id,
        recipient.session_id,
        request.reply_to,
        now,
      );
      const rate = PROTOCOL_LIMITS.send_rate;
      const principalRate = PROTOCOL_LIMITS.principal_send_rate;
      checkWindow(
        await tx.sentBySessionSince(sender.session_id, now - MINUTE_MS),
        rate.per_minute,
        MINUTE_MS,
        now,
        "send_per_minute",
      );
      checkWindow(
        await tx.sentBySessionSince(sender.session_id, now - HOUR_MS),
        rate.per_hour,
        HOUR_MS,
        now,
        "send_per_hour",
      );
      checkWindow(
        await tx.sentByPrincipalSince(principalRef, now - MINUTE_MS),
        principalRate.per_minute,
        MINUTE_MS,
        now,
        "principal_per_minute",
      );
      checkWindow(
        await tx.sentByPrincipalSince(principalRef, now - HOUR_MS),
        principalRate.per_hour,
        HOUR_MS,
        now,
        "principal_per_hour",
      );
      if (
        (await tx.unackedFromTo(sender.session_id, recipient.session_id)) >=
        PROTOCOL_LIMITS.max_unacked_per_sender_recipient
      ) {
        fail(rateLimitedError("sender_quota_for_recipient", CAP_RETRY_AFTER_MS));
      }
      if (
        (await tx.unackedFor(recipient.session_id)) >= PROTOCOL_LIMITS.max_unacked_per_recipient
      ) {
        fail(rateLimitedError("recipient_inbox_full", CAP_RETRY_AFTER_MS));
      }
      const message: MessageRow = {
        message_id: this.#deps.newId("m"),
        team_ref: teamRef,
        sender_principal_ref: principalRef,
        sender_session_id: sender.session_id,
        sender_session_name: sender.session_name,
        sender_human_label: membership.human_label,
        recipient_session_id: recipient.session_id,
        summary: request.summary ?? null,
        body: request.body,
        reply_to: request.reply_to ?? null,
        hop_count: hopCount,
        created_at: now,
        acked_at: null,
        idempotency_key: key ?? null,
      };
      await tx.insertMessage(message);
      return { row: message, duplicate: false };
    });
    if (!duplicate) this.#hub.publish(row.recipient_session_id, [row.message_id]);
    return toSendResponse(row, duplicate);
  }

  /** Spec §6.12 hops: parent + 1 with `reply_to`; else 1 + the implicit reply (600 s) or 0. */
  async #hopCount(
    tx: StoreTx,
    senderId: string,
    recipientId: string,
    replyTo: string | undefined,
    now: number,
  ): Promise<number> {
    let hop: number;
    if (replyTo !== undefined) {
      const parent = await tx.getMessage(replyTo);
      if (parent === null || parent.recipient_session_id !== senderId) fail(notFoundError());
      hop = parent.hop_count + 1;
    } else {
      const windowMs = PROTOCOL_LIMITS.implicit_reply_window_seconds * SECOND_MS;
      const previous = await tx.latestHopCount(recipientId, senderId, now - windowMs);
      hop = previous === null ? 0 : previous + 1;
    }
    if (hop > PROTOCOL_LIMITS.max_hop_count) {
      fail(protocolError("loop_detected", { reason: "max_hop_count" }));
    }
    return hop;
  }

  /**
   * `message receive`: unacknowledged messages addressed to the owned session, oldest first, at
   * most `limit` (1..200, default 50; outside → `invalid_input` `field=limit`). Never acks.
   */
  async receiveMessages(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    limit: number = RECEIVE_LIMIT.default,
  ): Promise<ReceiveResult> {
    if (!Number.isInteger(limit) || limit < 1 || limit > RECEIVE_LIMIT.max) {
      fail(
        invalidInputError("limit", "out_of_range", { min: "1", max: String(RECEIVE_LIMIT.max) }),
      );
    }
    return this.#store.transact(async (tx) => {
      await requireMember(tx, teamRef, principalRef);
      await requireOwnedSession(tx, teamRef, principalRef, sessionId);
      const rows = await tx.listUnacked(sessionId, limit);
      return { messages: rows.map(toEnvelope) };
    });
  }

  /**
   * The envelopes among `messageIds` that are still unacknowledged and addressed to the owned
   * session (for a watch that heard ids from {@link subscribe}); others are silently skipped.
   */
  async fetchMessages(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    messageIds: readonly string[],
  ): Promise<MessageEnvelope[]> {
    return this.#store.transact(async (tx) => {
      await requireMember(tx, teamRef, principalRef);
      await requireOwnedSession(tx, teamRef, principalRef, sessionId);
      const out: MessageEnvelope[] = [];
      for (const id of new Set(messageIds)) {
        const row = await tx.getMessage(id);
        if (row !== null && row.recipient_session_id === sessionId && row.acked_at === null)
          out.push(toEnvelope(row));
      }
      return out;
    });
  }

  /**
   * `message ack` (spec §4.9): ids addressed to the owned session are `acked` (again, if already
   * acked); others are `unknown`. Input order kept, duplicates reported once. Durable on resolve.
   */
  async ackMessages(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    ack: AckRequest,
  ): Promise<AckResult> {
    const request = valid(validateAckRequest(ack));
    return this.#store.transact(async (tx) => {
      await requireMember(tx, teamRef, principalRef);
      await requireOwnedSession(tx, teamRef, principalRef, sessionId);
      const now = this.#deps.now();
      const acked: string[] = [];
      const unknown: string[] = [];
      for (const id of new Set(request.message_ids)) {
        if (await tx.ackMessage(id, sessionId, now)) acked.push(id);
        else unknown.push(id);
      }
      return { acked, unknown };
    });
  }

  /**
   * `message watch` support: checks membership and ownership (same errors as receive), then calls
   * `listener.onMessages(ids)` after each commit that stored messages for the session, and
   * `listener.onRevoked()` when the caller leaves the team. The caller drains pending messages
   * itself (receive) after subscribing, so nothing committed in between is missed.
   */
  async subscribe(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    listener: WatchListener,
  ): Promise<WatchSubscription> {
    await this.#store.transact(async (tx) => {
      await requireMember(tx, teamRef, principalRef);
      await requireOwnedSession(tx, teamRef, principalRef, sessionId);
    });
    return this.#hub.add(sessionId, principalRef, teamRef, listener);
  }

  /** Live watch subscriptions (every {@link subscribe} not yet unsubscribed or revoked). */
  get watchSubscriptionCount(): number {
    return this.#hub.size;
  }

  /**
   * Whether the principal is still an active member of the team (a watch may poll this as a
   * fallback to `onRevoked`).
   */
  async isActiveMember(principalRef: string, teamRef: string): Promise<boolean> {
    return this.#store.transact(async (tx) => {
      const membership = await tx.getMembership(teamRef, principalRef);
      return membership?.status === "active";
    });
  }

  // ---------------------------------------------------------------- retention

  /**
   * Retention sweep (spec §6.9), never earlier than the floors: acked messages 86,400 s after their
   * ack, unacked messages 604,800 s after creation, sessions offline for 604,800 s once no message
   * addressed to them remains, join-failure records after the limiter window; and what was never
   * used (docs/21-service.md): teams older than {@link UNUSED_TEAM_RETENTION_MS} in which no
   * session was ever registered and nobody but the creator ever joined, then principals older
   * than {@link UNUSED_PRINCIPAL_RETENTION_MS} that belong to no team at all. Deletes in batches
   * of `batchSize` rows per kind, one transaction per batch, until a batch comes back short.
   */
  async collectGarbage(
    now: number = this.#deps.now(),
    batchSize: number = GC_BATCH_SIZE,
  ): Promise<GarbageCounts> {
    const total: GarbageCounts = {
      messages: 0,
      sessions: 0,
      join_failures: 0,
      teams: 0,
      principals: 0,
    };
    const bounds = {
      ackedBefore: now - SERVICE_RETENTION.acked_message_seconds * SECOND_MS,
      unackedCreatedBefore: now - SERVICE_RETENTION.unacked_message_seconds * SECOND_MS,
      sessionOfflineBefore: now - SERVICE_RETENTION.closed_session_seconds * SECOND_MS,
      joinFailuresBefore: now - JOIN_ATTEMPT_WINDOW_MS,
      unusedTeamCreatedBefore: now - UNUSED_TEAM_RETENTION_MS,
      unusedPrincipalCreatedBefore: now - UNUSED_PRINCIPAL_RETENTION_MS,
      limit: Math.max(1, Math.floor(batchSize)),
    };
    for (;;) {
      const counts = await this.#store.transact((tx) => tx.collectGarbage(bounds));
      // A deleted principal's token must stop authenticating at once.
      if (counts.principals > 0) this.#principals.clear();
      let more = false;
      for (const kind of [
        "messages",
        "sessions",
        "join_failures",
        "teams",
        "principals",
      ] as const) {
        total[kind] += counts[kind];
        if (counts[kind] >= bounds.limit) more = true;
      }
      if (!more) return total;
    }
  }
}
