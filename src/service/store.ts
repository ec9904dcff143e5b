import type { MessageAttachment, RateLimitedReason } from "../protocol/index.ts";
import type { WatchedMemberships } from "./watch-hub.ts";

/**
 * The service's only persistence port. Every read and write happens inside a unit of work passed to
 * {@link Store.transact}; a store runs each unit atomically (all of its writes or none) and resolves
 * the unit's promise only once its writes are durable. Row times are integer milliseconds since the
 * Unix epoch. Methods are asynchronous so a networked store (PostgreSQL) can implement the same port.
 */

/** A principal: an authenticated caller, known only by the SHA-256 digest (hex) of its bearer token. */
export interface PrincipalRow {
  principal_ref: string;
  token_digest: string;
  created_at: number;
}

/** A team; `secret_digest` is the hex SHA-256 of the join secret's secret half. */
export interface TeamRow {
  team_ref: string;
  team_name: string;
  secret_digest: string;
  creator_principal_ref: string;
  /**
   * The member the creator offered the team to (`team transfer`), who becomes the creator by
   * accepting it; `null` while no offer stands.
   */
  offered_to_principal_ref: string | null;
  /**
   * When the standing offer lapses (ms; `team transfer` makes it 7 days unless asked for less):
   * from then on it is no offer and `team accept-transfer` clears it. `null` exactly when
   * `offered_to_principal_ref` is.
   */
  offer_expires_at: number | null;
  created_at: number;
}

/**
 * An invitation to a team (capability `team.invitations`, docs/20-protocol.md "Invitations"): a
 * join secret of its own that admits at most `max_uses` joins until `expires_at`, unless revoked.
 * Only the digest of the secret is stored (`digestJoinSecret`: `sha256:` + hex of the whole
 * `brg1.<team_ref>.<secret>`). Times in ms.
 */
export interface InvitationRow {
  invitation_id: string;
  team_ref: string;
  secret_digest: string;
  /** The principal that made it (the team's creator at the time). */
  created_by: string;
  max_uses: number;
  /** Joins it admitted; never above `max_uses`. */
  uses: number;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  /** When it was revoked (by its creator or a secret rotation), `null` unless it was. */
  revoked_at: number | null;
}

/** Membership states: `active` members act; `left` may rejoin; `revoked` (by an admin) may not. */
export const MEMBERSHIP_STATUSES = ["active", "left", "revoked"] as const;
/** One of {@link MEMBERSHIP_STATUSES}. */
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** One principal's membership of one team (at most one row per pair; a rejoin reuses it). */
export interface MembershipRow {
  team_ref: string;
  principal_ref: string;
  human_label: string | null;
  status: MembershipStatus;
  joined_at: number;
  updated_at: number;
}

/** An active member with the roster aggregates over its sessions in the team. */
export interface MemberSummaryRow {
  principal_ref: string;
  human_label: string | null;
  joined_at: number;
  /** Latest `last_seen_at` over the member's sessions in the team, `null` when it has none. */
  last_seen_at: number | null;
  /** Sessions of the member in the team that are open with a valid lease at the given time. */
  live_session_count: number;
}

/** A session as stored; `closed_at` is `null` while open. */
export interface SessionRow {
  session_id: string;
  team_ref: string;
  principal_ref: string;
  session_name: string;
  activity: "busy" | "idle";
  inbound: "accept" | "hold" | "refuse";
  session_description: string | null;
  workspace_label: string | null;
  model: string | null;
  context_used_tokens: number | null;
  brigade_version: string | null;
  sync_peer: string | null;
  /** `"yes"`, a `NOT_LIVE_REASONS` code, or `null` while the harness never said (docs/20). */
  live_delivery: string | null;
  /**
   * When a request last said `live_delivery` (ms since the epoch), `null` while none did: a `yes`
   * older than `liveReportMaxAgeMs` of the lease is reported as `watcher_silent` (docs/20).
   */
  live_delivery_at: number | null;
  harness: string;
  harness_version: string;
  lease_seconds: number;
  lease_until: number;
  last_seen_at: number;
  created_at: number;
  closed_at: number | null;
}

/** A session row joined with its owner's membership label (for `session list`). */
export interface SessionListRow extends SessionRow {
  human_label: string | null;
}

