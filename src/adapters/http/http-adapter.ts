import {
  type AckRequest,
  type AckResult,
  type Adapter,
  type AdapterCallOptions,
  type AdapterCommandName,
  type BlobDeclaration,
  type BlobDownload,
  type BlobUploadResult,
  type DashboardLoginResult,
  type DescribeResult,
  type DownloadOptions,
  type HeartbeatRequest,
  type HeartbeatResult,
  type MessageAdoptRequest,
  type MessageAdoptResult,
  type MessageReportRequest,
  type MessageReportResult,
  type MessageSentResult,
  type MessageStateRequest,
  type MessageStateResult,
  type PersonSendRequest,
  type PersonSentResult,
  type ProfileRotateTokenResult,
  type ReceiveOptions,
  type ReceiveResult,
  type SendRequest,
  type SendResponse,
  type SessionCloseResult,
  type SessionListOptions,
  type SessionListResult,
  type SessionRegistration,
  type SessionRegistrationResult,
  type TeamAcceptTransferResult,
  type TeamCreateRequest,
  type TeamCreateResult,
  type TeamInvitationsResult,
  type TeamInvitationTarget,
  type TeamInviteRequest,
  type TeamInviteResult,
  type TeamJoinRequest,
  type TeamJoinResult,
  type TeamLabelRequest,
  type TeamLabelResult,
  type TeamLeaveResult,
  type TeamMembersResult,
  type TeamMemberTarget,
  type TeamRevokeInviteResult,
  type TeamRevokeMemberResult,
  type TeamRotateSecretResult,
  type TeamTransferResult,
  type TeamTransferTarget,
  type ValidationResult,
  validateAckRequest,
  validateAckResult,
  validateDashboardLoginResult,
  validateHeartbeatRequest,
  validateHeartbeatResult,
  validateMessageAdoptRequest,
  validateMessageAdoptResult,
  validateMessageReportRequest,
  validateMessageReportResult,
  validateMessageSentResult,
  validateMessageStateRequest,
  validateMessageStateResult,
  validatePersonSendRequest,
  validatePersonSentResult,
  validateReceiveResult,
  validateSendRequest,
  validateSendResponse,
  validateSessionCloseResult,
  validateSessionListResult,
  validateSessionRegistration,
  validateSessionRegistrationResult,
  validateTeamAcceptTransferResult,
  validateTeamInvitationsResult,
  validateTeamInvitationTarget,
  validateTeamInviteRequest,
  validateTeamInviteResult,
  validateTeamLabelRequest,
  validateTeamLabelResult,
  validateTeamMembersResult,
  validateTeamMemberTarget,
  validateTeamRevokeInviteResult,
  validateTeamRevokeMemberResult,
  validateTeamRotateSecretResult,
  validateTeamTransferResult,
  validateTeamTransferTarget,
  valueOrThrow,
  type WatchHandle,
} from "../../protocol/index.ts";
import { openBlobDownload, uploadBlob } from "./blob-transfer.ts";
import { describeHttpAdapter } from "./describe-profile.ts";
import { HTTP_ADAPTER_LEASE } from "./http-adapter-constants.ts";
import {
  type HttpAdapterOptions,
  type HttpAdapterRuntime,
  resolveHttpAdapterRuntime,
} from "./http-adapter-options.ts";
import { segment } from "./http-client.ts";
import { HttpWatch } from "./http-watch.ts";
import {
  callTarget,
  readTeamContext,
  sessionPath,
  TEAM_SCOPED,
  type TeamContext,
  teamPath,
  type UnsignedRequest,
} from "./team-context.ts";
import { createTeam, joinTeam, leaveTeam } from "./team-membership.ts";
import { rotateToken } from "./token-rotation.ts";

