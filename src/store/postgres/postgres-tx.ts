import type { PoolClient, QueryResult } from "pg";
import { attachmentsColumn, withAttachments } from "../../service/attachment-column.ts";
import type {
  BlobContentRow,
  BlobGarbageBounds,
  BlobRow,
  BlobUploaderRow,
  GarbageBounds,
  GarbageCounts,
  InvitationRow,
  MemberSummaryRow,
  MembershipRow,
  MessageDisposition,
  MessageRow,
  MessageStateColumns,
  PersonMessageRow,
  PrincipalRow,
  PrincipalSentRow,
  SentMessageRow,
  SentMessagesQuery,
  SessionListRow,
  SessionRow,
  StoreTx,
  TeamRow,
  WebLoginRow,
  WebSessionRow,
  WindowCount,
} from "../../service/store.ts";
import { decodeRow, encodeParams } from "./pg-text.ts";

const SESSION_COLUMNS = [
  "session_id",
  "team_ref",
  "principal_ref",
  "session_name",
  "activity",
  "inbound",
  "session_description",
  "workspace_label",
  "model",
  "context_used_tokens",
  "brigade_version",
  "sync_peer",
  "live_delivery",
  "live_delivery_at",
  "harness",
  "harness_version",
  "lease_seconds",
  "lease_until",
  "last_seen_at",
  "created_at",
  "closed_at",
] as const;

/**
 * The session verbs' two checks as SQL select items over a row `p` with `team`, `principal` and
 * `session`: `member` (the principal is an active member of the team) and `owner` (the session is
 * the principal's, in that team), for the one-statement fetch and ack. They mirror
 * `sessionRefusal` (src/service/session-refusal.ts), the checks of the unit-of-work path, in its
 * order: `toFetchOutcome` and `toAckOutcome` read `member` first (`unauthorized`), then `owner`
 * (`not_found`).
 */
export const SESSION_ACCESS_SQL: string =
  "EXISTS (SELECT 1 FROM teams t JOIN memberships mb ON mb.team_ref = t.team_ref " +
  "WHERE t.team_ref = p.team AND mb.principal_ref = p.principal AND mb.status = 'active') AS member, " +
  "EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = p.session AND s.team_ref = p.team " +
  "AND s.principal_ref = p.principal) AS owner";

/** The columns of a {@link MessageRow} over `addressed_messages m LEFT JOIN acks a`. */
export const MESSAGE_COLUMNS: string =
  "m.message_id, m.team_ref, m.sender_principal_ref, m.sender_session_id, m.sender_session_name, " +
  "m.sender_human_label, m.recipient_session_id, m.summary, m.body, m.reply_to, m.hop_count, " +
  "m.created_at, a.acked_at, m.idempotency_key, m.attachments";

const MESSAGE_SELECT = `${MESSAGE_COLUMNS} FROM addressed_messages m LEFT JOIN acks a ON a.message_id = m.message_id`;

const SENT_SELECT =
  "SELECT m.message_id, m.recipient_session_id, m.sent_to_session_id, m.summary, m.created_at, " +
  "a.acked_at, m.disposition, m.disposition_at, st.released_at, s.closed_at AS recipient_closed_at, " +
  "s.lease_until AS recipient_lease_until, m.attachments FROM addressed_messages m " +
  "JOIN sessions s ON s.session_id = m.recipient_session_id " +
  "LEFT JOIN acks a ON a.message_id = m.message_id " +
  "LEFT JOIN message_states st ON st.message_id = m.message_id";

/** A dashboard message over `addressed_messages m`: the sent columns, both ends' people, the body. */
const PERSON_SELECT =
  "SELECT m.seq, m.message_id, m.recipient_session_id, m.sent_to_session_id, m.summary, " +
  "m.created_at, a.acked_at, m.disposition, m.disposition_at, s.closed_at AS recipient_closed_at, " +
  "s.lease_until AS recipient_lease_until, m.sender_principal_ref, m.sender_session_id, " +
  "m.sender_session_name, m.sender_human_label, s.principal_ref AS recipient_principal_ref, " +
  "s.session_name AS recipient_session_name, m.body, st.released_at, m.attachments " +
  "FROM addressed_messages m JOIN sessions s ON s.session_id = m.recipient_session_id " +
  "LEFT JOIN acks a ON a.message_id = m.message_id " +
  "LEFT JOIN message_states st ON st.message_id = m.message_id";

const WEB_LOGIN_COLUMNS = "login_digest, principal_ref, team_ref, created_at, expires_at, used_at";

const WEB_SESSION_COLUMNS =
  "session_digest, principal_ref, team_ref, created_at, expires_at, ended_at";

const SESSION_SELECT = SESSION_COLUMNS.map((c) => `s.${c}`).join(", ");

const SESSION_INSERT =
  `INSERT INTO sessions (${SESSION_COLUMNS.join(", ")}) VALUES (` +
  SESSION_COLUMNS.map((_, i) => `$${i + 1}`).join(", ") +
  ")";

const SESSION_UPDATE =
  "UPDATE sessions SET " +
  SESSION_COLUMNS.slice(1)
    .map((c, i) => `${c} = $${i + 2}`)
    .join(", ") +
  " WHERE session_id = $1";

/**
 * Under READ COMMITTED an UPDATE that meets a row changed by a transaction committed since its
 * snapshot checks its WHERE again on the new row, so a close committed meanwhile is seen here.
 */