/** A message as stored; sender identity is stamped at send time and kept even if the sender goes. */
export interface MessageRow {
  message_id: string;
  team_ref: string;
  sender_principal_ref: string;
  sender_session_id: string;
  sender_session_name: string;
  sender_human_label: string | null;
  recipient_session_id: string;
  summary: string | null;
  body: string;
  reply_to: string | null;
  hop_count: number;
  created_at: number;
  acked_at: number | null;
  idempotency_key: string | null;
  /**
   * The blobs the message names (capability `message.attachments`), in the sender's order;
   * absent when none. A store keeps them with the message and, for each, a link the blob's
   * access check and retention read (`blobNamedFor`, `collectBlobs`).
   */
  attachments?: readonly MessageAttachment[];
}

/** What a recipient's harness reported of a message: its policy holds or refuses it. */
export type MessageDisposition = "held" | "refused";

/**
 * A sent message as its sender's `message state` / `message sent` reads it (capability
 * `message.state`): the message's delivery columns and its current recipient session's end.
 */
export interface SentMessageRow {
  message_id: string;
  /** The session the message is addressed to now (the adopting session after `message adopt`). */
  recipient_session_id: string;
  /** The session it was sent to when another session adopted it since, else `null`. */
  sent_to_session_id: string | null;
  summary: string | null;
  created_at: number;
  acked_at: number | null;
  /** The last report of the recipient's harness, `null` when none. */
  disposition: MessageDisposition | null;
  /** When `disposition` was first reported (ms), `null` when none. */
  disposition_at: number | null;
  /** When the recipient's person released it from the dashboard (ms), `null` while not. */
  released_at: number | null;
  /** `closed_at` of the current recipient session. */
  recipient_closed_at: number | null;
  /** `lease_until` of the current recipient session. */
  recipient_lease_until: number;
  /**
   * The message's `attachments` column (capability `message.attachments`): the JSON text of the
   * files it names (`attachmentsColumn`), `null` when none.
   */
  attachments: string | null;
}

/** A {@link SentMessageRow} with the id it was sent from (the principal's ref for a person's). */
export interface PrincipalSentRow extends SentMessageRow {
  sender_session_id: string;
}

/**
 * What changed of a message after it was sent, as a copy between stores carries it
 * (`brigade migrate-store`): the first recipient when another session adopted it, the last
 * report of its recipient's harness, and when its person released it.
 */
export type MessageStateColumns = Pick<
  SentMessageRow,
  "sent_to_session_id" | "disposition" | "disposition_at" | "released_at"
>;

/**
 * A message as its person reads it on the dashboard (docs/52-dashboard.md): the sender's or a
 * recipient's own message, with its delivery columns, both ends' people and the body. Only
 * {@link StoreTx.personMessages} returns it, and only to a principal that sent the message or
 * owns the session it is addressed to now.
 */
export interface PersonMessageRow extends Omit<SentMessageRow, "attachments"> {
  sender_principal_ref: string;
  sender_session_id: string;
  sender_session_name: string;
  sender_human_label: string | null;
  /** The owner of the session the message is addressed to now. */
  recipient_principal_ref: string;
  recipient_session_name: string;
  body: string;
  /** The blobs the message names, in the sender's order; absent when none. */
  attachments?: readonly MessageAttachment[];
}

/**
 * A one-time dashboard login link as stored (docs/52-dashboard.md): only the SHA-256 digest (hex)
 * of its secret, the person and team it signs into, and whether it was used. Times in ms.
 */
export interface WebLoginRow {
  login_digest: string;
  principal_ref: string;
  team_ref: string;
  created_at: number;
  expires_at: number;
  /** When the link was exchanged for a session, `null` while unused. */
  used_at: number | null;
}

/**
 * A dashboard browser session as stored: the SHA-256 digest (hex) of its cookie's secret, the
 * person and team, and when it ends (expiry, or `ended_at` at sign-out). Times in ms.
 */
export interface WebSessionRow {
  session_digest: string;
  principal_ref: string;
  team_ref: string;
  created_at: number;
  expires_at: number;
  /** When its person signed out, `null` while not. */
  ended_at: number | null;
}

/** Which sent messages {@link StoreTx.sentMessages} returns. */
export type SentMessagesQuery =
  /** The session's latest `limit` messages, newest first (by insertion). */
  | { readonly limit: number }
  /** These ids, among the session's own messages (others are left out), in any order. */
  | { readonly messageIds: readonly string[] };