export type { HttpAdapterOptions } from "./http-adapter-options.ts";

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
  readonly #runtime: HttpAdapterRuntime;

  constructor(options: HttpAdapterOptions) {
    this.#runtime = resolveHttpAdapterRuntime(options);
    this.profileName = this.#runtime.profileName;
  }

  /**
   * The local part of a command's checks (docs/spec/protocol.md §6.16 (a)): run by the process
   * binding before it reads stdin, so a missing credential or team wins over a bad document. Throws
   * a `BapError`.
   */
  checkLocalReady(command: AdapterCommandName): void {
    if (TEAM_SCOPED.has(command)) readTeamContext(this.#runtime);
  }

  async describe(_options?: AdapterCallOptions): Promise<DescribeResult> {
    return describeHttpAdapter(this.#runtime.store, this.profileName);
  }

  async sessionRegister(
    registration: SessionRegistration,
    options?: AdapterCallOptions,
  ): Promise<SessionRegistrationResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(
      validateSessionRegistration(registration, { lease: HTTP_ADAPTER_LEASE }),
    );
    return callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/sessions"), body },
      validateSessionRegistrationResult,
      options,
    );
  }

  async sessionHeartbeat(
    sessionId: string,
    heartbeat: HeartbeatRequest,
    options?: AdapterCallOptions,
  ): Promise<HeartbeatResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateHeartbeatRequest(heartbeat, { lease: HTTP_ADAPTER_LEASE }));
    return callTarget(
      ctx,
      { method: "POST", path: sessionPath(ctx, sessionId, "/heartbeat"), body },
      validateHeartbeatResult,
      options,
    );
  }

  async sessionList(options?: SessionListOptions): Promise<SessionListResult> {
    const ctx = readTeamContext(this.#runtime);
    const query: string[] = [];
    if (options?.session !== undefined) query.push(`session=${segment(options.session)}`);
    if (options?.includeOffline === true) query.push("include_offline=1");
    const path = `${teamPath(ctx, "/sessions")}${query.length > 0 ? `?${query.join("&")}` : ""}`;
    return callTarget(ctx, { method: "GET", path }, validateSessionListResult, options);
  }

  async sessionClose(sessionId: string, options?: AdapterCallOptions): Promise<SessionCloseResult> {
    return this.#teamCall(
      (ctx) => ({ method: "POST", path: sessionPath(ctx, sessionId, "/close") }),
      validateSessionCloseResult,
      options,
    );
  }

  async messageSend(request: SendRequest, options?: AdapterCallOptions): Promise<SendResponse> {
    const ctx = readTeamContext(this.#runtime);
    // Forbidden sender members are refused here, before any network call
    // (docs/spec/protocol.md §4.7).
    const body = valueOrThrow(validateSendRequest(request));
    return callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/messages"), body },
      validateSendResponse,
      options,
    );
  }

  /**
   * `message person-send` (capability `message.person`): a message from the caller's principal
   * as a person; the request is checked (forbidden members first) before any network call.
   */
  async messagePersonSend(
    request: PersonSendRequest,
    options?: AdapterCallOptions,
  ): Promise<SendResponse> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validatePersonSendRequest(request));
    return callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/person-messages"), body },
      validateSendResponse,
      options,
    );
  }

  /** `message person-sent` (capability `message.person`): the principal's latest sent messages. */
  async messagePersonSent(options?: ReceiveOptions): Promise<PersonSentResult> {
    const limit = options?.limit;
    const query = limit === undefined ? "" : `?limit=${String(limit)}`;
    return this.#teamCall(
      (ctx) => ({ method: "GET", path: `${teamPath(ctx, "/person-sent")}${query}` }),
      validatePersonSentResult,
      options,
    );
  }

  /**
   * `message upload` (capability `message.attachments`): streams `bytes` to the server under the
   * declared digest and size (`blob-transfer.ts`); a declaration over the protocol's limits is
   * refused before any network call.
   */
  async messageUpload(
    declared: BlobDeclaration,
    bytes: AsyncIterable<Uint8Array>,
    options?: AdapterCallOptions,
  ): Promise<BlobUploadResult> {
    const ctx = readTeamContext(this.#runtime);
    return uploadBlob(ctx, declared, bytes, options?.signal);
  }

  /**
   * `message download` (capability `message.attachments`): opens a blob the caller may read,
   * from `options.offset` (a resumed download). The caller checks the bytes against `sha256`.
   */
  async messageDownload(sha256: string, options?: DownloadOptions): Promise<BlobDownload> {
    const ctx = readTeamContext(this.#runtime);
    return openBlobDownload(ctx, sha256, options?.offset ?? 0, options?.signal);
  }

  /**
   * `message receive`. Like the watch, it keeps only messages addressed to `sessionId` and no more
   * than `limit` of them: what a broken or hostile server adds beyond that is dropped (logged
   * `receive_messages_dropped` with the counts, never the values) and, being unacknowledged, is
   * the server's to offer again.
   */
  async messageReceive(sessionId: string, options?: ReceiveOptions): Promise<ReceiveResult> {
    const limit = options?.limit;
    const query = limit === undefined ? "" : `?limit=${String(limit)}`;
    const received = await this.#teamCall(
      (ctx) => ({ method: "GET", path: `${sessionPath(ctx, sessionId, "/messages")}${query}` }),
      validateReceiveResult,
      options,
    );
    const mine = received.messages.filter((m) => m.recipient_session_id === sessionId);
    const kept = limit === undefined ? mine : mine.slice(0, limit);
    if (kept.length === received.messages.length) return received;
    this.#runtime.log.error("receive_messages_dropped", {
      foreign: received.messages.length - mine.length,
      over_limit: mine.length - kept.length,
    });
    return { ...received, messages: kept };
  }

  async messageAck(
    sessionId: string,
    request: AckRequest,
    options?: AdapterCallOptions,
  ): Promise<AckResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateAckRequest(request));
    return callTarget(
      ctx,
      { method: "POST", path: sessionPath(ctx, sessionId, "/ack"), body },
      validateAckResult,
      options,
    );
  }

  async messageState(
    sessionId: string,
    request: MessageStateRequest,
    options?: AdapterCallOptions,
  ): Promise<MessageStateResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateMessageStateRequest(request));
    return callTarget(
      ctx,
      { method: "POST", path: sessionPath(ctx, sessionId, "/message-states"), body },
      validateMessageStateResult,
      options,
    );
  }

  async messageSent(sessionId: string, options?: ReceiveOptions): Promise<MessageSentResult> {
    const limit = options?.limit;
    const query = limit === undefined ? "" : `?limit=${String(limit)}`;
    return this.#teamCall(
      (ctx) => ({ method: "GET", path: `${sessionPath(ctx, sessionId, "/sent")}${query}` }),
      validateMessageSentResult,
      options,
    );
  }

  async messageReport(
    sessionId: string,
    request: MessageReportRequest,
    options?: AdapterCallOptions,
  ): Promise<MessageReportResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateMessageReportRequest(request));
    return callTarget(
      ctx,
      { method: "POST", path: sessionPath(ctx, sessionId, "/report"), body },
      validateMessageReportResult,
      options,
    );
  }

  async messageAdopt(
    sessionId: string,
    request: MessageAdoptRequest,
    options?: AdapterCallOptions,
  ): Promise<MessageAdoptResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateMessageAdoptRequest(request));
    return callTarget(
      ctx,
      { method: "POST", path: sessionPath(ctx, sessionId, "/adopt"), body },
      validateMessageAdoptResult,
      options,
    );
  }

  messageWatch(sessionId: string, _options?: AdapterCallOptions): WatchHandle {
    const runtime = this.#runtime;
    return new HttpWatch({
      sessionId,
      target: () => {
        const ctx = readTeamContext(runtime);
        return { baseUrl: ctx.transport.baseUrl, token: ctx.token, teamRef: ctx.teamRef };
      },
      fetch: runtime.fetch,
      logger: runtime.log.child("http-watch"),
      connectTimeoutMs: runtime.timeoutMs,
      idleTimeoutMs: runtime.watchIdleMs,
      backoff: runtime.watchBackoff,
      ack: (ids) => this.messageAck(sessionId, { message_ids: ids }),
      heartbeat: (changes) => this.sessionHeartbeat(sessionId, changes),
      closeSession: () => this.sessionClose(sessionId),
    });
  }

  async teamCreate(
    request: TeamCreateRequest,
    options?: AdapterCallOptions,
  ): Promise<TeamCreateResult> {
    return createTeam(this.#runtime, request, options);
  }

  async teamJoin(request: TeamJoinRequest, options?: AdapterCallOptions): Promise<TeamJoinResult> {
    return joinTeam(this.#runtime, request, options);
  }

  async teamLeave(options?: AdapterCallOptions): Promise<TeamLeaveResult> {
    return leaveTeam(this.#runtime, options);
  }

  async teamMembers(options?: AdapterCallOptions): Promise<TeamMembersResult> {
    return this.#teamCall(
      (ctx) => ({ method: "GET", path: teamPath(ctx, "/members") }),
      validateTeamMembersResult,
      options,
    );
  }

  async teamRotateSecret(options?: AdapterCallOptions): Promise<TeamRotateSecretResult> {
    const result = await this.#teamCall(
      (ctx) => ({ method: "POST", path: teamPath(ctx, "/rotate-secret") }),
      validateTeamRotateSecretResult,
      options,
    );
    this.#runtime.log.info("team_secret_rotated");
    return result;
  }

  async teamRevokeMember(
    target: TeamMemberTarget,
    options?: AdapterCallOptions,
  ): Promise<TeamRevokeMemberResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateTeamMemberTarget(target));
    return callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/revoke-member"), body },
      validateTeamRevokeMemberResult,
      options,
    );
  }

  async teamTransfer(
    target: TeamTransferTarget,
    options?: AdapterCallOptions,
  ): Promise<TeamTransferResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateTeamTransferTarget(target));
    return callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/transfer"), body },
      validateTeamTransferResult,
      options,
    );
  }

  async teamInvite(
    request: TeamInviteRequest,
    options?: AdapterCallOptions,
  ): Promise<TeamInviteResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateTeamInviteRequest(request));
    const result = await callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/invitations"), body },
      validateTeamInviteResult,
      options,
    );
    this.#runtime.log.info("team_invitation_created");
    return result;
  }

  async teamInvitations(options?: AdapterCallOptions): Promise<TeamInvitationsResult> {
    return this.#teamCall(
      (ctx) => ({ method: "GET", path: teamPath(ctx, "/invitations") }),
      validateTeamInvitationsResult,
      options,
    );
  }

  async teamRevokeInvite(
    target: TeamInvitationTarget,
    options?: AdapterCallOptions,
  ): Promise<TeamRevokeInviteResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateTeamInvitationTarget(target));
    return callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/invitations/revoke"), body },
      validateTeamRevokeInviteResult,
      options,
    );
  }

  async teamLabel(
    request: TeamLabelRequest,
    options?: AdapterCallOptions,
  ): Promise<TeamLabelResult> {
    const ctx = readTeamContext(this.#runtime);
    const body = valueOrThrow(validateTeamLabelRequest(request));
    return callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/label"), body },
      validateTeamLabelResult,
      options,
    );
  }

  /**
   * A one-time dashboard login link for the profile's person **[ours]** (`POST
   * /v1/teams/:team/dashboard-login`, docs/52-dashboard.md); not a BAP/1 verb, so only this
   * adapter has it. The link's secret is in `login_path`: print it to the person, never log it.
   */
  async dashboardLogin(options?: AdapterCallOptions): Promise<DashboardLoginResult> {
    const ctx = readTeamContext(this.#runtime);
    return callTarget(
      ctx,
      { method: "POST", path: teamPath(ctx, "/dashboard-login") },
      validateDashboardLoginResult,
      options,
    );
  }

  async profileRotateToken(options?: AdapterCallOptions): Promise<ProfileRotateTokenResult> {
    return rotateToken(this.#runtime, options);
  }

  async teamAcceptTransfer(options?: AdapterCallOptions): Promise<TeamAcceptTransferResult> {
    return this.#teamCall(
      (ctx) => ({ method: "POST", path: teamPath(ctx, "/accept-transfer") }),
      validateTeamAcceptTransferResult,
      options,
    );
  }

  /** A team-scoped call without a request body to check: context first, then the request. */
  #teamCall<T>(
    request: (ctx: TeamContext) => UnsignedRequest,
    validate: (value: unknown) => ValidationResult<T>,
    options: AdapterCallOptions | undefined,
  ): Promise<T> {
    const ctx = readTeamContext(this.#runtime);
    return callTarget(ctx, request(ctx), validate, options);
  }
}