const OPEN_SESSION_UPDATE = `${SESSION_UPDATE} AND closed_at IS NULL`;

/** Transaction-scoped advisory lock on a principal: the key `brigade_send` takes first. */
const LOCK_PRINCIPAL = "SELECT pg_advisory_xact_lock(brigade_lock_key('p', $1))";
const LOCK_SESSION = "SELECT pg_advisory_xact_lock(brigade_lock_key('s', $1))";
/**
 * Transaction-scoped advisory lock on a team (key kind `'t'`, beside the `'p'` principal and `'s'`
 * session kinds of `brigade_lock_key`): taken first by every unit that reads a team's memberships
 * and writes one, before any principal lock; the retention sweep only tries it, and skips a team
 * it cannot take.
 */
const LOCK_TEAM = "SELECT pg_advisory_xact_lock(brigade_lock_key('t', $1))";

const INVITATION_COLUMNS =
  "invitation_id, team_ref, secret_digest, created_by, max_uses, uses, created_at, expires_at, " +
  "last_used_at, revoked_at";

/** An invitation that still admits at the time `$2`: not revoked, not expired, uses left. */
const INVITATION_ACTIVE = "revoked_at IS NULL AND expires_at > $2 AND uses < max_uses";

/**
 * A team nobody used (`t`): no session ever, no member besides its creator. The retention sweep
 * asks it twice, for its candidates and again once it holds their locks.
 */
const UNUSED_TEAM_SQL =
  "t.used_at IS NULL " +
  "AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.team_ref = t.team_ref) " +
  "AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.team_ref = t.team_ref " +
  "AND m.principal_ref <> t.creator_principal_ref)";

/**
 * {@link StoreTx} over one pooled connection inside an open transaction (READ COMMITTED, the
 * default). Every method is one statement, one round trip; strings are escaped on the way in and
 * out (`pg-text.ts`). The counts a rate limit rests on (teams, registrations, join failures) first
 * take the principal's advisory lock, the one `brigade_send` takes, so two processes cannot both
 * pass a limit with its last slot.
 */
export class PostgresTx implements StoreTx {
  readonly #client: PoolClient;
  /** The last statement issued: a unit may call methods concurrently, a connection runs one. */
  #previous: Promise<unknown> = Promise.resolve();

  /** Wraps `client`, on which the store has already run `BEGIN`. */
  constructor(client: PoolClient) {
    this.#client = client;
  }