/** Count of rows inside a sliding window and the oldest counted time (`null` when none). */
export interface WindowCount {
  count: number;
  oldest: number | null;
}

/** Bounds for one retention sweep batch (all times in ms; rows at or before a bound may go). */
export interface GarbageBounds {
  /** Acked messages whose `acked_at` ≤ this go. */
  ackedBefore: number;
  /** Unacked messages whose `created_at` ≤ this go. */
  unackedCreatedBefore: number;
  /** Sessions offline (closed or lease ended) at or before this, with no message left addressed to them, go. */
  sessionOfflineBefore: number;
  /** Join-failure records at or before this go. */
  joinFailuresBefore: number;
  /**
   * Invitations that ended (revoked, past `expires_at`, or every use taken at `last_used_at`) at
   * or before this go.
   */
  invitationEndedBefore: number;
  /**
   * Teams never used (no session ever registered, no member ever joined besides the creator)
   * created at or before this go, with their creator's membership.
   */
  unusedTeamCreatedBefore: number;
  /** Principals with no membership of any status and no team, created at or before this, go. */
  unusedPrincipalCreatedBefore: number;
  /** Most rows of one kind deleted by one call. */
  limit: number;
}

/**
 * The bytes of one upload (capability `message.attachments`): a reservation made before the first
 * byte is stored (it counts against the team's quota at once), then its chunks. A blob row names
 * the content once the upload verified; a content no blob names is an upload in progress, or one
 * that failed or was cut off, and the sweep removes it after `staleContentBefore`.
 */
export interface BlobContentRow {
  /** Opaque id (`c-<20 hex>`). */
  content_id: string;
  team_ref: string;
  /** The digest the upload declared (64 lowercase hex). */
  sha256: string;
  /** The size the upload declared, in bytes. */
  size: number;
  created_at: number;
}

/** A verified blob of a team: one row per `(team_ref, sha256)`, naming its content. */
export interface BlobRow {
  team_ref: string;
  sha256: string;
  size: number;
  content_id: string;
  created_at: number;
}

/** A principal that uploaded a blob (proved it holds the bytes), and when it last did. */
export interface BlobUploaderRow {
  principal_ref: string;
  uploaded_at: number;
}

/** Bounds of one blob sweep batch (ms; rows at or before a bound may go). */
export interface BlobGarbageBounds {
  /** Blobs no message names whose every upload is at or before this go, with their content. */
  unnamedUploadedBefore: number;
  /** Contents no blob names (uploads that never finished) created at or before this go. */
  staleContentBefore: number;
  /** Most blobs, and most stale contents, deleted by one call. */
  limit: number;
}

/** Rows deleted by one sweep batch, per kind. */
export interface GarbageCounts {
  messages: number;
  sessions: number;
  join_failures: number;
  invitations: number;
  teams: number;
  principals: number;
}

/**
 * Operations available inside one unit of work. A unit must await only these methods (never a
 * timer or network call): a store may hold a database transaction open for the unit's duration.
 */
export interface StoreTx {
  /**
   * Holds the team's lock until the unit ends: every unit that reads a membership or the team's
   * admin columns and then writes one of them (join, leave, revoke, transfer, rotate, a
   * registration that fills the member's label) takes it first, so two such units of one team
   * run one after the other and none writes over what the other decided (a revocation undone by a
   * join or a leave that read the membership before it). Taken before any principal lock (the
   * rate-rule counts): team, then principal, so two units never wait on each other. A store that
   * runs one unit at a time (SQLite) has nothing to do.
   */
  lockTeam(teamRef: string): Promise<void>;

  /**
   * Holds, until the unit ends, the locks a store's own {@link Store.sendMessage} takes before it
   * decides a send (the sender's principal, then the recipient session), so a send decided over
   * the unit's methods (`sendInTx`) and one decided by the store itself never both take the last
   * slot of a budget or cap. A store that runs one unit at a time (SQLite) has nothing to do.
   */
  lockSend(principalRef: string, recipientSessionId: string): Promise<void>;

