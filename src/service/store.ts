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
  created_at: number;
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
  /** `closed_at` of the current recipient session. */
  recipient_closed_at: number | null;
  /** `lease_until` of the current recipient session. */
  recipient_lease_until: number;
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
   * Teams never used (no session ever registered, no member ever joined besides the creator)
   * created at or before this go, with their creator's membership.
   */
  unusedTeamCreatedBefore: number;
  /** Principals with no membership of any status and no team, created at or before this, go. */
  unusedPrincipalCreatedBefore: number;
  /** Most rows of one kind deleted by one call. */
  limit: number;
}

/** Rows deleted by one sweep batch, per kind. */
export interface GarbageCounts {
  messages: number;
  sessions: number;
  join_failures: number;
  teams: number;
  principals: number;
}

/**
 * Operations available inside one unit of work. A unit must await only these methods (never a
 * timer or network call): a store may hold a database transaction open for the unit's duration.
 */
export interface StoreTx {
  insertPrincipal(row: PrincipalRow): Promise<void>;
  /** The principal whose token digest is `tokenDigest`, or `null`. */
  principalByTokenDigest(tokenDigest: string): Promise<string | null>;

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
   * Replaces the admin columns (`secret_digest`, `creator_principal_ref`) of the existing team
   * `row.team_ref`; its name and creation time never change.
   */
  updateTeam(row: TeamRow): Promise<void>;

  getMembership(teamRef: string, principalRef: string): Promise<MembershipRow | null>;
  /** Inserts or replaces the membership row of `(team_ref, principal_ref)`. */
  putMembership(row: MembershipRow): Promise<void>;
  /** Active members, ordered by `joined_at` then `principal_ref`; liveness judged at `now`. */
  listActiveMembers(teamRef: string, now: number): Promise<MemberSummaryRow[]>;

  recordJoinFailure(principalRef: string, at: number): Promise<void>;
  /** Join failures of the principal with time > `since`. */
  joinFailuresSince(principalRef: string, since: number): Promise<WindowCount>;

  insertSession(row: SessionRow): Promise<void>;
  getSession(sessionId: string): Promise<SessionRow | null>;
  /** Replaces every column of the existing row with `row.session_id`. */
  updateSession(row: SessionRow): Promise<void>;
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

  insertMessage(row: MessageRow): Promise<void>;
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

  /**
   * Deletes at most `bounds.limit` rows of each kind that are past their retention floor. Teams
   * go before principals, so a principal whose only team was collected may go in the same call.
   */
  collectGarbage(bounds: GarbageBounds): Promise<GarbageCounts>;
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
  /** Waits for queued units, then releases the store; later `transact` calls reject. */
  close(): Promise<void>;
}
