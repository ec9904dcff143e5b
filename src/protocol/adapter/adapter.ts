import type { JsonObject } from "../encoding/json-value.ts";
import type { AckRequest, AckResult } from "../messages/ack.ts";
import type { BlobDeclaration, BlobUploadResult } from "../messages/blob-transfer.ts";
import type {
  MessageAdoptRequest,
  MessageAdoptResult,
  MessageReportRequest,
  MessageReportResult,
  MessageSentResult,
  MessageStateRequest,
  MessageStateResult,
} from "../messages/message-state.ts";
import type { PersonSendRequest, PersonSentResult } from "../messages/person-message.ts";
import type { ReceiveResult } from "../messages/receive-result.ts";
import type { SendRequest } from "../messages/send-request.ts";
import type { SendResponse } from "../messages/send-response.ts";
import type { HeartbeatRequest, HeartbeatResult } from "../sessions/heartbeat.ts";
import type { SessionCloseResult } from "../sessions/session-close-result.ts";
import type { SessionListResult } from "../sessions/session-list-result.ts";
import type {
  SessionRegistration,
  SessionRegistrationResult,
} from "../sessions/session-registration.ts";
import type {
  TeamAcceptTransferResult,
  TeamMemberTarget,
  TeamRevokeMemberResult,
  TeamRotateSecretResult,
  TeamTransferResult,
  TeamTransferTarget,
} from "../teams/team-admin.ts";
import type { TeamCreateRequest, TeamCreateResult } from "../teams/team-create.ts";
import type {
  TeamInvitationsResult,
  TeamInvitationTarget,
  TeamInviteRequest,
  TeamInviteResult,
  TeamRevokeInviteResult,
} from "../teams/team-invitations.ts";
import type { TeamJoinRequest, TeamJoinResult } from "../teams/team-join.ts";
import type { TeamLabelRequest, TeamLabelResult } from "../teams/team-label.ts";
import type { TeamLeaveResult } from "../teams/team-leave-result.ts";
import type { TeamMembersResult } from "../teams/team-members-result.ts";
import type { WatchCommand } from "../watch/watch-command.ts";
import type { WatchEvent } from "../watch/watch-event.ts";
import type { ConventionResult } from "./convention-result.ts";
import type { DescribeResult } from "./describe-result.ts";
import type { ProfileRotateTokenResult } from "./profile-rotate-token.ts";

/** Per-call options of every {@link Adapter} method. */
export interface AdapterCallOptions {
  /** Cancels the call; the method then rejects with `unavailable`, reason `timeout`. */
  readonly signal?: AbortSignal;
}

/** Options of {@link Adapter.sessionList} (`--session`, `--include-offline`). */
export interface SessionListOptions extends AdapterCallOptions {
  /** Marks this session `is_self: true` in the result. */
  readonly session?: string;
  /** Include offline sessions. */
  readonly includeOffline?: boolean;
}

/** Options of {@link Adapter.messageReceive} (`--limit`). */
export interface ReceiveOptions extends AdapterCallOptions {
  /** 1..200, default 50. */
  readonly limit?: number;
}

/** Options of {@link Adapter.profileInit} (`--force`). */
export interface ProfileInitOptions extends AdapterCallOptions {
  /** Re-initialise a configured profile instead of failing `conflict` `profile_exists`. */
  readonly force?: boolean;
}

/** Options of {@link Adapter.messageDownload}. */
export interface DownloadOptions extends AdapterCallOptions {
  /** Bytes of the blob to skip (a resumed download): 0..size; default 0. */
  readonly offset?: number;
}

/**
 * An open download (capability `message.attachments`, **[ours]**): the blob's digest and whole
 * size, the offset its `body` starts at, and `body`, the bytes from `offset` to the end, read in
 * order. Iterate `body` to the end, or leave the loop early to cancel. The bytes are the
 * server's: the caller checks them against `sha256` before it trusts them.
 */
export interface BlobDownload {
  readonly sha256: string;
  readonly size: number;
  readonly offset: number;
  readonly body: AsyncIterable<Uint8Array>;
}

/**
 * A running `message watch` (docs/spec/protocol.md §5). Iterate it (or `events`) for events:
 * exactly one `ready` first, then `message`, `status`, `acked`, `heartbeat_ok`, `error`. After an
 * `error` event with `retryable: false` the iteration ends (the process binding exits with the
 * code's status). Unknown event kinds never reach the iterator.
 *
 * @example
 * const watch = adapter.messageWatch("s-51d0");
 * for await (const event of watch) {
 *   if (event.event === "message") await watch.send({ type: "ack", message_ids: [event.message.message_id] });
 * }
 */
export interface WatchHandle extends AsyncIterable<WatchEvent> {
  /** The event stream (the same iterator the handle itself yields). */
  readonly events: AsyncIterable<WatchEvent>;
  /**
   * Sends one stdin command (requires `message.watch.stdin_commands`; otherwise rejects with
   * `usage`). Answers arrive as `acked` / `heartbeat_ok` events; `close` closes the session and
   * ends the stream.
   */
  send(command: WatchCommand): Promise<void>;
  /** Ends the watch as stdin EOF would (the session stays open); the stream ends within 5 s. */
  close(): Promise<void>;
}