  insertPrincipal(row: PrincipalRow): Promise<void>;
  /** The principal whose token digest is `tokenDigest`, or `null`. */
  principalByTokenDigest(tokenDigest: string): Promise<string | null>;
  /**
   * Replaces the token digest of `principalRef` with `toDigest`, only while it is still
   * `fromDigest` as committed when the write runs (so of two rotations racing with one token,
   * exactly one wins). True when replaced.
   */
  replacePrincipalToken(
    principalRef: string,
    fromDigest: string,
    toDigest: string,
  ): Promise<boolean>;

  insertTeam(row: TeamRow): Promise<void>;
  getTeam(teamRef: string): Promise<TeamRow | null>;
  /**
   * Records that the team is in use (a session registered, or a member besides the creator
   * joined) at `at`; a team already marked keeps its first time. Used teams are never collected.
   */
  markTeamUsed(teamRef: string, at: number): Promise<void>;
  /** Teams whose creator is the principal with `created_at` > `since`. */
  teamsCreatedSince(principalRef: string, since: number): Promise<WindowCount>;
  /**
   * Replaces the admin columns (`secret_digest`, `creator_principal_ref`,
   * `offered_to_principal_ref`, `offer_expires_at`) of the existing team `row.team_ref`; its name and creation time
   * never change.
   */
  updateTeam(row: TeamRow): Promise<void>;

  getMembership(teamRef: string, principalRef: string): Promise<MembershipRow | null>;
  /** Inserts or replaces the membership row of `(team_ref, principal_ref)`. */
  putMembership(row: MembershipRow): Promise<void>;
  /** Active members, ordered by `joined_at` then `principal_ref`; liveness judged at `now`. */
  listActiveMembers(teamRef: string, now: number): Promise<MemberSummaryRow[]>;

  /** Stores a new invitation (its `invitation_id` and `secret_digest` are unique). */
  insertInvitation(row: InvitationRow): Promise<void>;
  /** The team's invitation whose secret digest is `secretDigest`, or `null`. */
  invitationByDigest(teamRef: string, secretDigest: string): Promise<InvitationRow | null>;
  /** The team's invitation `invitationId`, or `null` (another team's is `null` too). */
  getInvitation(teamRef: string, invitationId: string): Promise<InvitationRow | null>;
  /**
   * Takes one use of the invitation at `now`, in one conditional write that sees the row as
   * committed when it runs (not as the unit read it): only while it is not revoked, `now` is before
   * `expires_at` and `uses < max_uses`. So of joins racing for its last use, on any number of
   * server processes, exactly one gets it. True when a use was taken.
   */
  useInvitation(invitationId: string, now: number): Promise<boolean>;
  /**
   * Revokes the invitation at `now` while it is still active (not revoked, not expired, uses
   * left), as committed when the write runs; true when it was.
   */
  revokeInvitation(invitationId: string, now: number): Promise<boolean>;
  /** Revokes every active invitation of the team at `now` (a secret rotation); how many. */
  revokeActiveInvitations(teamRef: string, now: number): Promise<number>;
  /** The team's invitations, newest first (ties in insertion order, newest first), at most `limit`. */
  listInvitations(teamRef: string, limit: number): Promise<InvitationRow[]>;
  /** Invitations of the team with `created_at` > `since`. */
  invitationsCreatedSince(teamRef: string, since: number): Promise<WindowCount>;

  recordJoinFailure(principalRef: string, at: number): Promise<void>;
  /** Join failures of the principal with time > `since`. */
  joinFailuresSince(principalRef: string, since: number): Promise<WindowCount>;

  insertSession(row: SessionRow): Promise<void>;
  getSession(sessionId: string): Promise<SessionRow | null>;
  /**
   * Holds the session row's write lock until the unit ends, so a unit that reads the row, changes
   * some members and writes it whole (a heartbeat) cannot overwrite a concurrent one's members
   * with what it read before that one committed: the second waits and reads afresh. A missing row
   * locks nothing. A store that runs its units one at a time does nothing.
   */
  lockSessionRow(sessionId: string): Promise<void>;
  /** Replaces every column of the existing row with `row.session_id`. */
  updateSession(row: SessionRow): Promise<void>;
  /**
   * {@link updateSession}, but only while the stored row is open (`closed_at` null) as committed
   * when the write runs, not as the unit read it: a close (or a revocation or leave closing the
   * member's sessions) that committed after the unit's read wins. `false` when nothing was written
   * because the session is closed.
   */
  updateOpenSession(row: SessionRow): Promise<boolean>;
  /**
   * Sessions of the team whose owner is an active member, oldest first (ties in insertion order), at most `limit` rows;
   * without `includeOffline` only open sessions with `lease_until ≥ now`.
   */
  listTeamSessions(
    teamRef: string,
    options: { now: number; includeOffline: boolean; limit: number },
  ): Promise<SessionListRow[]>;
  /** Closes (sets `closed_at = now`) every open session of the principal in the team; returns their ids. */
  closeOpenSessions(teamRef: string, principalRef: string, now: number): Promise<string[]>;
  /** Sessions the principal created (any team) with `created_at` > `since`. */
  sessionsCreatedSince(principalRef: string, since: number): Promise<WindowCount>;