  #query(sql: string, params: readonly unknown[]): Promise<QueryResult> {
    const run = (): Promise<QueryResult> => this.#client.query(sql, encodeParams(params));
    const result = this.#previous.then(run, run);
    this.#previous = result;
    return result;
  }

  async #rows<T extends object>(sql: string, params: readonly unknown[]): Promise<T[]> {
    const result = await this.#query(sql, params);
    return (result.rows as T[]).map(decodeRow);
  }

  async #first<T extends object>(sql: string, params: readonly unknown[]): Promise<T | null> {
    return (await this.#rows<T>(sql, params))[0] ?? null;
  }

  async #count(sql: string, params: readonly unknown[]): Promise<number> {
    const result = await this.#query(sql, params);
    return result.rowCount ?? 0;
  }

  async #window(sql: string, params: readonly unknown[]): Promise<WindowCount> {
    const row = await this.#first<WindowCount>(sql, params);
    return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
  }

  async lockTeam(teamRef: string): Promise<void> {
    await this.#rows(LOCK_TEAM, [teamRef]);
  }

  /** The principal's lock, then the recipient session's: `brigade_send`'s locks, in its order. */
  async lockSend(principalRef: string, recipientSessionId: string): Promise<void> {
    await this.#rows(LOCK_PRINCIPAL, [principalRef]);
    await this.#rows(LOCK_SESSION, [recipientSessionId]);
  }

  async insertPrincipal(row: PrincipalRow): Promise<void> {
    await this.#rows(
      "INSERT INTO principals (principal_ref, token_digest, created_at) VALUES ($1, $2, $3)",
      [row.principal_ref, row.token_digest, row.created_at],
    );
  }

  async principalByTokenDigest(tokenDigest: string): Promise<string | null> {
    const row = await this.#first<{ principal_ref: string }>(
      "SELECT principal_ref FROM principals WHERE token_digest = $1",
      [tokenDigest],
    );
    return row?.principal_ref ?? null;
  }

  async replacePrincipalToken(
    principalRef: string,
    fromDigest: string,
    toDigest: string,
  ): Promise<boolean> {
    const written = await this.#count(
      "UPDATE principals SET token_digest = $1 WHERE principal_ref = $2 AND token_digest = $3",
      [toDigest, principalRef, fromDigest],
    );
    return written > 0;
  }

  async insertTeam(row: TeamRow): Promise<void> {
    await this.#rows(
      "INSERT INTO teams (team_ref, team_name, secret_digest, creator_principal_ref, " +
        "offered_to_principal_ref, offer_expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [
        row.team_ref,
        row.team_name,
        row.secret_digest,
        row.creator_principal_ref,
        row.offered_to_principal_ref,
        row.offer_expires_at,
        row.created_at,
      ],
    );
  }

  async getTeam(teamRef: string): Promise<TeamRow | null> {
    return this.#first<TeamRow>(
      "SELECT team_ref, team_name, secret_digest, creator_principal_ref, offered_to_principal_ref, " +
        "offer_expires_at, created_at FROM teams WHERE team_ref = $1",
      [teamRef],
    );
  }

  async markTeamUsed(teamRef: string, at: number): Promise<void> {
    await this.#rows("UPDATE teams SET used_at = $1 WHERE team_ref = $2 AND used_at IS NULL", [
      at,
      teamRef,
    ]);
  }

  async teamsCreatedSince(principalRef: string, since: number): Promise<WindowCount> {
    await this.#rows(LOCK_PRINCIPAL, [principalRef]);
    return this.#window(
      "SELECT count(*) AS count, min(created_at) AS oldest FROM teams WHERE creator_principal_ref = $1 AND created_at > $2",
      [principalRef, since],
    );
  }

  async updateTeam(row: TeamRow): Promise<void> {
    await this.#rows(
      "UPDATE teams SET secret_digest = $1, creator_principal_ref = $2, " +
        "offered_to_principal_ref = $3, offer_expires_at = $4 WHERE team_ref = $5",
      [
        row.secret_digest,
        row.creator_principal_ref,
        row.offered_to_principal_ref,
        row.offer_expires_at,
        row.team_ref,
      ],
    );
  }

  async getMembership(teamRef: string, principalRef: string): Promise<MembershipRow | null> {
    return this.#first<MembershipRow>(
      "SELECT team_ref, principal_ref, human_label, status, joined_at, updated_at FROM memberships " +
        "WHERE team_ref = $1 AND principal_ref = $2",
      [teamRef, principalRef],
    );
  }

  async putMembership(row: MembershipRow): Promise<void> {
    await this.#rows(
      "INSERT INTO memberships (team_ref, principal_ref, human_label, status, joined_at, updated_at) " +
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (team_ref, principal_ref) DO UPDATE SET " +
        "human_label = excluded.human_label, status = excluded.status, " +
        "joined_at = excluded.joined_at, updated_at = excluded.updated_at",
      [row.team_ref, row.principal_ref, row.human_label, row.status, row.joined_at, row.updated_at],
    );
  }

  async listActiveMembers(teamRef: string, now: number): Promise<MemberSummaryRow[]> {
    return this.#rows<MemberSummaryRow>(
      "SELECT m.principal_ref, m.human_label, m.joined_at, " +
        "(SELECT max(s.last_seen_at) FROM sessions s WHERE s.team_ref = m.team_ref AND s.principal_ref = m.principal_ref) AS last_seen_at, " +
        "(SELECT count(*) FROM sessions s WHERE s.team_ref = m.team_ref AND s.principal_ref = m.principal_ref " +
        "AND s.closed_at IS NULL AND s.lease_until >= $2) AS live_session_count " +
        "FROM memberships m WHERE m.team_ref = $1 AND m.status = 'active' " +
        'ORDER BY m.joined_at, m.principal_ref COLLATE "C"',
      [teamRef, now],
    );
  }

  async recordJoinFailure(principalRef: string, at: number): Promise<void> {
    await this.#rows("INSERT INTO join_failures (principal_ref, at) VALUES ($1, $2)", [
      principalRef,
      at,
    ]);
  }

  async joinFailuresSince(principalRef: string, since: number): Promise<WindowCount> {
    await this.#rows(LOCK_PRINCIPAL, [principalRef]);
    return this.#window(
      "SELECT count(*) AS count, min(at) AS oldest FROM join_failures WHERE principal_ref = $1 AND at > $2",
      [principalRef, since],
    );
  }

  async insertSession(row: SessionRow): Promise<void> {
    await this.#rows(
      SESSION_INSERT,
      SESSION_COLUMNS.map((c) => row[c]),
    );
  }

  async getSession(sessionId: string): Promise<SessionRow | null> {
    return this.#first<SessionRow>(
      `SELECT ${SESSION_SELECT} FROM sessions s WHERE s.session_id = $1`,
      [sessionId],
    );
  }

  async lockSessionRow(sessionId: string): Promise<void> {
    await this.#rows("SELECT 1 FROM sessions WHERE session_id = $1 FOR NO KEY UPDATE", [sessionId]);
  }

  async updateSession(row: SessionRow): Promise<void> {
    await this.#rows(
      SESSION_UPDATE,
      SESSION_COLUMNS.map((c) => row[c]),
    );
  }

  async updateOpenSession(row: SessionRow): Promise<boolean> {
    const written = await this.#count(
      OPEN_SESSION_UPDATE,
      SESSION_COLUMNS.map((c) => row[c]),
    );
    return written > 0;
  }

  async listTeamSessions(
    teamRef: string,
    options: { now: number; includeOffline: boolean; limit: number },
  ): Promise<SessionListRow[]> {
    const live = options.includeOffline ? "" : "AND s.closed_at IS NULL AND s.lease_until >= $3 ";
    const params = options.includeOffline
      ? [teamRef, options.limit]
      : [teamRef, options.limit, options.now];
    return this.#rows<SessionListRow>(
      `SELECT ${SESSION_SELECT}, m.human_label FROM sessions s ` +
        "JOIN memberships m ON m.team_ref = s.team_ref AND m.principal_ref = s.principal_ref " +
        `WHERE s.team_ref = $1 AND m.status = 'active' ${live}` +
        "ORDER BY s.created_at, s.seq LIMIT $2",
      params,
    );
  }

  async closeOpenSessions(teamRef: string, principalRef: string, now: number): Promise<string[]> {
    const rows = await this.#rows<{ session_id: string; created_at: number }>(
      "UPDATE sessions SET closed_at = $3 WHERE team_ref = $1 AND principal_ref = $2 AND closed_at IS NULL " +
        "RETURNING session_id, created_at, seq",
      [teamRef, principalRef, now],
    );
    return rows
      .sort((a, b) => a.created_at - b.created_at || (a.session_id < b.session_id ? -1 : 1))
      .map((r) => r.session_id);
  }

  async sessionsCreatedSince(principalRef: string, since: number): Promise<WindowCount> {
    await this.#rows(LOCK_PRINCIPAL, [principalRef]);
    return this.#window(
      "SELECT count(*) AS count, min(created_at) AS oldest FROM sessions WHERE principal_ref = $1 AND created_at > $2",
      [principalRef, since],
    );
  }

  async insertMessage(row: MessageRow, state?: MessageStateColumns): Promise<void> {
    const sentTo = state?.sent_to_session_id ?? null;
    await this.#rows(
      "WITH inserted AS (INSERT INTO messages (message_id, team_ref, sender_principal_ref, " +
        "sender_session_id, sender_session_name, sender_human_label, recipient_session_id, summary, " +
        "body, reply_to, hop_count, created_at, idempotency_key, attachments) " +
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $16) RETURNING seq), " +
        "pending AS (INSERT INTO inbox (seq, message_id, recipient_session_id, sender_session_id, created_at) " +
        "SELECT seq, $1, $15, $4, $12 FROM inserted WHERE $14::bigint IS NULL) " +
        "INSERT INTO acks (message_id, acked_at) SELECT $1, $14 FROM inserted WHERE $14::bigint IS NOT NULL",
      [
        row.message_id,
        row.team_ref,
        row.sender_principal_ref,
        row.sender_session_id,
        row.sender_session_name,
        row.sender_human_label,
        sentTo ?? row.recipient_session_id,
        row.summary,
        row.body,
        row.reply_to,
        row.hop_count,
        row.created_at,
        row.idempotency_key,
        row.acked_at,
        row.recipient_session_id,
        attachmentsColumn(row.attachments),
      ],
    );
    const attachments = row.attachments ?? [];
    if (attachments.length > 0) {
      await this.#rows(
        "INSERT INTO message_attachments (message_id, position, team_ref, sha256) " +
          "SELECT $1, position - 1, $2, sha256 FROM unnest($3::text[]) WITH ORDINALITY AS a(sha256, position)",
        [row.message_id, row.team_ref, attachments.map((a) => a.sha256)],
      );
    }
    const disposition = state?.disposition ?? null;
    const releasedAt = state?.released_at ?? null;
    if (sentTo === null && disposition === null && releasedAt === null) return;
    await this.#rows(
      "INSERT INTO message_states (message_id, moved_to_session_id, disposition, disposition_at, " +
        "released_at) VALUES ($1, $2, $3, $4, $5)",
      [
        row.message_id,
        sentTo === null ? null : row.recipient_session_id,
        disposition,
        state?.disposition_at ?? null,
        releasedAt,
      ],
    );
  }

  async getMessage(messageId: string): Promise<MessageRow | null> {
    const row = await this.#first<MessageRow>(`SELECT ${MESSAGE_SELECT} WHERE m.message_id = $1`, [
      messageId,
    ]);
    return row === null ? null : withAttachments(row);
  }

  async messageByIdempotencyKey(senderSessionId: string, key: string): Promise<MessageRow | null> {
    const row = await this.#first<MessageRow>(
      `SELECT ${MESSAGE_SELECT} WHERE m.sender_session_id = $1 AND m.idempotency_key = $2`,
      [senderSessionId, key],
    );
    return row === null ? null : withAttachments(row);
  }

  async sentBySessionSince(senderSessionId: string, since: number): Promise<WindowCount> {
    return this.#window(
      "SELECT count(*) AS count, min(created_at) AS oldest FROM messages WHERE sender_session_id = $1 AND created_at > $2",
      [senderSessionId, since],
    );
  }

  async sentByPrincipalSince(principalRef: string, since: number): Promise<WindowCount> {
    return this.#window(
      "SELECT count(*) AS count, min(created_at) AS oldest FROM messages WHERE sender_principal_ref = $1 AND created_at > $2",
      [principalRef, since],
    );
  }

  async unackedFromTo(senderSessionId: string, recipientSessionId: string): Promise<number> {
    const row = await this.#first<{ count: number }>(
      "SELECT count(*) AS count FROM inbox WHERE recipient_session_id = $1 AND sender_session_id = $2",
      [recipientSessionId, senderSessionId],
    );
    return row?.count ?? 0;
  }

  /**
   * Takes the recipient's advisory lock first (the one `brigade_send` takes second): the unit
   * that counts a session's inbox to fill it (`message adopt`) holds it until it commits, so a
   * concurrent send cannot take the room it counted.
   */
  async unackedFor(recipientSessionId: string): Promise<number> {
    await this.#rows(LOCK_SESSION, [recipientSessionId]);
    const row = await this.#first<{ count: number }>(
      "SELECT count(*) AS count FROM inbox WHERE recipient_session_id = $1",
      [recipientSessionId],
    );
    return row?.count ?? 0;
  }

  async latestHopCount(
    fromSessionId: string,
    toSessionId: string,
    since: number,
  ): Promise<number | null> {
    const row = await this.#first<{ hop_count: number }>(
      "SELECT hop_count FROM addressed_messages WHERE sender_session_id = $1 AND recipient_session_id = $2 " +
        "AND created_at > $3 ORDER BY created_at DESC, seq DESC LIMIT 1",
      [fromSessionId, toSessionId, since],
    );
    return row?.hop_count ?? null;
  }

  async listUnacked(recipientSessionId: string, limit: number): Promise<MessageRow[]> {
    const rows = await this.#rows<MessageRow>(
      "SELECT m.message_id, m.team_ref, m.sender_principal_ref, m.sender_session_id, " +
        "m.sender_session_name, m.sender_human_label, i.recipient_session_id, m.summary, m.body, " +
        "m.reply_to, m.hop_count, m.created_at, NULL::bigint AS acked_at, m.idempotency_key, " +
        "m.attachments FROM inbox i JOIN messages m ON m.seq = i.seq " +
        "WHERE i.recipient_session_id = $1 ORDER BY i.seq LIMIT $2",
      [recipientSessionId, limit],
    );
    return rows.map(withAttachments);
  }

  async ackMessage(messageId: string, recipientSessionId: string, now: number): Promise<boolean> {
    const row = await this.#first<{ found: number }>(
      "WITH target AS (SELECT message_id FROM addressed_messages WHERE message_id = $1 AND recipient_session_id = $2), " +
        "delivered AS (DELETE FROM inbox WHERE message_id IN (SELECT message_id FROM target)), " +
        "acked AS (INSERT INTO acks (message_id, acked_at) SELECT message_id, $3 FROM target " +
        "ON CONFLICT (message_id) DO NOTHING) " +
        "SELECT count(*) AS found FROM target",
      [messageId, recipientSessionId, now],
    );
    return (row?.found ?? 0) > 0;
  }

  async sentMessages(senderSessionId: string, query: SentMessagesQuery): Promise<SentMessageRow[]> {
    if ("limit" in query) {
      return this.#rows<SentMessageRow>(
        `${SENT_SELECT} WHERE m.sender_session_id = $1 ORDER BY m.created_at DESC, m.seq DESC LIMIT $2`,
        [senderSessionId, query.limit],
      );
    }
    const ids = [...new Set(query.messageIds)];
    if (ids.length === 0) return [];
    return this.#rows<SentMessageRow>(
      `${SENT_SELECT} WHERE m.sender_session_id = $1 AND m.message_id = ANY($2::text[]) ` +
        "ORDER BY array_position($2::text[], m.message_id)",
      [senderSessionId, ids],
    );
  }

  async sentByPrincipal(
    teamRef: string,
    principalRef: string,
    limit: number,
  ): Promise<PrincipalSentRow[]> {
    return this.#rows<PrincipalSentRow>(
      `SELECT m.sender_session_id, ${SENT_SELECT.slice("SELECT ".length)} ` +
        "WHERE m.sender_principal_ref = $1 AND m.team_ref = $2 " +
        "ORDER BY m.created_at DESC, m.seq DESC LIMIT $3",
      [principalRef, teamRef, limit],
    );
  }

  async setDisposition(
    messageId: string,
    recipientSessionId: string,
    disposition: MessageDisposition,
    at: number,
  ): Promise<boolean> {
    // The inbox row is the message while unacked, addressed to its current recipient.
    return (
      (await this.#count(
        "INSERT INTO message_states (message_id, disposition, disposition_at) " +
          "SELECT message_id, $3, $4 FROM inbox WHERE message_id = $1 AND recipient_session_id = $2 " +
          "ON CONFLICT (message_id) DO UPDATE SET disposition_at = CASE " +
          "WHEN message_states.disposition IS NOT DISTINCT FROM excluded.disposition " +
          "THEN message_states.disposition_at ELSE excluded.disposition_at END, " +
          "disposition = excluded.disposition",
        [messageId, recipientSessionId, disposition, at],
      )) > 0
    );
  }

  async adoptMessages(
    fromSessionId: string,
    toSessionId: string,
    at: number,
    limit: number,
  ): Promise<MessageRow[]> {
    // The inbox row moves (the caps and the watch feed read the recipient there) and the state
    // row records the move; the message row keeps the recipient as sent.
    const rows = await this.#rows<MessageRow>(
      "WITH picked AS (SELECT seq, message_id FROM inbox WHERE recipient_session_id = $1 " +
        "ORDER BY seq LIMIT $4 FOR UPDATE), " +
        "moved AS (UPDATE inbox SET recipient_session_id = $2 WHERE seq IN (SELECT seq FROM picked)), " +
        "states AS (INSERT INTO message_states (message_id, moved_to_session_id, disposition, disposition_at) " +
        "SELECT message_id, $2, 'held', $3 FROM picked ON CONFLICT (message_id) DO UPDATE SET " +
        "moved_to_session_id = excluded.moved_to_session_id, disposition = 'held', " +
        "disposition_at = excluded.disposition_at) " +
        "SELECT m.message_id, m.team_ref, m.sender_principal_ref, m.sender_session_id, " +
        "m.sender_session_name, m.sender_human_label, $2::text AS recipient_session_id, m.summary, " +
        "m.body, m.reply_to, m.hop_count, m.created_at, NULL::bigint AS acked_at, m.idempotency_key, " +
        "m.attachments FROM messages m JOIN picked p ON p.seq = m.seq ORDER BY m.seq",
      [fromSessionId, toSessionId, at, limit],
    );
    return rows.map(withAttachments);
  }

  async personMessages(
    teamRef: string,
    principalRef: string,
    limit: number,
  ): Promise<PersonMessageRow[]> {
    const rows = await this.#rows<PersonMessageRow & { seq?: number }>(
      `SELECT * FROM (${PERSON_SELECT} WHERE m.team_ref = $1 AND m.sender_principal_ref = $2 ` +
        `UNION ALL ${PERSON_SELECT} WHERE m.team_ref = $1 AND s.principal_ref = $2 ` +
        "AND m.sender_principal_ref <> $2) p ORDER BY created_at DESC, seq DESC LIMIT $3",
      [teamRef, principalRef, limit],
    );
    return rows.map(({ seq: _seq, ...row }) => withAttachments(row));
  }

  async releaseMessage(
    messageId: string,
    recipientSessionId: string,
    at: number,
  ): Promise<boolean> {
    // Held means a state row says so; the inbox row is the message while unacked, addressed now.
    return (
      (await this.#count(
        "UPDATE message_states st SET released_at = coalesce(st.released_at, $3) " +
          "FROM inbox i WHERE st.message_id = $1 AND i.message_id = st.message_id " +
          "AND i.recipient_session_id = $2 AND st.disposition = 'held'",
        [messageId, recipientSessionId, at],
      )) > 0
    );
  }

  async releasedFor(recipientSessionId: string, limit: number): Promise<string[]> {
    const rows = await this.#rows<{ message_id: string }>(
      "SELECT i.message_id FROM inbox i JOIN message_states st ON st.message_id = i.message_id " +
        "WHERE i.recipient_session_id = $1 AND st.released_at IS NOT NULL ORDER BY i.seq LIMIT $2",
      [recipientSessionId, limit],
    );
    return rows.map((r) => r.message_id);
  }

  async insertWebLogin(row: WebLoginRow): Promise<void> {
    await this.#rows("DELETE FROM web_logins WHERE principal_ref = $1 AND expires_at <= $2", [
      row.principal_ref,
      row.created_at,
    ]);
    await this.#rows(
      `INSERT INTO web_logins (${WEB_LOGIN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        row.login_digest,
        row.principal_ref,
        row.team_ref,
        row.created_at,
        row.expires_at,
        row.used_at,
      ],
    );
  }

  async webLoginsSince(principalRef: string, since: number): Promise<WindowCount> {
    return this.#window(
      "SELECT count(*) AS count, min(created_at) AS oldest FROM web_logins " +
        "WHERE principal_ref = $1 AND created_at > $2",
      [principalRef, since],
    );
  }

  async useWebLogin(loginDigest: string, now: number): Promise<WebLoginRow | null> {
    // One conditional UPDATE: under READ COMMITTED a racing one re-checks used_at and finds it set.
    return this.#first<WebLoginRow>(
      "UPDATE web_logins SET used_at = $2 " +
        "WHERE login_digest = $1 AND used_at IS NULL AND expires_at > $2 " +
        `RETURNING ${WEB_LOGIN_COLUMNS}`,
      [loginDigest, now],
    );
  }

  async insertWebSession(row: WebSessionRow): Promise<void> {
    await this.#rows(
      "DELETE FROM web_sessions WHERE principal_ref = $1 AND (expires_at <= $2 OR ended_at <= $2)",
      [row.principal_ref, row.created_at],
    );
    await this.#rows(
      `INSERT INTO web_sessions (${WEB_SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        row.session_digest,
        row.principal_ref,
        row.team_ref,
        row.created_at,
        row.expires_at,
        row.ended_at,
      ],
    );
  }

  async getWebSession(sessionDigest: string): Promise<WebSessionRow | null> {
    return this.#first<WebSessionRow>(
      `SELECT ${WEB_SESSION_COLUMNS} FROM web_sessions WHERE session_digest = $1`,
      [sessionDigest],
    );
  }

  async endWebSession(sessionDigest: string, now: number): Promise<void> {
    await this.#rows(
      "UPDATE web_sessions SET ended_at = $2 WHERE session_digest = $1 AND ended_at IS NULL",
      [sessionDigest, now],
    );
  }

  async insertInvitation(row: InvitationRow): Promise<void> {
    await this.#rows(
      `INSERT INTO invitations (${INVITATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        row.invitation_id,
        row.team_ref,
        row.secret_digest,
        row.created_by,
        row.max_uses,
        row.uses,
        row.created_at,
        row.expires_at,
        row.last_used_at,
        row.revoked_at,
      ],
    );
  }

  async invitationByDigest(teamRef: string, secretDigest: string): Promise<InvitationRow | null> {
    return this.#first<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE team_ref = $1 AND secret_digest = $2`,
      [teamRef, secretDigest],
    );
  }

  async getInvitation(teamRef: string, invitationId: string): Promise<InvitationRow | null> {
    return this.#first<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE team_ref = $1 AND invitation_id = $2`,
      [teamRef, invitationId],
    );
  }

  async useInvitation(invitationId: string, now: number): Promise<boolean> {
    const used = await this.#count(
      "UPDATE invitations SET uses = uses + 1, last_used_at = $2 " +
        `WHERE invitation_id = $1 AND ${INVITATION_ACTIVE}`,
      [invitationId, now],
    );
    return used === 1;
  }

  async revokeInvitation(invitationId: string, now: number): Promise<boolean> {
    const revoked = await this.#count(
      `UPDATE invitations SET revoked_at = $2 WHERE invitation_id = $1 AND ${INVITATION_ACTIVE}`,
      [invitationId, now],
    );
    return revoked === 1;
  }

  async revokeActiveInvitations(teamRef: string, now: number): Promise<number> {
    return this.#count(
      `UPDATE invitations SET revoked_at = $2 WHERE team_ref = $1 AND ${INVITATION_ACTIVE}`,
      [teamRef, now],
    );
  }

  async listInvitations(teamRef: string, limit: number): Promise<InvitationRow[]> {
    return this.#rows<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE team_ref = $1 ` +
        "ORDER BY created_at DESC, seq DESC LIMIT $2",
      [teamRef, limit],
    );
  }

  async invitationsCreatedSince(teamRef: string, since: number): Promise<WindowCount> {
    return this.#window(
      "SELECT count(*) AS count, min(created_at) AS oldest FROM invitations " +
        "WHERE team_ref = $1 AND created_at > $2",
      [teamRef, since],
    );
  }

  async collectGarbage(bounds: GarbageBounds): Promise<GarbageCounts> {
    const acked = await this.#count(
      "DELETE FROM messages WHERE message_id IN " +
        "(SELECT message_id FROM acks WHERE acked_at <= $1 ORDER BY acked_at LIMIT $2)",
      [bounds.ackedBefore, bounds.limit],
    );
    const unacked = await this.#count(
      "DELETE FROM messages WHERE message_id IN " +
        "(SELECT message_id FROM inbox WHERE created_at <= $1 ORDER BY created_at LIMIT $2)",
      [bounds.unackedCreatedBefore, bounds.limit],
    );
    const sessions = await this.#count(
      "DELETE FROM sessions WHERE session_id IN (SELECT s.session_id FROM sessions s " +
        "WHERE least(coalesce(s.closed_at, s.lease_until), s.lease_until) <= $1 " +
        "AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.recipient_session_id = s.session_id) " +
        "AND NOT EXISTS (SELECT 1 FROM message_states st WHERE st.moved_to_session_id = s.session_id) LIMIT $2)",
      [bounds.sessionOfflineBefore, bounds.limit],
    );
    const joinFailures = await this.#count(
      "DELETE FROM join_failures WHERE id IN (SELECT id FROM join_failures WHERE at <= $1 ORDER BY at LIMIT $2)",
      [bounds.joinFailuresBefore, bounds.limit],
    );
    const invitations = await this.#count(
      "DELETE FROM invitations WHERE invitation_id IN (SELECT invitation_id FROM invitations " +
        "WHERE revoked_at <= $1 OR expires_at <= $1 OR (uses >= max_uses AND last_used_at <= $1) " +
        "LIMIT $2)",
      [bounds.invitationEndedBefore, bounds.limit],
    );
    // A team whose lock another unit holds (a join or a registration on its way) is left for the
    // next sweep; the lock taken here keeps such a unit waiting until the team is gone, so it
    // finds no team instead of writing a membership that names a deleted one. The candidates are
    // fixed first, so at most `limit` locks are tried whatever order the planner picks; once the
    // locks are held the next statement reads afresh and checks "unused" again, so a join that
    // committed between the candidates' snapshot and the lock keeps its team.
    const locked = await this.#rows<{ team_ref: string }>(
      "WITH candidates AS MATERIALIZED (SELECT t.team_ref FROM teams t " +
        `WHERE t.created_at <= $1 AND ${UNUSED_TEAM_SQL} LIMIT $2) ` +
        "SELECT team_ref FROM candidates " +
        "WHERE pg_try_advisory_xact_lock(brigade_lock_key('t', team_ref))",
      [bounds.unusedTeamCreatedBefore, bounds.limit],
    );
    const teams =
      locked.length === 0
        ? []
        : await this.#rows<{ team_ref: string }>(
            "WITH unused AS MATERIALIZED (SELECT t.team_ref FROM teams t " +
              `WHERE t.team_ref = ANY($1::text[]) AND ${UNUSED_TEAM_SQL}), ` +
              "members AS (DELETE FROM memberships WHERE team_ref IN (SELECT team_ref FROM unused)), " +
              "invited AS (DELETE FROM invitations WHERE team_ref IN (SELECT team_ref FROM unused)) " +
              "SELECT team_ref FROM unused",
            [locked.map((t) => t.team_ref)],
          );
    // The memberships and invitations went in the statement above; a team row can go only once
    // they are gone.
    if (teams.length > 0) {
      await this.#rows("DELETE FROM teams WHERE team_ref = ANY($1::text[])", [
        teams.map((t) => t.team_ref),
      ]);
    }
    const principals = await this.#count(
      "DELETE FROM principals WHERE principal_ref IN (SELECT p.principal_ref FROM principals p " +
        "WHERE p.created_at <= $1 " +
        "AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.principal_ref = p.principal_ref) " +
        "AND NOT EXISTS (SELECT 1 FROM teams t WHERE t.creator_principal_ref = p.principal_ref) LIMIT $2)",
      [bounds.unusedPrincipalCreatedBefore, bounds.limit],
    );
    return {
      messages: acked + unacked,
      sessions,
      join_failures: joinFailures,
      invitations,
      teams: teams.length,
      principals,
    };
  }
  async insertBlobContent(row: BlobContentRow): Promise<void> {
    await this.#rows(
      "INSERT INTO blob_contents (content_id, team_ref, sha256, size, created_at) VALUES ($1, $2, $3, $4, $5)",
      [row.content_id, row.team_ref, row.sha256, row.size, row.created_at],
    );
  }

  async putBlobChunk(contentId: string, seq: number, data: Uint8Array): Promise<void> {
    await this.#rows(
      "INSERT INTO blob_chunks (content_id, seq, data) VALUES ($1, $2, $3) " +
        "ON CONFLICT (content_id, seq) DO UPDATE SET data = excluded.data",
      [
        contentId,
        seq,
        Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      ],
    );
  }

  async blobChunk(contentId: string, seq: number): Promise<Uint8Array | null> {
    const row = await this.#first<{ data: Buffer }>(
      "SELECT data FROM blob_chunks WHERE content_id = $1 AND seq = $2",
      [contentId, seq],
    );
    return row?.data ?? null;
  }

  async deleteBlobContent(contentId: string): Promise<void> {
    await this.#rows("DELETE FROM blob_contents WHERE content_id = $1", [contentId]);
  }

  async teamBlobBytes(teamRef: string): Promise<number> {
    const row = await this.#first<{ bytes: number }>(
      "SELECT coalesce(sum(size), 0)::bigint AS bytes FROM blob_contents WHERE team_ref = $1",
      [teamRef],
    );
    return row?.bytes ?? 0;
  }

  async getBlob(teamRef: string, sha256: string): Promise<BlobRow | null> {
    return this.#first<BlobRow>(
      "SELECT team_ref, sha256, size, content_id, created_at FROM blobs WHERE team_ref = $1 AND sha256 = $2",
      [teamRef, sha256],
    );
  }

  async insertBlob(row: BlobRow): Promise<void> {
    await this.#rows(
      "INSERT INTO blobs (team_ref, sha256, size, content_id, created_at) VALUES ($1, $2, $3, $4, $5)",
      [row.team_ref, row.sha256, row.size, row.content_id, row.created_at],
    );
  }

  async putBlobUploader(
    teamRef: string,
    sha256: string,
    principalRef: string,
    at: number,
  ): Promise<void> {
    await this.#rows(
      "INSERT INTO blob_uploaders (team_ref, sha256, principal_ref, uploaded_at) VALUES ($1, $2, $3, $4) " +
        "ON CONFLICT (team_ref, sha256, principal_ref) DO UPDATE SET " +
        "uploaded_at = greatest(blob_uploaders.uploaded_at, excluded.uploaded_at)",
      [teamRef, sha256, principalRef, at],
    );
  }

  async blobUploaders(teamRef: string, sha256: string): Promise<BlobUploaderRow[]> {
    return this.#rows<BlobUploaderRow>(
      "SELECT principal_ref, uploaded_at FROM blob_uploaders WHERE team_ref = $1 AND sha256 = $2 " +
        "ORDER BY principal_ref",
      [teamRef, sha256],
    );
  }

  async blobNamedFor(teamRef: string, sha256: string, principalRef: string): Promise<boolean> {
    const row = await this.#first<{ named: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM message_attachments a " +
        "JOIN messages m ON m.message_id = a.message_id " +
        "JOIN sessions s ON s.session_id = m.recipient_session_id " +
        "WHERE a.team_ref = $1 AND a.sha256 = $2 AND s.principal_ref = $3) AS named",
      [teamRef, sha256, principalRef],
    );
    return row?.named === true;
  }

  async collectBlobs(bounds: BlobGarbageBounds): Promise<{ blobs: number; contents: number }> {
    // The blob rows go first (their uploaders with them), then the contents they named: a blob
    // row names its content, so the content can go only once the row is gone.
    const gone = await this.#rows<{ content_id: string }>(
      "DELETE FROM blobs WHERE (team_ref, sha256) IN (SELECT b.team_ref, b.sha256 FROM blobs b " +
        "WHERE NOT EXISTS (SELECT 1 FROM message_attachments a " +
        "WHERE a.team_ref = b.team_ref AND a.sha256 = b.sha256) " +
        "AND NOT EXISTS (SELECT 1 FROM blob_uploaders u WHERE u.team_ref = b.team_ref " +
        "AND u.sha256 = b.sha256 AND u.uploaded_at > $1) LIMIT $2) RETURNING content_id",
      [bounds.unnamedUploadedBefore, bounds.limit],
    );
    if (gone.length > 0) {
      await this.#rows("DELETE FROM blob_contents WHERE content_id = ANY($1::text[])", [
        gone.map((g) => g.content_id),
      ]);
    }
    const contents = await this.#count(
      "DELETE FROM blob_contents WHERE content_id IN (SELECT c.content_id FROM blob_contents c " +
        "WHERE c.created_at <= $1 AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.content_id = c.content_id) " +
        "LIMIT $2)",
      [bounds.staleContentBefore, bounds.limit],
    );
    return { blobs: gone.length, contents };
  }
}
