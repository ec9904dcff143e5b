import {
  type AckResult,
  type BlobUploadResult,
  DEFAULT_RECEIVE_LIMIT,
  type HeartbeatResult,
  type MessageAdoptResult,
  type MessageEnvelope,
  type MessageReportResult,
  type MessageSentResult,
  type MessageStateResult,
  type PersonSentResult,
  type ReceiveResult,
  type SendResponse,
  type SessionCloseResult,
  type SessionListResult,
  type SessionRegistrationResult,
  type TeamAcceptTransferResult,
  type TeamCreateResult,
  type TeamInvitationsResult,
  type TeamInviteResult,
  type TeamJoinResult,
  type TeamLabelResult,
  type TeamLeaveResult,
  type TeamMembersResult,
  type TeamRevokeInviteResult,
  type TeamRevokeMemberResult,
  type TeamRotateSecretResult,
  type TeamTransferResult,
} from "../protocol/index.ts";
import * as blobs from "./blob-verbs.ts";
import * as dashboard from "./dashboard-verbs.ts";
import * as states from "./message-state-verbs.ts";
import * as messages from "./message-verbs.ts";
import * as persons from "./person-message-verbs.ts";
import { PrincipalCache, SHARED_STORE_PRINCIPAL_MAX_AGE_MS } from "./principal-cache.ts";
import { collectGarbage, type SweepCounts } from "./retention-sweep.ts";
import { base64url, sha256Hex } from "./secrets.ts";
import {
  type AttachmentSettings,
  type BackendDescription,
  DEFAULT_ATTACHMENT_SETTINGS,
  describeBackend,
  GC_BATCH_SIZE,
  REGISTER_RATE,
  TEAM_CREATE_RATE,
  UNUSED_PRINCIPAL_RETENTION_MS,
  UNUSED_TEAM_RETENTION_MS,
} from "./service-config.ts";
import type { ServiceContext } from "./service-context.ts";
import type { ServiceDeps } from "./service-deps.ts";
import { systemDeps } from "./service-deps.ts";
import type { SessionListOptions } from "./session-verbs.ts";
import * as sessions from "./session-verbs.ts";
import type { Store } from "./store.ts";
import * as admin from "./team-admin-verbs.ts";
import * as invitations from "./team-invitation-verbs.ts";
import * as teams from "./team-verbs.ts";
import type { WatchListener, WatchSubscription } from "./watch-hub.ts";
import { WatchHub } from "./watch-hub.ts";
import { isoTime } from "./wire-records.ts";

export type { OpenBlob } from "./blob-verbs.ts";
export type {
  DashboardMessage,
  DashboardView,
  NewWebLogin,
  NewWebSession,
  WebIdentity,
} from "./dashboard-verbs.ts";
export type { SweepCounts } from "./retention-sweep.ts";
export type { SessionListOptions } from "./session-verbs.ts";

/** Options of a {@link BrigadeService} besides its store and deps. */
export interface ServiceOptions {
  /** The attachment limits (`brigade serve --limit`); default {@link DEFAULT_ATTACHMENT_SETTINGS}. */
  readonly attachments?: AttachmentSettings;
}

/** Longest bearer token `authenticate` looks at; ours are 43 characters. */
const MAX_TOKEN_CHARS = 512;

/** A freshly minted anonymous principal; `token` is shown once and stored only as a digest. */
export interface NewPrincipal {
  principal_ref: string;
  token: string;
}