  /**
   * Stores a message; `recipient_session_id` is its current recipient and `acked_at` its ack.
   * `state` (a copy from another store) carries what changed since it was sent; absent, none did.
   */
  insertMessage(row: MessageRow, state?: MessageStateColumns): Promise<void>;
  getMessage(messageId: string): Promise<MessageRow | null>;
  messageByIdempotencyKey(senderSessionId: string, key: string): Promise<MessageRow | null>;
  /** Messages sent from the session with `created_at` > `since`, acked or not. */
  sentBySessionSince(senderSessionId: string, since: number): Promise<WindowCount>;
  /** Messages sent by any session of the principal with `created_at` > `since`, acked or not. */
  sentByPrincipalSince(principalRef: string, since: number): Promise<WindowCount>;
  unackedFromTo(senderSessionId: string, recipientSessionId: string): Promise<number>;
  unackedFor(recipientSessionId: string): Promise<number>;
  /** `hop_count` of the most recent message from → to with `created_at` > `since`, or `null`. */
  latestHopCount(fromSessionId: string, toSessionId: string, since: number): Promise<number | null>;
  /** Unacked messages addressed to the session, oldest first (insertion order), at most `limit`. */
  listUnacked(recipientSessionId: string, limit: number): Promise<MessageRow[]>;
  /**
   * Marks the message acked at `now` if it is addressed to the session (keeping an earlier ack
   * time); true when the message exists and is addressed to the session.
   */
  ackMessage(messageId: string, recipientSessionId: string, now: number): Promise<boolean>;

  /**
   * Messages sent from the session (capability `message.state`), each joined with its current
   * recipient session's `closed_at` and `lease_until`.
   */
  sentMessages(senderSessionId: string, query: SentMessagesQuery): Promise<SentMessageRow[]>;

  /**
   * The latest `limit` messages the principal sent in the team (capability `message.person`),
   * from any of its sessions or as a person, newest first (by `created_at`, then insertion), each
   * with its sender session id (the principal's own ref for a person's message) and joined like
   * {@link StoreTx.sentMessages}.
   */
  sentByPrincipal(
    teamRef: string,
    principalRef: string,
    limit: number,
  ): Promise<PrincipalSentRow[]>;
  /**
   * Records what the recipient's harness did with a message (capability `message.state`): only
   * when the message is addressed to the session and unacked; `disposition_at` changes only when
   * the disposition does. True when recorded.
   */
  setDisposition(
    messageId: string,
    recipientSessionId: string,
    disposition: MessageDisposition,
    at: number,
  ): Promise<boolean>;
  /**
   * Moves at most `limit` of the oldest unacked messages addressed to `fromSessionId` to
   * `toSessionId` (capability `message.adopt`), in insertion order: `recipient_session_id`
   * becomes `toSessionId`, `sent_to_session_id` keeps the first recipient, and the disposition
   * becomes `held` at `at`. Returns the moved rows as they now are.
   */
  adoptMessages(
    fromSessionId: string,
    toSessionId: string,
    at: number,
    limit: number,
  ): Promise<MessageRow[]>;

  // ---- the dashboard (docs/52-dashboard.md)