/**
 * The in-process binding of BAP/1: one method per verb of the command table
 * (docs/spec/protocol.md §4.1), taking and returning the wire shapes and failing (rejecting) with a
 * `BapError` carrying the same error object an adapter process would print. Exit statuses exist
 * only at the process boundary. The adapter instance is bound to one profile. Convention methods
 * are optional: an adapter without the capability leaves them out (`brigade adapter` then answers
 * `usage`).
 *
 * @example
 * const result = await adapter.messageSend({ sender_session_id: "s-2b8e", recipient_session_id: "s-51d0", body: "hi" });
 * result.status === "accepted";
 */
export interface Adapter {
  /** `describe`: offline, no credential, creates nothing, no network, never fails. */
  describe(options?: AdapterCallOptions): Promise<DescribeResult>;

  /** `session register` (resume: `not_found` uniform, `conflict` `session_live`). */
  sessionRegister(
    registration: SessionRegistration,
    options?: AdapterCallOptions,
  ): Promise<SessionRegistrationResult>;
  /** `session heartbeat --session <id>`; closed session → `conflict`. */
  sessionHeartbeat(
    sessionId: string,
    heartbeat: HeartbeatRequest,
    options?: AdapterCallOptions,
  ): Promise<HeartbeatResult>;
  /** `session list [--session <id>] [--include-offline]`; own team only. */
  sessionList(options?: SessionListOptions): Promise<SessionListResult>;
  /** `session close --session <id>`; idempotent. */
  sessionClose(sessionId: string, options?: AdapterCallOptions): Promise<SessionCloseResult>;

  /** `message send` (check order docs/spec/protocol.md §6.16). */
  messageSend(request: SendRequest, options?: AdapterCallOptions): Promise<SendResponse>;
  /** `message receive --session <id> [--limit <n>]`; one-shot, never acks. */
  messageReceive(sessionId: string, options?: ReceiveOptions): Promise<ReceiveResult>;
  /** `message ack --session <id>`; idempotent, unknown ids are `unknown`, never an error. */
  messageAck(
    sessionId: string,
    request: AckRequest,
    options?: AdapterCallOptions,
  ): Promise<AckResult>;
  /** `message watch --session <id>`; failures arrive as `error` events. */
  messageWatch(sessionId: string, options?: AdapterCallOptions): WatchHandle;

  /**
   * `message state --session <sender id>` (cap `message.state`, docs/20-protocol.md): the state of
   * each id this session sent; any other id is `unknown` (no oracle).
   */
  messageState?(
    sessionId: string,
    request: MessageStateRequest,
    options?: AdapterCallOptions,
  ): Promise<MessageStateResult>;
  /** `message sent --session <sender id> [--limit <n>]` (cap `message.state`): newest first. */
  messageSent?(sessionId: string, options?: ReceiveOptions): Promise<MessageSentResult>;
  /**
   * `message person-send` (cap `message.person`, **[ours]**, docs/20-protocol.md "A person's
   * messages"): the caller's principal writes to a session of its team as a person, from no
   * session; the server stamps `sender.kind = "person"`. Check order as `message send` without
   * the sender-session steps; a reused key with another payload is `conflict`.
   */
  messagePersonSend?(
    request: PersonSendRequest,
    options?: AdapterCallOptions,
  ): Promise<SendResponse>;
  /**
   * `message person-sent [--limit <n>]` (cap `message.person`, **[ours]**): the latest messages
   * the caller's principal sent in the team, as a person or from any of its sessions, newest
   * first, each with its state.
   */
  messagePersonSent?(options?: ReceiveOptions): Promise<PersonSentResult>;
  /**
   * `message report --session <recipient id>` (cap `message.state`): the recipient's harness
   * reports messages its policy holds or refuses; anything not unacknowledged and addressed to
   * the session is `unknown`.
   */
  messageReport?(
    sessionId: string,
    request: MessageReportRequest,
    options?: AdapterCallOptions,
  ): Promise<MessageReportResult>;
  /**
   * `message adopt --session <new id>` (cap `message.adopt`): the unacknowledged messages of the
   * caller's own ended sessions in the team move to this session, held for its user.
   */
  messageAdopt?(
    sessionId: string,
    request: MessageAdoptRequest,
    options?: AdapterCallOptions,
  ): Promise<MessageAdoptResult>;

  /**
   * `message upload` (cap `message.attachments`, **[ours]**): streams `bytes` to the team's blob
   * storage under the declared digest and size; the server keeps nothing unless both match
   * (`invalid_input` `digest_mismatch` / `size_mismatch`), and the same bytes again cost no space.
   * Over the per-file cap → `invalid_input` `too_long`; over the team's quota → `rate_limited`
   * `team_storage_full`.
   */
  messageUpload?(
    declared: BlobDeclaration,
    bytes: AsyncIterable<Uint8Array>,
    options?: AdapterCallOptions,
  ): Promise<BlobUploadResult>;
  /**
   * `message download` (cap `message.attachments`, **[ours]**): opens a blob the caller's
   * principal uploaded, or that a message addressed to one of its sessions names; anything else
   * is the uniform `not_found`, byte-identical to a blob that does not exist.
   */
  messageDownload?(sha256: string, options?: DownloadOptions): Promise<BlobDownload>;