/**
 * The meaning of BAP/1 on the backend (docs/spec/protocol.md §4, §6, §9, §11): principals,
 * teams, memberships, sessions and leases, messages with idempotency, rate limits, inbox caps and
 * hop counts, acks, watch notifications and retention. All persistence goes through the
 * {@link Store}, one transaction per verb; the clock, ids and randomness come from
 * {@link ServiceDeps}. The verbs live by concept in `team-verbs.ts`, `team-admin-verbs.ts`,
 * `session-verbs.ts`, `message-verbs.ts` and `retention-sweep.ts`, and every rate limit in the one
 * table of `rate-rules.ts`; this class composes them and is the contract.
 *
 * Every verb takes its request document as `unknown` and validates it with the protocol's
 * validator first (`invalid_input`, nothing read or stored). Every method fails only with a
 * `BapError` carrying a fixed, value-free message; team-scoped methods take
 * `(principal_ref, team_ref, …)` and fail with the uniform `unauthorized` when the caller is not an
 * active member or the team does not exist, and with the uniform `not_found` for an unknown,
 * foreign-team or not-owned session or message.
 *
 * @example
 * const service = new BrigadeService(openSqliteStore(":memory:"));
 * const { principal_ref } = await service.createPrincipal();
 * const team = await service.createTeam(principal_ref, { team_name: "core" });
 */
export class BrigadeService {
  readonly #ctx: ServiceContext;

  /** `deps` defaults to the wall clock and `node:crypto` randomness. */
  constructor(store: Store, deps: ServiceDeps = systemDeps(), options: ServiceOptions = {}) {
    const hub = new WatchHub();
    // On a store other processes share, they may replace a token: cached answers expire there.
    const principals = new PrincipalCache(
      store.watchFeed === undefined
        ? {}
        : { maxAgeMs: SHARED_STORE_PRINCIPAL_MAX_AGE_MS, now: deps.now },
    );
    const attachments = options.attachments ?? DEFAULT_ATTACHMENT_SETTINGS;
    this.#ctx = { store, deps, hub, principals, attachments };
    store.watchFeed?.attach({
      watchedSessions: () => hub.sessionIds(),
      deliver: (recipient, ids) => hub.publish(recipient, ids),
      revoke: (principalRef, teamRef, asOf) => hub.revoke(principalRef, teamRef, asOf),
      watchedMemberships: () => hub.memberships(),
    });
  }

  /** The backend half of `describe`: limits, lease range, retention, capabilities. Never fails. */
  describeBackend(): BackendDescription {
    return describeBackend(this.#ctx.attachments);
  }

  /** The service clock as RFC 3339 text (`server_time`). */
  serverTime(): string {
    return isoTime(this.#ctx.deps.now());
  }

  // ---------------------------------------------------------------- principals

  /**
   * Mints an anonymous principal and its bearer token (32 random bytes, base64url, 43 characters);
   * only the token's SHA-256 digest is stored.
   */
  async createPrincipal(): Promise<NewPrincipal> {
    const { deps, store, principals } = this.#ctx;
    const principal_ref = deps.newId("p");
    const token = base64url(deps.randomBytes(32));
    const now = deps.now();
    const token_digest = sha256Hex(token);
    await store.transact((tx) =>
      tx.insertPrincipal({ principal_ref, token_digest, created_at: now }),
    );
    principals.remember(token_digest, principal_ref);
    return { principal_ref, token };
  }

  /**
   * `profile rotate-token` **[ours]**: replaces the bearer token `token` belongs to with a new one
   * (minted as by {@link createPrincipal}) and returns it with the principal; the principal,
   * its memberships and its sessions stay. The old token is refused from the moment this resolves
   * in this process, and within {@link SHARED_STORE_PRINCIPAL_MAX_AGE_MS} in every other process
   * sharing the store. The lookup and the replacement are one unit that replaces only the digest
   * it read, so of two rotations racing with one token exactly one wins. `null` (nothing changed)
   * for a token the store does not know, or that lost such a race: the caller answers
   * `unauthenticated`.
   *
   * @example const { token } = (await service.rotateToken(oldToken)) ?? fail();
   */
  async rotateToken(token: string): Promise<NewPrincipal | null> {
    if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_CHARS)
      return null;
    const { deps, store, principals } = this.#ctx;
    const fromDigest = sha256Hex(token);
    const next = base64url(deps.randomBytes(32));
    const toDigest = sha256Hex(next);
    const principalRef = await store.transact(async (tx) => {
      const found = await tx.principalByTokenDigest(fromDigest);
      if (found === null) return null;
      return (await tx.replacePrincipalToken(found, fromDigest, toDigest)) ? found : null;
    });
    principals.forget(fromDigest);
    if (principalRef === null) return null;
    principals.remember(toDigest, principalRef);
    return { principal_ref: principalRef, token: next };
  }

  /**
   * The principal a bearer token belongs to, or `null` (never throws on a bad token). Known
   * principals are answered from an in-memory cache filled only after their row is durable (a
   * token rotation and the retention sweep tell the cache what they replace or delete; on a store
   * other processes share, a cached answer stands for {@link SHARED_STORE_PRINCIPAL_MAX_AGE_MS}),
   * so a request usually costs no store unit for authentication; unknown tokens always ask the
   * store and are never cached.
   *
   * `fresh` asks the store even for a cached principal (and forgets it when the store no longer
   * knows it): for `team create` and `team join`, the only verbs a principal without a membership
   * can use, so the only ones that can meet a principal another process's retention sweep deleted
   * while this process still had it cached (its insert would fail on the foreign key).
   */
  async authenticate(token: string, fresh = false): Promise<string | null> {
    if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_CHARS)
      return null;
    const { store, principals } = this.#ctx;
    const digest = sha256Hex(token);
    const cached = fresh ? undefined : principals.lookup(digest);
    if (cached !== undefined) return cached;
    const principalRef = await store.transact((tx) => tx.principalByTokenDigest(digest));
    if (principalRef !== null) principals.remember(digest, principalRef);
    else principals.forget(digest);
    return principalRef;
  }