  /**
   * The team's messages the principal sent or that are addressed to one of its sessions now,
   * newest first (ties in insertion order, newest first), at most `limit`, with their bodies.
   */
  personMessages(teamRef: string, principalRef: string, limit: number): Promise<PersonMessageRow[]>;
  /**
   * Records that the recipient's person released a held message at `at`: only while the message
   * is addressed to the session, unacknowledged and reported `held`; a second release keeps the
   * first time. True when the message is released (now or before).
   */
  releaseMessage(messageId: string, recipientSessionId: string, at: number): Promise<boolean>;
  /**
   * The unacknowledged messages addressed to the session that its person released (oldest
   * first, at most `limit`): what the session's harness is told at its heartbeat.
   */
  releasedFor(recipientSessionId: string, limit: number): Promise<string[]>;
  /**
   * Stores a new login link; first deletes the principal's links that expired at or before
   * `row.created_at`, so a person's links never pile up.
   */
  insertWebLogin(row: WebLoginRow): Promise<void>;
  /** Login links the principal made with `created_at` > `since`. */
  webLoginsSince(principalRef: string, since: number): Promise<WindowCount>;
  /**
   * Takes the login link whose digest is `loginDigest` at `now`, in one conditional write that
   * sees the row as committed when it runs: only while unused and `now` is before `expires_at`.
   * So of two requests racing with one link, on any number of processes, one gets it. The row
   * with `used_at` now set, or `null` when the link does not exist or cannot be used.
   */
  useWebLogin(loginDigest: string, now: number): Promise<WebLoginRow | null>;
  /**
   * Stores a new browser session; first deletes the principal's sessions that ended or expired
   * at or before `row.created_at`.
   */
  insertWebSession(row: WebSessionRow): Promise<void>;
  /** The browser session whose digest is `sessionDigest`, or `null`. */
  getWebSession(sessionDigest: string): Promise<WebSessionRow | null>;
  /** Ends the browser session at `now` (sign-out) unless it already ended. */
  endWebSession(sessionDigest: string, now: number): Promise<void>;

  /**
   * Deletes at most `bounds.limit` rows of each kind that are past their retention floor. Teams
   * go before principals, so a principal whose only team was collected may go in the same call.
   */
  collectGarbage(bounds: GarbageBounds): Promise<GarbageCounts>;

  // ---- blobs (capability `message.attachments`)

  /** Reserves an upload's content (no chunks yet). */
  insertBlobContent(row: BlobContentRow): Promise<void>;
  /** Stores chunk `seq` (0-based) of a content; a chunk is at most `BLOB_CHUNK_BYTES`. */
  putBlobChunk(contentId: string, seq: number, data: Uint8Array): Promise<void>;
  /** Chunk `seq` of a content, or `null` when there is none (the content is gone or shorter). */
  blobChunk(contentId: string, seq: number): Promise<Uint8Array | null>;
  /** Deletes a content with its chunks (nothing when it is unknown). */
  deleteBlobContent(contentId: string): Promise<void>;
  /** Bytes the team's contents take (declared sizes of verified blobs and of uploads under way). */
  teamBlobBytes(teamRef: string): Promise<number>;
  getBlob(teamRef: string, sha256: string): Promise<BlobRow | null>;
  /** Stores a verified blob; its content must exist and no blob of the team has that digest. */
  insertBlob(row: BlobRow): Promise<void>;
  /** Records (or renews, at `at`) that the principal uploaded the blob. */
  putBlobUploader(teamRef: string, sha256: string, principalRef: string, at: number): Promise<void>;
  /** The blob's uploaders, in `principal_ref` order. */
  blobUploaders(teamRef: string, sha256: string): Promise<BlobUploaderRow[]>;
  /**
   * Whether a message of the team that names the blob is addressed to a session of the principal
   * (the recipient's side of a blob's access rule).
   */
  blobNamedFor(teamRef: string, sha256: string, principalRef: string): Promise<boolean>;
  /**
   * Deletes at most `bounds.limit` blobs no message names whose uploads are all old enough (with
   * their uploaders and content), then at most `bounds.limit` stale contents; returns how many
   * blobs and contents went.
   */
  collectBlobs(bounds: BlobGarbageBounds): Promise<{ blobs: number; contents: number }>;
}

/**
 * The numbers of the `message send` checks (docs/spec/protocol.md §6.12), handed to a store that
 * decides a send itself ({@link Store.sendMessage}) so the protocol's constants stay in one place.
 * Windows and hints in milliseconds.
 */