  /** `team create` (cap `team.create`); bound profile → `conflict` `profile_bound`. */
  teamCreate?(request: TeamCreateRequest, options?: AdapterCallOptions): Promise<TeamCreateResult>;
  /** `team join` (cap `team.join`); rejected secret → uniform `unauthorized`. */
  teamJoin?(request: TeamJoinRequest, options?: AdapterCallOptions): Promise<TeamJoinResult>;
  /** `team leave` (cap `team.join`); idempotent. */
  teamLeave?(options?: AdapterCallOptions): Promise<TeamLeaveResult>;
  /** `team members` (cap `team.roster`). */
  teamMembers?(options?: AdapterCallOptions): Promise<TeamMembersResult>;
  /**
   * `team rotate-secret` (cap `team.admin`, creator only): a new join secret; the old one stops
   * admitting at once. Another member → `unauthorized` `not_creator`; a non-member → the uniform
   * `unauthorized`.
   */
  teamRotateSecret?(options?: AdapterCallOptions): Promise<TeamRotateSecretResult>;
  /**
   * `team revoke-member` (cap `team.admin`, creator only): closes the member's sessions in the
   * team and bars it from the team for good. Not a member (never, or unknown) → uniform
   * `not_found`; the creator itself → `conflict` `team_creator`; idempotent on a revoked member.
   */
  teamRevokeMember?(
    target: TeamMemberTarget,
    options?: AdapterCallOptions,
  ): Promise<TeamRevokeMemberResult>;
  /**
   * `team transfer` (cap `team.admin`, creator only): offers the team to another **active**
   * member (anyone else → uniform `not_found`); the caller stays the creator until that member
   * accepts. A new offer replaces the last; an offer to the caller itself withdraws it. The offer
   * lapses `expires_in_seconds` after it is made (default and most 604,800: 7 days; out of range
   * → `invalid_input` naming the member).
   */
  teamTransfer?(
    target: TeamTransferTarget,
    options?: AdapterCallOptions,
  ): Promise<TeamTransferResult>;
  /**
   * `team accept-transfer` (cap `team.admin`): the member the team is offered to becomes its
   * creator; the previous creator stays a member. No offer to the caller → uniform `not_found`;
   * a non-member → the uniform `unauthorized`.
   */
  teamAcceptTransfer?(options?: AdapterCallOptions): Promise<TeamAcceptTransferResult>;
  /**
   * `team invite` (cap `team.invitations`, **[ours]**, creator only): a new invitation, a join
   * secret that admits `max_uses` joins (default 1) until `expires_in_seconds` pass (default
   * 86,400). The only verb besides `team create` and `team rotate-secret` whose result carries a
   * secret. Errors: `invalid_input` naming the member out of range; the creator checks of
   * `team rotate-secret`; `rate_limited` `create_invitation`.
   */
  teamInvite?(request: TeamInviteRequest, options?: AdapterCallOptions): Promise<TeamInviteResult>;
  /** `team invitations` (cap `team.invitations`, creator only): the team's invitations, never a secret. */
  teamInvitations?(options?: AdapterCallOptions): Promise<TeamInvitationsResult>;
  /**
   * `team revoke-invite` (cap `team.invitations`, creator only): the invitation admits nobody from
   * then on; idempotent. An id that is not one of the team's invitations → uniform `not_found`.
   */
  teamRevokeInvite?(
    target: TeamInvitationTarget,
    options?: AdapterCallOptions,
  ): Promise<TeamRevokeInviteResult>;
  /** `team label` (cap `team.labels`, **[ours]**): sets the caller's own label in the team. */
  teamLabel?(request: TeamLabelRequest, options?: AdapterCallOptions): Promise<TeamLabelResult>;

  /** `profile init [--force]`; configured profile without `force` → `conflict`. Never a secret. */
  profileInit?(input: JsonObject, options?: ProfileInitOptions): Promise<ConventionResult>;
  /** `profile status`; never a secret. */
  profileStatus?(options?: AdapterCallOptions): Promise<ConventionResult>;
  /** `profile reset`; never a secret. */
  profileReset?(options?: AdapterCallOptions): Promise<ConventionResult>;
  /** `profile revoke-credentials`; never a secret. */
  profileRevokeCredentials?(options?: AdapterCallOptions): Promise<ConventionResult>;
  /**
   * `profile rotate-token` (cap `profile.rotate_token`, **[ours]**): replaces the profile's bearer
   * token with a new one the server mints; the old one is refused from then on. Never a secret
   * in the result. No credential → `unauthenticated` `credential_missing`; a token the server no
   * longer knows → `unauthenticated`.
   */
  profileRotateToken?(options?: AdapterCallOptions): Promise<ProfileRotateTokenResult>;
}