  // ---------------------------------------------------------------- teams

  /**
   * `team create` (a `TeamCreateRequest`): a new team with the caller as its first active member
   * (and creator). The join secret `brg1.<team_ref>.<43 base64url chars>` is returned once; only
   * its digest is stored. Errors: `invalid_input` (`team_name` empty or > 64 cp, `human_label` >
   * 128 cp); `rate_limited` `create_team` past {@link TEAM_CREATE_RATE} teams created by the
   * caller in the last hour or day (nothing stored).
   */
  createTeam(principalRef: string, request: unknown): Promise<TeamCreateResult> {
    return teams.createTeam(this.#ctx, principalRef, request);
  }

  /**
   * `team join` (a `TeamJoinRequest`; docs/spec/protocol.md §4.10, §9). Check order: malformed
   * secret → `invalid_input` (`field=join_secret`, not counted); `join_attempts` limiter (failed
   * attempts per principal in a sliding window) → `rate_limited`; unknown team, wrong secret, or
   * revoked membership → the one byte-identical `unauthorized` (the failure is recorded). A secret
   * that is not the team's own may be one of its invitations (cap `team.invitations`): one use is
   * taken, atomically (racing joins never take more than it has); an invitation that was used up,
   * expired or revoked is `unauthorized` with `details.reason` `invitation_used`,
   * `invitation_expired` or `invitation_revoked` (recorded as a failure too); an active member
   * presenting one of the team's invitations rejoins and takes no use. Success creates the
   * membership or re-activates the same one (`rejoined: true`); `human_label` replaces the label
   * when given and is kept when omitted.
   */
  joinTeam(principalRef: string, request: unknown): Promise<TeamJoinResult> {
    return teams.joinTeam(this.#ctx, principalRef, request);
  }

  /**
   * `team leave`: revokes the caller's membership, closes its open sessions in the team and ends its
   * watches (`onRevoked`). Idempotent: leaving again succeeds. A principal that never was a member,
   * or an unknown team → uniform `unauthorized`. The team's creator is refused while another
   * member is active (`conflict` `team_creator`, nothing changes): it hands the team on first
   * ({@link transferTeam}, accepted by the new creator); alone in the team it may leave.
   */
  leaveTeam(principalRef: string, teamRef: string): Promise<TeamLeaveResult> {
    return teams.leaveTeam(this.#ctx, principalRef, teamRef);
  }

  /**
   * `team rotate-secret` (cap `team.admin`): a fresh join secret replaces the team's digest in one
   * unit, so the old secret admits nobody from the moment this resolves (a join racing it sees
   * either the old digest or the new one, never both). Members stay members. Errors: non-member
   * → uniform `unauthorized`; another member → `unauthorized` `not_creator`. Every active
   * invitation of the team is revoked in the same unit (`invitations_revoked` counts them): after
   * a rotation nothing handed out before it admits anyone.
   */
  rotateSecret(principalRef: string, teamRef: string): Promise<TeamRotateSecretResult> {
    return admin.rotateSecret(this.#ctx, principalRef, teamRef);
  }

  /**
   * `team revoke-member` (cap `team.admin`; `target` a `TeamMemberTarget`): the target's
   * membership becomes `revoked` — its sessions in the team close, its watches end, every team
   * verb answers it the uniform `unauthorized`, and `team join` refuses it with any secret.
   * Messages it already sent stay with their recipients. A `left` member can be revoked (so it
   * cannot come back); revoking a revoked member again succeeds. Errors: `invalid_input`
   * (`principal_ref`, checked first), then the creator checks of {@link rotateSecret}; a
   * principal that never was a member → uniform `not_found`; the creator itself → `conflict`
   * `team_creator`.
   */
  revokeMember(
    principalRef: string,
    teamRef: string,
    target: unknown,
  ): Promise<TeamRevokeMemberResult> {
    return admin.revokeMember(this.#ctx, principalRef, teamRef, target);
  }

  /**
   * `team transfer` (cap `team.admin`; `target` a `TeamTransferTarget`): offers the team to
   * another **active** member; the caller stays the creator until that member accepts it
   * ({@link acceptTransfer}). A new offer replaces the one that stands (with a new end); an offer
   * to the caller itself withdraws it (`offered_to_principal_ref: null`, `expires_at: null`). An
   * offer lapses `expires_in_seconds` after it is made (default and most 604,800: 7 days; the
   * result's `expires_at`), and when its member leaves or is revoked. Errors: `invalid_input`
   * (`principal_ref`, `expires_in_seconds`, checked first), then the creator checks of
   * {@link rotateSecret}; a principal that is not an active member → uniform `not_found`.
   */
  transferTeam(
    principalRef: string,
    teamRef: string,
    target: unknown,
  ): Promise<TeamTransferResult> {
    return admin.transferTeam(this.#ctx, principalRef, teamRef, target);
  }

  /**
   * `team accept-transfer` (cap `team.admin`): the member the team is offered to becomes its
   * creator, in one unit with the offer's end; the previous creator stays an active member
   * without admin rights. Errors: a non-member → uniform `unauthorized`; a member the team is not
   * offered to → uniform `not_found` (nothing changes); the member of an offer past its
   * `expires_at` → `unauthorized` `transfer_offer_expired`, and the lapsed offer is cleared (a
   * second try is the uniform `not_found`).
   */
  acceptTransfer(principalRef: string, teamRef: string): Promise<TeamAcceptTransferResult> {
    return admin.acceptTransfer(this.#ctx, principalRef, teamRef);
  }

  /**
   * `team invite` (cap `team.invitations`; `request` a `TeamInviteRequest`): a new invitation of
   * the team, minted like a join secret and stored only as its digest, admitting `max_uses` joins
   * (default 1, at most 100) until `expires_in_seconds` pass (default 86,400, at most 604,800).
   * Errors: `invalid_input` naming the member out of range (checked first); then the creator
   * checks of {@link rotateSecret}; then `rate_limited` `create_invitation` (100 per team in any
   * 24 hours, `retry_after_ms` until the oldest leaves the window).
   */
  createInvitation(
    principalRef: string,
    teamRef: string,
    request: unknown,
  ): Promise<TeamInviteResult> {
    return invitations.createInvitation(this.#ctx, principalRef, teamRef, request);
  }

  /**
   * `team invitations` (cap `team.invitations`): the team's invitations newest first, at most 200
   * (`truncated` beyond), each with its state at the server's clock; never a secret. Ended ones
   * stay listed for 7 days. Errors: the creator checks of {@link rotateSecret}.
   */
  listInvitations(principalRef: string, teamRef: string): Promise<TeamInvitationsResult> {
    return invitations.listInvitations(this.#ctx, principalRef, teamRef);
  }

  /**
   * `team revoke-invite` (cap `team.invitations`; `target` a `TeamInvitationTarget`): an active
   * invitation admits nobody from then on; one that already ended keeps its state (the answer
   * says which). Errors: `invalid_input` (`invitation_id`), the creator checks of
   * {@link rotateSecret}, an id that is not one of the team's invitations → uniform `not_found`.
   */
  revokeInvitation(
    principalRef: string,
    teamRef: string,
    target: unknown,
  ): Promise<TeamRevokeInviteResult> {
    return invitations.revokeInvitation(this.#ctx, principalRef, teamRef, target);
  }

  /**
   * `team label` (cap `team.labels`; `request` a `TeamLabelRequest`): the caller's own label in
   * the team becomes `human_label` (1..128 code points, stored as given; every reader cleans it).
   * Messages sent afterwards carry it; earlier ones keep the label they were stamped with.
   * Errors: `invalid_input` naming `human_label`; a non-member → uniform `unauthorized`.
   */
  setLabel(principalRef: string, teamRef: string, request: unknown): Promise<TeamLabelResult> {
    return teams.setLabel(this.#ctx, principalRef, teamRef, request);
  }

  /**
   * `team members`: every active member with its roster fields, and (cap `team.labels`) the
   * team's `creator_principal_ref`. Non-member → `unauthorized`.
   */
  listMembers(principalRef: string, teamRef: string): Promise<TeamMembersResult> {
    return teams.listMembers(this.#ctx, principalRef, teamRef);
  }

  /**
   * Whether the principal is still an active member of the team (a watch may poll this as a
   * fallback to `onRevoked`).
   */
  isActiveMember(principalRef: string, teamRef: string): Promise<boolean> {
    return teams.isActiveMember(this.#ctx, principalRef, teamRef);
  }

  // ---------------------------------------------------------------- sessions

  /**
   * `session register` (a `SessionRegistration`; docs/spec/protocol.md §4.3). Validates first
   * (`invalid_input`, lease outside 30..600 s), then membership (`unauthorized`). With
   * `resume.session_id`: unknown, foreign or not owned → `not_found`; open with a valid lease →
   * `conflict` `session_live` (unchanged); else re-opened in place with the new metadata
   * (`resumed: true`, pending messages kept). Without resume: a new session, limited by
   * `register_session` ({@link REGISTER_RATE} per principal). A `human_label` fills an empty
   * membership label and never overwrites one.
   */
  registerSession(
    principalRef: string,
    teamRef: string,
    registration: unknown,
  ): Promise<SessionRegistrationResult> {
    return sessions.registerSession(this.#ctx, principalRef, teamRef, registration);
  }

  /**
   * `session heartbeat` (a `HeartbeatRequest`; docs/spec/protocol.md §4.5): renews
   * `lease_until = now + lease` and applies present, non-null members; `session_description: ""`
   * clears it; `model`, `context_used_tokens`, `brigade_version`, `sync_peer` are never cleared. A
   * lapsed (not closed) session is renewed. Errors: `invalid_input`, `unauthorized`, `not_found`
   * (not owned), `conflict` `session_closed`.
   */
  heartbeatSession(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    heartbeat: unknown,
  ): Promise<HeartbeatResult> {
    return sessions.heartbeatSession(this.#ctx, principalRef, teamRef, sessionId, heartbeat);
  }

  /**
   * `session list` (docs/spec/protocol.md §4.4): sessions of the team whose owners are active
   * members, oldest first, offline ones only with `include_offline`, at most 500
   * (`truncated: true` beyond). With `session_id` (must be owned, else `not_found`) that session
   * carries `is_self: true`.
   */
  listSessions(
    principalRef: string,
    teamRef: string,
    options: SessionListOptions = {},
  ): Promise<SessionListResult> {
    return sessions.listSessions(this.#ctx, principalRef, teamRef, options);
  }

  /** `session close`: marks the owned session closed (offline at once); idempotent. */
  closeSession(
    principalRef: string,
    teamRef: string,
    sessionId: string,
  ): Promise<SessionCloseResult> {
    return sessions.closeSession(this.#ctx, principalRef, teamRef, sessionId);
  }

  // ---------------------------------------------------------------- messages

  /**
   * `message send` (a `SendRequest`) in the check order of docs/spec/protocol.md §6.16:
   * validation (`invalid_input`); (b) membership (`unauthorized`); (c) sender owned and in the
   * team (`not_found`); (d) sender not closed (`conflict` `session_closed`); (e) recipient in the
   * team (`not_found`; closed is fine); (f) idempotency replay (`duplicate: true`, original
   * id/time/hop) or `conflict` `idempotency_key_reused`; (g) hop count (`not_found` bad
   * `reply_to`, `loop_detected` above 32); (h) `send_per_minute`, `send_per_hour`,
   * `principal_per_minute`, `principal_per_hour`; (i) `sender_quota_for_recipient`, then
   * `recipient_inbox_full` — (h) and (i) are the `message_send` rows of `RATE_RULES`, in this
   * order; (j) persist, then notify watchers. Resolves only once the message is durable.
   */
  sendMessage(principalRef: string, teamRef: string, send: unknown): Promise<SendResponse> {
    return messages.sendMessage(this.#ctx, principalRef, teamRef, send);
  }

  /**
   * `message receive`: unacknowledged messages addressed to the owned session, oldest first, at
   * most `limit` (1..200, default 50; outside → `invalid_input` `field=limit`). Never acks.
   */
  receiveMessages(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    limit: number = DEFAULT_RECEIVE_LIMIT,
  ): Promise<ReceiveResult> {
    return messages.receiveMessages(this.#ctx, principalRef, teamRef, sessionId, limit);
  }

  /**
   * The envelopes among `messageIds` that are still unacknowledged and addressed to the owned
   * session (for a watch that heard ids from {@link subscribe}); others are silently skipped.
   */
  fetchMessages(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    messageIds: readonly string[],
  ): Promise<MessageEnvelope[]> {
    return messages.fetchMessages(this.#ctx, principalRef, teamRef, sessionId, messageIds);
  }

  /**
   * `message ack` (an `AckRequest`; docs/spec/protocol.md §4.9): ids addressed to the owned
   * session are `acked` (again, if already acked); others are `unknown`. Input order kept,
   * duplicates reported once. Durable on resolve. At most `ACK_IDS_MAX` (1,000) ids, else
   * `invalid_input` `out_of_range` on `message_ids` before anything is read or changed.
   */
  ackMessages(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    ack: unknown,
  ): Promise<AckResult> {
    return messages.ackMessages(this.#ctx, principalRef, teamRef, sessionId, ack);
  }

  /**
   * `message state` (capability `message.state`, docs/20-protocol.md): the state of each id the
   * owned sender session sent; every other id (another session's, unknown) is `unknown`, so only
   * the sender's principal ever reads a state. Ids: 1..200 (`invalid_input` otherwise).
   */
  messageState(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    request: unknown,
  ): Promise<MessageStateResult> {
    return states.messageState(this.#ctx, principalRef, teamRef, sessionId, request);
  }

  /**
   * `message sent` (capability `message.state`): the owned session's latest `limit` sent messages
   * (1..200, default 50), newest first, with their states.
   */
  messageSent(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    limit: number = DEFAULT_RECEIVE_LIMIT,
  ): Promise<MessageSentResult> {
    return states.messageSent(this.#ctx, principalRef, teamRef, sessionId, limit);
  }

  /**
   * `message person-send` **[ours]** (capability `message.person`, `send` a
   * `PersonSendRequest`): the caller's principal writes to a session of the team as a person,
   * from no session; the envelope's sender is stamped `kind: "person"`. Errors as `message send`
   * (`unauthorized`, `not_found`, `conflict` `idempotency_key_reused`, `rate_limited`,
   * `invalid_input` with `forbidden_member` for `sender_session_id` and `reply_to`).
   */
  personSend(principalRef: string, teamRef: string, send: unknown): Promise<SendResponse> {
    return persons.personSend(this.#ctx, principalRef, teamRef, send);
  }

  /**
   * `message person-sent` **[ours]** (capability `message.person`): the caller's latest `limit`
   * (1..200, default 50) messages in the team, as a person or from any of its sessions, newest
   * first, with their states.
   */
  personSent(
    principalRef: string,
    teamRef: string,
    limit: number = DEFAULT_RECEIVE_LIMIT,
  ): Promise<PersonSentResult> {
    return persons.personSent(this.#ctx, principalRef, teamRef, limit);
  }

  /**
   * `message report` (capability `message.state`): the owned recipient session's harness reports
   * `held` or `refused` for unacknowledged messages addressed to it; others are `unknown`.
   */
  messageReport(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    request: unknown,
  ): Promise<MessageReportResult> {
    return states.messageReport(this.#ctx, principalRef, teamRef, sessionId, request);
  }

  /**
   * `message adopt` (capability `message.adopt`): the unacknowledged messages of the caller's own
   * ended sessions in the team (named in the request) move to the owned, open session, held for
   * its user, as many as its inbox has room for. Other named sessions are skipped silently; a
   * closed target is `conflict` `session_closed`.
   */
  adoptMessages(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    request: unknown,
  ): Promise<MessageAdoptResult> {
    return states.adoptMessages(this.#ctx, principalRef, teamRef, sessionId, request);
  }

  /**
   * `message watch` support: checks membership and ownership (same errors as receive), then calls
   * `listener.onMessages(ids)` after each commit that stored messages for the session, and
   * `listener.onRevoked()` when the caller leaves the team. The caller drains pending messages
   * itself (receive) after subscribing, so nothing committed in between is missed.
   */
  subscribe(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    listener: WatchListener,
  ): Promise<WatchSubscription> {
    return messages.subscribe(this.#ctx, principalRef, teamRef, sessionId, listener);
  }

  /** Live watch subscriptions (every {@link subscribe} not yet unsubscribed or revoked). */
  get watchSubscriptionCount(): number {
    return this.#ctx.hub.size;
  }

  // ---------------------------------------------------------------- blobs

  /**
   * `message upload` **[ours]** (capability `message.attachments`): stores `bytes` as the team's
   * blob declared by `declaration` (`{sha256, size}`), streamed, a chunk at a time. Errors in
   * order: `invalid_input` (a bad declaration; `too_long` on `size` over the per-file limit),
   * `unauthorized`, `rate_limited` `team_storage_full` (the bytes would take the team past its
   * quota; the same bytes already stored cost nothing and are never refused for it) — all before
   * a byte is read; then `invalid_input` `size_mismatch` (more bytes than declared stop the read
   * at once) or `digest_mismatch`; nothing of a refused upload is kept. The same bytes again cost
   * no space; every upload makes its caller an uploader of the blob.
   */
  uploadBlob(
    principalRef: string,
    teamRef: string,
    declaration: unknown,
    bytes: AsyncIterable<Uint8Array>,
  ): Promise<BlobUploadResult> {
    return blobs.uploadBlob(this.#ctx, principalRef, teamRef, declaration, bytes);
  }

  /**
   * `message download` **[ours]**: opens the bytes `[offset, offset + length)` (`length` absent:
   * to the end) of a blob the caller uploaded, or that a message addressed to one of its sessions
   * names. `unauthorized` for a non-member; the uniform `not_found` for every other blob (unknown,
   * another team's, not the caller's to read); `invalid_input` `out_of_range` on `offset` past the
   * end. The body reads the store a chunk at a time.
   */
  openBlob(
    principalRef: string,
    teamRef: string,
    sha256: string,
    offset = 0,
    length?: number,
  ): Promise<blobs.OpenBlob> {
    return blobs.openBlob(this.#ctx, principalRef, teamRef, sha256, offset, length);
  }

  // ---------------------------------------------------------------- retention

  // ---------------------------------------------------------------- the dashboard

  /**
   * A one-time dashboard login link for the caller in the team (docs/52-dashboard.md): its secret
   * (32 random bytes, base64url, shown once; only its digest is stored) and when it stops
   * admitting (5 minutes). Errors: the uniform `unauthorized`; `rate_limited` `dashboard_login`.
   */
  createWebLogin(principalRef: string, teamRef: string): Promise<dashboard.NewWebLogin> {
    return dashboard.createWebLogin(this.#ctx, principalRef, teamRef);
  }

  /**
   * Exchanges a login link's secret for a browser session (12 hours); the link is used up at once,
   * on every process of a shared store. `null` for a secret that is unknown, used, expired, or
   * whose person is no longer an active member. Never throws on a bad secret.
   */
  redeemWebLogin(loginSecret: string): Promise<dashboard.NewWebSession | null> {
    return dashboard.redeemWebLogin(this.#ctx, loginSecret);
  }

  /** Who a browser session's cookie secret signs in, or `null` (unknown, ended, expired, left). */
  webIdentity(sessionSecret: string): Promise<dashboard.WebIdentity | null> {
    return dashboard.webIdentity(this.#ctx, sessionSecret);
  }

  /** Signs a browser session out; nothing for one unknown or ended. */
  endWebSession(sessionSecret: string): Promise<void> {
    return dashboard.endWebSession(this.#ctx, sessionSecret);
  }

  /**
   * The person's dashboard view: members, sessions (offline too), and the person's own sent and
   * received messages with states and bodies, at most 100 of each. Errors: uniform `unauthorized`.
   */
  dashboardView(principalRef: string, teamRef: string): Promise<dashboard.DashboardView> {
    return dashboard.dashboardView(this.#ctx, principalRef, teamRef);
  }

  /**
   * Releases or refuses a held message addressed to one of the caller's own live sessions.
   * Errors: uniform `unauthorized`; uniform `not_found` for any other message.
   */
  decideHeld(
    principalRef: string,
    teamRef: string,
    messageId: string,
    decision: "release" | "refuse",
  ): Promise<void> {
    return dashboard.decideHeld(this.#ctx, principalRef, teamRef, messageId, decision);
  }

  /**
   * Retention sweep (docs/spec/protocol.md §6.9), never earlier than the floors: acked messages
   * 86,400 s after their ack, unacked messages 604,800 s after creation, sessions offline for
   * 604,800 s once no message addressed to them remains, join-failure records after the limiter
   * window; and what was never used (docs/21-service.md): teams older than
   * {@link UNUSED_TEAM_RETENTION_MS} in which no session was ever registered and nobody but the
   * creator ever joined, then principals older than {@link UNUSED_PRINCIPAL_RETENTION_MS} that
   * belong to no team at all. Deletes in batches of `batchSize` rows per kind, one transaction per
   * batch, until a batch comes back short. Then the blobs (capability `message.attachments`) that
   * no retained message names and that nobody uploaded for `UNNAMED_BLOB_RETENTION_MS`, and the
   * remains of uploads that never finished (`STALE_BLOB_CONTENT_MS`).
   */
  collectGarbage(
    now: number = this.#ctx.deps.now(),
    batchSize: number = GC_BATCH_SIZE,
  ): Promise<SweepCounts> {
    return collectGarbage(this.#ctx, now, batchSize);
  }
}