export interface SendLimits {
  sendPerMinute: number;
  sendPerHour: number;
  principalPerMinute: number;
  principalPerHour: number;
  /** Unacknowledged messages from one sender session to one recipient. */
  pairCap: number;
  /** Unacknowledged messages to one recipient. */
  inboxCap: number;
  maxHopCount: number;
  implicitReplyWindowMs: number;
  /** `retry_after_ms` of a refusal by either cap. */
  capRetryAfterMs: number;
}

/**
 * One validated `message send`, as a store that decides sends itself receives it. Ids and text
 * are the request's (already validated); `messageId` is the id a new message gets.
 */
export interface SendCommand {
  principalRef: string;
  teamRef: string;
  /**
   * The sending session; for a person's message (`person` true) the principal's own ref, which
   * no session id can equal (ids carry their kind: `s-…`, `p-…`).
   */
  senderSessionId: string;
  /**
   * **[ours]** (capability `message.person`): the principal writes as a person, from no session;
   * the sender-session steps (c) and (d) are skipped, the message names the principal as its
   * sender session and an empty session name. Only `sendInTx` takes it. Absent: a session's send.
   */
  person?: boolean;
  recipientSessionId: string;
  body: string;
  summary: string | null;
  replyTo: string | null;
  idempotencyKey: string | null;
  /**
   * The blobs the send names (capability `message.attachments`), validated. A
   * store's own {@link Store.sendMessage} is only given sends without attachments: the service
   * runs a send that names some as one unit over {@link StoreTx} (`sendInTx`). Absent: none.
   */
  attachments?: readonly MessageAttachment[];
  messageId: string;
  limits: SendLimits;
  /**
   * The time of the send (ms since the epoch) on the service's clock, for a store that decides on
   * this process's clock (SQLite, and the service's own `sendInTx`); a store with a clock of its
   * own (PostgreSQL's) uses that instead.
   */
  now: number;
}

/**
 * Why a send was refused, in the words of docs/spec/protocol.md §6.16: `unauthorized` (b),
 * `not_found` (c, e, or a bad `reply_to` in g), `session_closed` (d), `idempotency_key_reused`
 * (f), `loop_detected` (g), `rate_limited` with its reason and `retry_after_ms` (h, i).
 */
export type SendRefusal =
  | { refusal: "unauthorized" | "not_found" | "session_closed" | "idempotency_key_reused" }
  | { refusal: "loop_detected" }
  | { refusal: "rate_limited"; reason: RateLimitedReason; retryAfterMs: number };

/** What a send did: stored a new message, answered a replay, or refused. */
export type SendOutcome =
  | { ok: true; duplicate: boolean; message: SentMessage }
  | ({ ok: false } & SendRefusal);

/** The stored message a send answers with (the original one for a replay). */
export interface SentMessage {
  message_id: string;
  recipient_session_id: string;
  hop_count: number;
  created_at: number;
}

/**
 * One watch's fetch of messages it heard of, as a store that answers fetches itself receives it:
 * the caller, the owned session and the ids (no repeats), in the order they are wanted.
 */
export interface FetchCommand {
  principalRef: string;
  teamRef: string;
  sessionId: string;
  messageIds: readonly string[];
}

/**
 * What a fetch found: `unauthorized` when the caller is not an active member of the team (or the
 * team is unknown), else `not_found` when the session is not the caller's in that team, else the
 * still-unacknowledged messages among the ids that are addressed to the session now, in the ids'
 * order (`acked_at` null).
 */
export type FetchOutcome = { ok: true; messages: MessageRow[] } | SessionRefusal;

/** Why a session verb refuses its caller, as a fetch or ack outcome carries it. */
export type SessionRefusal = { ok: false; refusal: "unauthorized" | "not_found" };

/**
 * One `message ack`, as a store that acknowledges itself receives it: the caller, the owned
 * session, the ids (no repeats, in the request's order) and the time to record (ms).
 */
export interface AckCommand {
  principalRef: string;
  teamRef: string;
  sessionId: string;
  messageIds: readonly string[];
  at: number;
}

/**
 * What an ack did: the refusals of {@link FetchOutcome}, else the ids addressed to the session
 * now (acknowledged, or acknowledged before: the first time stays) and the others (`unknown`),
 * each in the command's order. A refusal acknowledges nothing.
 */
export type AckOutcome = { ok: true; acked: string[]; unknown: string[] } | SessionRefusal;

/**
 * Thrown (or rejected with) by a store that cannot reach its database right now (connection
 * refused or lost, a timeout, the server shutting down). Nothing of the failed unit was kept,
 * except that a unit whose COMMIT was cut off may have committed: a caller retries a send with
 * its idempotency key. The HTTP layer answers `unavailable` (retryable).
 */
export class StoreUnavailableError extends Error {
  readonly code = "store_unavailable" as const;
  constructor() {
    super("the store's database is unreachable");
    this.name = "StoreUnavailableError";
  }
}

/** What a {@link WatchFeed} drives: this process's watches. */
export interface WatchFeedTarget {
  /** Session ids with at least one open watch in this process now. */
  watchedSessions(): readonly string[];
  /** Tells the local watches of `recipientSessionId` about committed messages (duplicates allowed). */
  deliver(recipientSessionId: string, messageIds: readonly string[]): void;
  /**
   * Ends the local watches of `principalRef` in `teamRef`: another process ended that membership.
   * With `asOf` (from {@link WatchFeedTarget.watchedMemberships}), only the watches that were open
   * at that snapshot.
   */
  revoke(principalRef: string, teamRef: string, asOf?: number): void;
  /**
   * The (principal, team) memberships the local watches stand on, each once, and the snapshot's
   * moment (`asOf`), so a feed can check them against the database in one query.
   */
  watchedMemberships(): WatchedMemberships;
}

/**
 * Optional seam of a store shared by several server processes: it brings sends committed by
 * other processes to this process's watches (the service already tells its own watches about its
 * own sends). The service attaches it once, at construction, and reports every new message it
 * stored with {@link WatchFeed.sent}, so a feed can pass the news on to the other processes. It
 * stops when the store closes. A feed may deliver an id more than once and late (a watch dedupes
 * and fetches what is still unacknowledged), but never before the message's commit.
 */
export interface WatchFeed {
  attach(target: WatchFeedTarget): void;
  /** This process committed `messageId` for `recipientSessionId`. */
  sent(recipientSessionId: string, messageId: string): void;
  /** This process committed the end of `principalRef`'s membership of `teamRef` (leave, revoke). */
  membershipEnded(principalRef: string, teamRef: string): void;
}

/**
 * The persistence port. `transact` runs `unit` atomically: when the unit throws, none of its writes
 * remain and the promise rejects with the thrown value; when it returns, the promise resolves only
 * after its writes are durable (committed and synced). Units may be batched into one physical
 * transaction (group commit) but never observe another unit's partial writes.
 *
 * @example
 * const team = await store.transact((tx) => tx.getTeam("t-9c1e"));
 */
export interface Store {
  transact<T>(unit: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * Optional coarse operation: decides and stores one `message send` in one step, running the
   * checks of docs/spec/protocol.md §6.16 (b) to (j) in that order with the store's own clock,
   * durable before it resolves. A store whose units cost a network round trip each (PostgreSQL)
   * implements it as one call; without it, the service runs the same checks as one
   * {@link Store.transact} unit over {@link StoreTx}. Both must give the same answers (the store
   * contract suite runs its send cases through either path).
   */
  sendMessage?(command: SendCommand): Promise<SendOutcome>;
  /**
   * Optional coarse operation: answers one watch's fetch ({@link FetchOutcome}) in one step, for
   * the same reason as {@link Store.sendMessage}: a watch fetches once per delivery, so a store
   * whose units cost a round trip each answers it with one. Without it, the service runs the same
   * checks and reads as one {@link Store.transact} unit (`fetchInTx`); both must give the same
   * answers (the store contract suite runs its fetch cases through either path).
   */
  fetchMessages?(command: FetchCommand): Promise<FetchOutcome>;
  /**
   * Optional coarse operation: one `message ack` ({@link AckOutcome}) in one step, durable
   * before it resolves: a watcher acknowledges about once per delivered message. Without it, the
   * service runs the same checks and writes as one {@link Store.transact} unit (`ackInTx`); both
   * must give the same answers (the store contract's ack cases run through either path).
   */
  ackMessages?(command: AckCommand): Promise<AckOutcome>;
  /** Optional: see {@link WatchFeed}; absent for a store only one process uses (SQLite). */
  readonly watchFeed?: WatchFeed;
  /** Waits for queued units, then releases the store; later `transact` calls reject. */
  close(): Promise<void>;
}
