import type Database from "better-sqlite3";
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

const SESSION_COLUMNS =
  "session_id, team_ref, principal_ref, session_name, activity, inbound, session_description, " +
  "workspace_label, model, context_used_tokens, brigade_version, sync_peer, live_delivery, live_delivery_at, " +
  "harness, harness_version, lease_seconds, lease_until, last_seen_at, created_at, closed_at";

/** The columns of a {@link MessageRow}; `attachments` is JSON text (`attachment-column.ts`). */
const MESSAGE_COLUMNS =
  "message_id, team_ref, sender_principal_ref, sender_session_id, sender_session_name, " +
  "sender_human_label, recipient_session_id, summary, body, reply_to, hop_count, created_at, " +
  "acked_at, idempotency_key, attachments";

const INVITATION_COLUMNS =
  "invitation_id, team_ref, secret_digest, created_by, max_uses, uses, created_at, expires_at, " +
  "last_used_at, revoked_at";

/** An invitation that still admits: not revoked, not expired at `@now`, uses left. */
const INVITATION_ACTIVE = "revoked_at IS NULL AND expires_at > @now AND uses < max_uses";

const STATE_COLUMNS = "sent_to_session_id, disposition, disposition_at, released_at";

const SENT_SELECT =
  "SELECT m.message_id, m.recipient_session_id, m.sent_to_session_id, m.summary, m.created_at, " +
  "m.acked_at, m.disposition, m.disposition_at, m.released_at, s.closed_at AS recipient_closed_at, " +
  "s.lease_until AS recipient_lease_until, m.attachments FROM messages m " +
  "JOIN sessions s ON s.session_id = m.recipient_session_id";

/** A dashboard message: {@link SENT_SELECT}'s columns, both ends' people and the body. */
const PERSON_SELECT =
  "SELECT m.seq, m.message_id, m.recipient_session_id, m.sent_to_session_id, m.summary, " +
  "m.created_at, m.acked_at, m.disposition, m.disposition_at, s.closed_at AS recipient_closed_at, " +
  "s.lease_until AS recipient_lease_until, m.sender_principal_ref, m.sender_session_id, " +
  "m.sender_session_name, m.sender_human_label, s.principal_ref AS recipient_principal_ref, " +
  "s.session_name AS recipient_session_name, m.body, m.released_at, m.attachments FROM messages m " +
  "JOIN sessions s ON s.session_id = m.recipient_session_id";

const WEB_LOGIN_COLUMNS = "login_digest, principal_ref, team_ref, created_at, expires_at, used_at";

const WEB_SESSION_COLUMNS =
  "session_digest, principal_ref, team_ref, created_at, expires_at, ended_at";

/** `@name` parameters for every column in `columns`. */
function named(columns: string): string {
  return columns
    .split(",")
    .map((c) => `@${c.trim()}`)
    .join(", ");
}

/** The prepared statements of one connection, prepared once and reused by every unit. */
function prepareAll(db: Database.Database) {
  const sessionAssignments = SESSION_COLUMNS.split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "session_id")
    .map((c) => `${c} = @${c}`)
    .join(", ");
  return {
    insertPrincipal: db.prepare(
      "INSERT INTO principals (principal_ref, token_digest, created_at) VALUES (@principal_ref, @token_digest, @created_at)",
    ),
    principalByToken: db.prepare("SELECT principal_ref FROM principals WHERE token_digest = ?"),
    replacePrincipalToken: db.prepare(
      "UPDATE principals SET token_digest = ? WHERE principal_ref = ? AND token_digest = ?",
    ),
    insertTeam: db.prepare(
      "INSERT INTO teams (team_ref, team_name, secret_digest, creator_principal_ref, " +
        "offered_to_principal_ref, offer_expires_at, created_at) VALUES (@team_ref, @team_name, " +
        "@secret_digest, @creator_principal_ref, @offered_to_principal_ref, @offer_expires_at, " +
        "@created_at)",
    ),
    getTeam: db.prepare(
      "SELECT team_ref, team_name, secret_digest, creator_principal_ref, offered_to_principal_ref, " +
        "offer_expires_at, created_at FROM teams WHERE team_ref = ?",
    ),
    markTeamUsed: db.prepare("UPDATE teams SET used_at = ? WHERE team_ref = ? AND used_at IS NULL"),
    teamsCreatedSince: db.prepare(
      "SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM teams WHERE creator_principal_ref = ? AND created_at > ?",
    ),
    updateTeam: db.prepare(
      "UPDATE teams SET secret_digest = @secret_digest, creator_principal_ref = @creator_principal_ref, " +
        "offered_to_principal_ref = @offered_to_principal_ref, offer_expires_at = @offer_expires_at " +
        "WHERE team_ref = @team_ref",
    ),
    getMembership: db.prepare(
      "SELECT team_ref, principal_ref, human_label, status, joined_at, updated_at FROM memberships " +
        "WHERE team_ref = ? AND principal_ref = ?",
    ),
    putMembership: db.prepare(
      "INSERT INTO memberships (team_ref, principal_ref, human_label, status, joined_at, updated_at) " +
        "VALUES (@team_ref, @principal_ref, @human_label, @status, @joined_at, @updated_at) " +
        "ON CONFLICT (team_ref, principal_ref) DO UPDATE SET human_label = excluded.human_label, " +
        "status = excluded.status, joined_at = excluded.joined_at, updated_at = excluded.updated_at",
    ),
    listActiveMembers: db.prepare(
      "SELECT m.principal_ref, m.human_label, m.joined_at, " +
        "(SELECT MAX(s.last_seen_at) FROM sessions s WHERE s.team_ref = m.team_ref AND s.principal_ref = m.principal_ref) AS last_seen_at, " +
        "(SELECT COUNT(*) FROM sessions s WHERE s.team_ref = m.team_ref AND s.principal_ref = m.principal_ref " +
        "AND s.closed_at IS NULL AND s.lease_until >= @now) AS live_session_count " +
        "FROM memberships m WHERE m.team_ref = @team_ref AND m.status = 'active' " +
        "ORDER BY m.joined_at, m.principal_ref",
    ),
    recordJoinFailure: db.prepare("INSERT INTO join_failures (principal_ref, at) VALUES (?, ?)"),
    joinFailuresSince: db.prepare(
      "SELECT COUNT(*) AS count, MIN(at) AS oldest FROM join_failures WHERE principal_ref = ? AND at > ?",
    ),
    insertSession: db.prepare(
      `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (${named(SESSION_COLUMNS)})`,
    ),
    getSession: db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_id = ?`),
    updateSession: db.prepare(
      `UPDATE sessions SET ${sessionAssignments} WHERE session_id = @session_id`,
    ),
    updateOpenSession: db.prepare(
      `UPDATE sessions SET ${sessionAssignments} WHERE session_id = @session_id AND closed_at IS NULL`,
    ),
    listSessionsAll: db.prepare(
      `SELECT ${SESSION_COLUMNS.split(",")
        .map((c) => `s.${c.trim()}`)
        .join(", ")}, m.human_label FROM sessions s ` +
        "JOIN memberships m ON m.team_ref = s.team_ref AND m.principal_ref = s.principal_ref " +
        "WHERE s.team_ref = @team_ref AND m.status = 'active' " +
        "ORDER BY s.created_at, s.rowid LIMIT @limit",
    ),
    listSessionsLive: db.prepare(
      `SELECT ${SESSION_COLUMNS.split(",")
        .map((c) => `s.${c.trim()}`)
        .join(", ")}, m.human_label FROM sessions s ` +
        "JOIN memberships m ON m.team_ref = s.team_ref AND m.principal_ref = s.principal_ref " +
        "WHERE s.team_ref = @team_ref AND m.status = 'active' AND s.closed_at IS NULL AND s.lease_until >= @now " +
        "ORDER BY s.created_at, s.rowid LIMIT @limit",
    ),
    openSessionsOf: db.prepare(
      "SELECT session_id FROM sessions WHERE team_ref = ? AND principal_ref = ? AND closed_at IS NULL ORDER BY created_at, session_id",
    ),
    closeSession: db.prepare(
      "UPDATE sessions SET closed_at = ? WHERE session_id = ? AND closed_at IS NULL",
    ),
    sessionsCreatedSince: db.prepare(
      "SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM sessions WHERE principal_ref = ? AND created_at > ?",
    ),
    insertMessage: db.prepare(
      `INSERT INTO messages (${MESSAGE_COLUMNS}, ${STATE_COLUMNS}) ` +
        `VALUES (${named(MESSAGE_COLUMNS)}, ${named(STATE_COLUMNS)})`,
    ),
    getMessage: db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE message_id = ?`),
    messageByKey: db.prepare(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE sender_session_id = ? AND idempotency_key = ?`,
    ),
    sentBySession: db.prepare(
      "SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM messages WHERE sender_session_id = ? AND created_at > ?",
    ),
    sentByPrincipal: db.prepare(
      "SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM messages WHERE sender_principal_ref = ? AND created_at > ?",
    ),
    unackedFromTo: db.prepare(
      "SELECT COUNT(*) AS count FROM messages WHERE recipient_session_id = ? AND sender_session_id = ? AND acked_at IS NULL",
    ),
    unackedFor: db.prepare(
      "SELECT COUNT(*) AS count FROM messages WHERE recipient_session_id = ? AND acked_at IS NULL",
    ),
    latestHop: db.prepare(
      "SELECT hop_count FROM messages WHERE sender_session_id = ? AND recipient_session_id = ? AND created_at > ? " +
        "ORDER BY created_at DESC, seq DESC LIMIT 1",
    ),
    listUnacked: db.prepare(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE recipient_session_id = ? AND acked_at IS NULL ORDER BY seq LIMIT ?`,
    ),
    ackMessage: db.prepare(
      "UPDATE messages SET acked_at = COALESCE(acked_at, @now) WHERE message_id = @message_id AND recipient_session_id = @recipient",
    ),
    sentLatest: db.prepare(
      `${SENT_SELECT} WHERE m.sender_session_id = ? ORDER BY m.created_at DESC, m.seq DESC LIMIT ?`,
    ),
    sentLatestByPrincipal: db.prepare(
      `SELECT m.sender_session_id, ${SENT_SELECT.slice("SELECT ".length)} ` +
        "WHERE m.sender_principal_ref = ? AND m.team_ref = ? ORDER BY m.created_at DESC, m.seq DESC LIMIT ?",
    ),
    sentById: db.prepare(`${SENT_SELECT} WHERE m.message_id = ? AND m.sender_session_id = ?`),
    setDisposition: db.prepare(
      "UPDATE messages SET disposition_at = CASE WHEN disposition IS @disposition THEN disposition_at ELSE @at END, " +
        "disposition = @disposition " +
        "WHERE message_id = @message_id AND recipient_session_id = @recipient AND acked_at IS NULL",
    ),
    adoptable: db.prepare(
      "SELECT message_id FROM messages WHERE recipient_session_id = ? AND acked_at IS NULL ORDER BY seq LIMIT ?",
    ),
    adoptOne: db.prepare(
      "UPDATE messages SET recipient_session_id = @to, " +
        "sent_to_session_id = COALESCE(sent_to_session_id, recipient_session_id), " +
        "disposition = 'held', disposition_at = @at WHERE message_id = @message_id",
    ),
    personMessages: db.prepare(
      `SELECT * FROM (${PERSON_SELECT} WHERE m.team_ref = @team AND m.sender_principal_ref = @principal ` +
        `UNION ALL ${PERSON_SELECT} WHERE m.team_ref = @team AND s.principal_ref = @principal ` +
        "AND m.sender_principal_ref <> @principal) ORDER BY created_at DESC, seq DESC LIMIT @limit",
    ),
    releaseMessage: db.prepare(
      "UPDATE messages SET released_at = COALESCE(released_at, @at) WHERE message_id = @message_id " +
        "AND recipient_session_id = @recipient AND acked_at IS NULL AND disposition = 'held'",
    ),
    releasedFor: db.prepare(
      "SELECT message_id FROM messages WHERE recipient_session_id = ? AND acked_at IS NULL " +
        "AND released_at IS NOT NULL ORDER BY seq LIMIT ?",
    ),
    deleteOldWebLogins: db.prepare(
      "DELETE FROM web_logins WHERE principal_ref = ? AND expires_at <= ?",
    ),
    insertWebLogin: db.prepare(
      `INSERT INTO web_logins (${WEB_LOGIN_COLUMNS}) VALUES (${named(WEB_LOGIN_COLUMNS)})`,
    ),
    webLoginsSince: db.prepare(
      "SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM web_logins " +
        "WHERE principal_ref = ? AND created_at > ?",
    ),
    useWebLogin: db.prepare(
      "UPDATE web_logins SET used_at = @now " +
        "WHERE login_digest = @digest AND used_at IS NULL AND expires_at > @now " +
        `RETURNING ${WEB_LOGIN_COLUMNS}`,
    ),
    deleteOldWebSessions: db.prepare(
      "DELETE FROM web_sessions WHERE principal_ref = @principal " +
        "AND (expires_at <= @now OR ended_at <= @now)",
    ),
    insertWebSession: db.prepare(
      `INSERT INTO web_sessions (${WEB_SESSION_COLUMNS}) VALUES (${named(WEB_SESSION_COLUMNS)})`,
    ),
    getWebSession: db.prepare(
      `SELECT ${WEB_SESSION_COLUMNS} FROM web_sessions WHERE session_digest = ?`,
    ),
    endWebSession: db.prepare(
      "UPDATE web_sessions SET ended_at = @now WHERE session_digest = @digest AND ended_at IS NULL",
    ),
    gcAcked: db.prepare(
      "DELETE FROM messages WHERE seq IN (SELECT seq FROM messages WHERE acked_at IS NOT NULL AND acked_at <= ? LIMIT ?)",
    ),
    gcUnacked: db.prepare(
      "DELETE FROM messages WHERE seq IN (SELECT seq FROM messages WHERE acked_at IS NULL AND created_at <= ? LIMIT ?)",
    ),
    gcSessions: db.prepare(
      "DELETE FROM sessions WHERE session_id IN (SELECT s.session_id FROM sessions s " +
        "WHERE (CASE WHEN s.closed_at IS NULL THEN s.lease_until ELSE MIN(s.closed_at, s.lease_until) END) <= @bound " +
        "AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.recipient_session_id = s.session_id) LIMIT @limit)",
    ),
    gcUnusedTeams: db.prepare(
      "SELECT t.team_ref FROM teams t WHERE t.used_at IS NULL AND t.created_at <= ? " +
        "AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.team_ref = t.team_ref) " +
        "AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.team_ref = t.team_ref " +
        "AND m.principal_ref <> t.creator_principal_ref) LIMIT ?",
    ),
    deleteMemberships: db.prepare("DELETE FROM memberships WHERE team_ref = ?"),
    deleteTeam: db.prepare("DELETE FROM teams WHERE team_ref = ?"),
    gcUnusedPrincipals: db.prepare(
      "DELETE FROM principals WHERE principal_ref IN (SELECT p.principal_ref FROM principals p " +
        "WHERE p.created_at <= ? " +
        "AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.principal_ref = p.principal_ref) " +
        "AND NOT EXISTS (SELECT 1 FROM teams t WHERE t.creator_principal_ref = p.principal_ref) LIMIT ?)",
    ),
    insertInvitation: db.prepare(
      `INSERT INTO invitations (${INVITATION_COLUMNS}) VALUES (${named(INVITATION_COLUMNS)})`,
    ),
    invitationByDigest: db.prepare(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE team_ref = ? AND secret_digest = ?`,
    ),
    getInvitation: db.prepare(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE team_ref = ? AND invitation_id = ?`,
    ),
    useInvitation: db.prepare(
      "UPDATE invitations SET uses = uses + 1, last_used_at = @now " +
        `WHERE invitation_id = @id AND ${INVITATION_ACTIVE}`,
    ),
    revokeInvitation: db.prepare(
      `UPDATE invitations SET revoked_at = @now WHERE invitation_id = @id AND ${INVITATION_ACTIVE}`,
    ),
    revokeActiveInvitations: db.prepare(
      `UPDATE invitations SET revoked_at = @now WHERE team_ref = @team AND ${INVITATION_ACTIVE}`,
    ),
    listInvitations: db.prepare(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE team_ref = ? ` +
        "ORDER BY created_at DESC, rowid DESC LIMIT ?",
    ),
    invitationsCreatedSince: db.prepare(
      "SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM invitations " +
        "WHERE team_ref = ? AND created_at > ?",
    ),
    gcInvitations: db.prepare(
      "DELETE FROM invitations WHERE invitation_id IN (SELECT invitation_id FROM invitations " +
        "WHERE revoked_at <= @bound OR expires_at <= @bound " +
        "OR (uses >= max_uses AND last_used_at <= @bound) LIMIT @limit)",
    ),
    deleteTeamInvitations: db.prepare("DELETE FROM invitations WHERE team_ref = ?"),
    gcJoinFailures: db.prepare(
      "DELETE FROM join_failures WHERE id IN (SELECT id FROM join_failures WHERE at <= ? LIMIT ?)",
    ),
    insertAttachmentLink: db.prepare(
      "INSERT INTO message_attachments (message_id, position, team_ref, sha256) VALUES (?, ?, ?, ?)",
    ),
    insertBlobContent: db.prepare(
      "INSERT INTO blob_contents (content_id, team_ref, sha256, size, created_at) " +
        "VALUES (@content_id, @team_ref, @sha256, @size, @created_at)",
    ),
    putBlobChunk: db.prepare(
      "INSERT INTO blob_chunks (content_id, seq, data) VALUES (?, ?, ?) " +
        "ON CONFLICT (content_id, seq) DO UPDATE SET data = excluded.data",
    ),
    blobChunk: db.prepare("SELECT data FROM blob_chunks WHERE content_id = ? AND seq = ?").pluck(),
    deleteBlobContent: db.prepare("DELETE FROM blob_contents WHERE content_id = ?"),
    teamBlobBytes: db
      .prepare("SELECT COALESCE(SUM(size), 0) FROM blob_contents WHERE team_ref = ?")
      .pluck(),
    getBlob: db.prepare(
      "SELECT team_ref, sha256, size, content_id, created_at FROM blobs WHERE team_ref = ? AND sha256 = ?",
    ),
    insertBlob: db.prepare(
      "INSERT INTO blobs (team_ref, sha256, size, content_id, created_at) " +
        "VALUES (@team_ref, @sha256, @size, @content_id, @created_at)",
    ),
    putBlobUploader: db.prepare(
      "INSERT INTO blob_uploaders (team_ref, sha256, principal_ref, uploaded_at) VALUES (?, ?, ?, ?) " +
        "ON CONFLICT (team_ref, sha256, principal_ref) DO UPDATE SET " +
        "uploaded_at = MAX(uploaded_at, excluded.uploaded_at)",
    ),
    blobUploaders: db.prepare(
      "SELECT principal_ref, uploaded_at FROM blob_uploaders WHERE team_ref = ? AND sha256 = ? " +
        "ORDER BY principal_ref",
    ),
    blobNamedFor: db
      .prepare(
        "SELECT EXISTS (SELECT 1 FROM message_attachments a " +
          "JOIN messages m ON m.message_id = a.message_id " +
          "JOIN sessions s ON s.session_id = m.recipient_session_id " +
          "WHERE a.team_ref = ? AND a.sha256 = ? AND s.principal_ref = ?)",
      )
      .pluck(),
    unneededBlobs: db.prepare(
      "SELECT b.team_ref, b.sha256, b.content_id FROM blobs b " +
        "WHERE NOT EXISTS (SELECT 1 FROM message_attachments a " +
        "WHERE a.team_ref = b.team_ref AND a.sha256 = b.sha256) " +
        "AND NOT EXISTS (SELECT 1 FROM blob_uploaders u WHERE u.team_ref = b.team_ref " +
        "AND u.sha256 = b.sha256 AND u.uploaded_at > ?) LIMIT ?",
    ),
    deleteBlob: db.prepare("DELETE FROM blobs WHERE team_ref = ? AND sha256 = ?"),
    staleContents: db.prepare(
      "DELETE FROM blob_contents WHERE content_id IN (SELECT c.content_id FROM blob_contents c " +
        "WHERE c.created_at <= ? AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.content_id = c.content_id) " +
        "LIMIT ?)",
    ),
  };
}

type SqliteStatements = ReturnType<typeof prepareAll>;

/** A message row as read, its `attachments` column turned into the list (`null` when none). */
function messageRow(row: unknown): MessageRow | null {
  return row === undefined ? null : withAttachments(row as MessageRow);
}

/** A `Buffer` over the same bytes (better-sqlite3 binds a Buffer as a BLOB). */
function bufferOf(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function windowCount(row: unknown): WindowCount {
  const r = row as { count: number; oldest: number | null };
  return { count: r.count, oldest: r.oldest };
}

/**
 * {@link StoreTx} over one better-sqlite3 connection. Statements run synchronously; the caller
 * (the group committer) owns the surrounding transaction and savepoints.
 */
export class SqliteTx implements StoreTx {
  readonly #s: SqliteStatements;

  /** Prepares every statement once on `db`; the connection must already be migrated. */
  constructor(db: Database.Database) {
    this.#s = prepareAll(db);
  }

  /** Nothing to do: the group committer runs one unit at a time. */
  async lockTeam(_teamRef: string): Promise<void> {}

  /** Nothing to do: the group committer runs one unit at a time. */
  async lockSend(_principalRef: string, _recipientSessionId: string): Promise<void> {}

  async insertPrincipal(row: PrincipalRow): Promise<void> {
    this.#s.insertPrincipal.run(row);
  }

  async principalByTokenDigest(tokenDigest: string): Promise<string | null> {
    const row = this.#s.principalByToken.get(tokenDigest) as { principal_ref: string } | undefined;
    return row?.principal_ref ?? null;
  }

  async replacePrincipalToken(
    principalRef: string,
    fromDigest: string,
    toDigest: string,
  ): Promise<boolean> {
    return this.#s.replacePrincipalToken.run(toDigest, principalRef, fromDigest).changes > 0;
  }

  async insertTeam(row: TeamRow): Promise<void> {
    this.#s.insertTeam.run(row);
  }

  async getTeam(teamRef: string): Promise<TeamRow | null> {
    return (this.#s.getTeam.get(teamRef) as TeamRow | undefined) ?? null;
  }

  async markTeamUsed(teamRef: string, at: number): Promise<void> {
    this.#s.markTeamUsed.run(at, teamRef);
  }

  async teamsCreatedSince(principalRef: string, since: number): Promise<WindowCount> {
    return windowCount(this.#s.teamsCreatedSince.get(principalRef, since));
  }

  async updateTeam(row: TeamRow): Promise<void> {
    this.#s.updateTeam.run({
      team_ref: row.team_ref,
      secret_digest: row.secret_digest,
      creator_principal_ref: row.creator_principal_ref,
      offered_to_principal_ref: row.offered_to_principal_ref,
      offer_expires_at: row.offer_expires_at,
    });
  }

  async getMembership(teamRef: string, principalRef: string): Promise<MembershipRow | null> {
    return (this.#s.getMembership.get(teamRef, principalRef) as MembershipRow | undefined) ?? null;
  }

  async putMembership(row: MembershipRow): Promise<void> {
    this.#s.putMembership.run(row);
  }

  async listActiveMembers(teamRef: string, now: number): Promise<MemberSummaryRow[]> {
    return this.#s.listActiveMembers.all({ team_ref: teamRef, now }) as MemberSummaryRow[];
  }

  async recordJoinFailure(principalRef: string, at: number): Promise<void> {
    this.#s.recordJoinFailure.run(principalRef, at);
  }

  async joinFailuresSince(principalRef: string, since: number): Promise<WindowCount> {
    return windowCount(this.#s.joinFailuresSince.get(principalRef, since));
  }

  async insertSession(row: SessionRow): Promise<void> {
    this.#s.insertSession.run(row);
  }

  async getSession(sessionId: string): Promise<SessionRow | null> {
    return (this.#s.getSession.get(sessionId) as SessionRow | undefined) ?? null;
  }

  async lockSessionRow(_sessionId: string): Promise<void> {
    // Every unit runs inside one `BEGIN IMMEDIATE` on the single connection: nothing interleaves.
  }

  async updateSession(row: SessionRow): Promise<void> {
    this.#s.updateSession.run(row);
  }

  async updateOpenSession(row: SessionRow): Promise<boolean> {
    return this.#s.updateOpenSession.run(row).changes > 0;
  }

  async listTeamSessions(
    teamRef: string,
    options: { now: number; includeOffline: boolean; limit: number },
  ): Promise<SessionListRow[]> {
    const statement = options.includeOffline ? this.#s.listSessionsAll : this.#s.listSessionsLive;
    const params = options.includeOffline
      ? { team_ref: teamRef, limit: options.limit }
      : { team_ref: teamRef, limit: options.limit, now: options.now };
    return statement.all(params) as SessionListRow[];
  }

  async closeOpenSessions(teamRef: string, principalRef: string, now: number): Promise<string[]> {
    const rows = this.#s.openSessionsOf.all(teamRef, principalRef) as { session_id: string }[];
    for (const row of rows) this.#s.closeSession.run(now, row.session_id);
    return rows.map((r) => r.session_id);
  }

  async sessionsCreatedSince(principalRef: string, since: number): Promise<WindowCount> {
    return windowCount(this.#s.sessionsCreatedSince.get(principalRef, since));
  }

  async insertMessage(row: MessageRow, state?: MessageStateColumns): Promise<void> {
    this.#s.insertMessage.run({
      ...row,
      attachments: attachmentsColumn(row.attachments),
      sent_to_session_id: state?.sent_to_session_id ?? null,
      disposition: state?.disposition ?? null,
      disposition_at: state?.disposition_at ?? null,
      released_at: state?.released_at ?? null,
    });
    for (const [position, attachment] of (row.attachments ?? []).entries()) {
      this.#s.insertAttachmentLink.run(row.message_id, position, row.team_ref, attachment.sha256);
    }
  }

  async getMessage(messageId: string): Promise<MessageRow | null> {
    return messageRow(this.#s.getMessage.get(messageId));
  }

  async messageByIdempotencyKey(senderSessionId: string, key: string): Promise<MessageRow | null> {
    return messageRow(this.#s.messageByKey.get(senderSessionId, key));
  }

  async sentBySessionSince(senderSessionId: string, since: number): Promise<WindowCount> {
    return windowCount(this.#s.sentBySession.get(senderSessionId, since));
  }

  async sentByPrincipalSince(principalRef: string, since: number): Promise<WindowCount> {
    return windowCount(this.#s.sentByPrincipal.get(principalRef, since));
  }

  async unackedFromTo(senderSessionId: string, recipientSessionId: string): Promise<number> {
    return (this.#s.unackedFromTo.get(recipientSessionId, senderSessionId) as { count: number })
      .count;
  }

  async unackedFor(recipientSessionId: string): Promise<number> {
    return (this.#s.unackedFor.get(recipientSessionId) as { count: number }).count;
  }

  async latestHopCount(
    fromSessionId: string,
    toSessionId: string,
    since: number,
  ): Promise<number | null> {
    const row = this.#s.latestHop.get(fromSessionId, toSessionId, since) as
      | { hop_count: number }
      | undefined;
    return row?.hop_count ?? null;
  }

  async listUnacked(recipientSessionId: string, limit: number): Promise<MessageRow[]> {
    return (this.#s.listUnacked.all(recipientSessionId, limit) as MessageRow[]).map(
      withAttachments,
    );
  }

  async ackMessage(messageId: string, recipientSessionId: string, now: number): Promise<boolean> {
    const info = this.#s.ackMessage.run({
      message_id: messageId,
      recipient: recipientSessionId,
      now,
    });
    return info.changes > 0;
  }

  async sentMessages(senderSessionId: string, query: SentMessagesQuery): Promise<SentMessageRow[]> {
    if ("limit" in query) {
      return this.#s.sentLatest.all(senderSessionId, query.limit) as SentMessageRow[];
    }
    const rows: SentMessageRow[] = [];
    for (const id of new Set(query.messageIds)) {
      const row = this.#s.sentById.get(id, senderSessionId) as SentMessageRow | undefined;
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }

  async sentByPrincipal(
    teamRef: string,
    principalRef: string,
    limit: number,
  ): Promise<PrincipalSentRow[]> {
    return this.#s.sentLatestByPrincipal.all(principalRef, teamRef, limit) as PrincipalSentRow[];
  }

  async setDisposition(
    messageId: string,
    recipientSessionId: string,
    disposition: MessageDisposition,
    at: number,
  ): Promise<boolean> {
    const info = this.#s.setDisposition.run({
      message_id: messageId,
      recipient: recipientSessionId,
      disposition,
      at,
    });
    return info.changes > 0;
  }

  async adoptMessages(
    fromSessionId: string,
    toSessionId: string,
    at: number,
    limit: number,
  ): Promise<MessageRow[]> {
    const ids = this.#s.adoptable.all(fromSessionId, limit) as { message_id: string }[];
    const moved: MessageRow[] = [];
    for (const { message_id } of ids) {
      this.#s.adoptOne.run({ to: toSessionId, at, message_id });
      const row = messageRow(this.#s.getMessage.get(message_id));
      if (row !== null) moved.push(row);
    }
    return moved;
  }

  async personMessages(
    teamRef: string,
    principalRef: string,
    limit: number,
  ): Promise<PersonMessageRow[]> {
    const rows = this.#s.personMessages.all({
      team: teamRef,
      principal: principalRef,
      limit,
    }) as Array<PersonMessageRow & { seq?: number }>;
    return rows.map(({ seq: _seq, ...row }) => withAttachments(row));
  }

  async releaseMessage(
    messageId: string,
    recipientSessionId: string,
    at: number,
  ): Promise<boolean> {
    const info = this.#s.releaseMessage.run({
      message_id: messageId,
      recipient: recipientSessionId,
      at,
    });
    return info.changes > 0;
  }

  async releasedFor(recipientSessionId: string, limit: number): Promise<string[]> {
    const rows = this.#s.releasedFor.all(recipientSessionId, limit) as { message_id: string }[];
    return rows.map((r) => r.message_id);
  }

  async insertWebLogin(row: WebLoginRow): Promise<void> {
    this.#s.deleteOldWebLogins.run(row.principal_ref, row.created_at);
    this.#s.insertWebLogin.run(row);
  }

  async webLoginsSince(principalRef: string, since: number): Promise<WindowCount> {
    return windowCount(this.#s.webLoginsSince.get(principalRef, since));
  }

  async useWebLogin(loginDigest: string, now: number): Promise<WebLoginRow | null> {
    return (
      (this.#s.useWebLogin.get({ digest: loginDigest, now }) as WebLoginRow | undefined) ?? null
    );
  }

  async insertWebSession(row: WebSessionRow): Promise<void> {
    this.#s.deleteOldWebSessions.run({ principal: row.principal_ref, now: row.created_at });
    this.#s.insertWebSession.run(row);
  }

  async getWebSession(sessionDigest: string): Promise<WebSessionRow | null> {
    return (this.#s.getWebSession.get(sessionDigest) as WebSessionRow | undefined) ?? null;
  }

  async endWebSession(sessionDigest: string, now: number): Promise<void> {
    this.#s.endWebSession.run({ digest: sessionDigest, now });
  }

  async insertInvitation(row: InvitationRow): Promise<void> {
    this.#s.insertInvitation.run(row);
  }

  async invitationByDigest(teamRef: string, secretDigest: string): Promise<InvitationRow | null> {
    return (
      (this.#s.invitationByDigest.get(teamRef, secretDigest) as InvitationRow | undefined) ?? null
    );
  }

  async getInvitation(teamRef: string, invitationId: string): Promise<InvitationRow | null> {
    return (this.#s.getInvitation.get(teamRef, invitationId) as InvitationRow | undefined) ?? null;
  }

  async useInvitation(invitationId: string, now: number): Promise<boolean> {
    return this.#s.useInvitation.run({ id: invitationId, now }).changes === 1;
  }

  async revokeInvitation(invitationId: string, now: number): Promise<boolean> {
    return this.#s.revokeInvitation.run({ id: invitationId, now }).changes === 1;
  }

  async revokeActiveInvitations(teamRef: string, now: number): Promise<number> {
    return this.#s.revokeActiveInvitations.run({ team: teamRef, now }).changes;
  }

  async listInvitations(teamRef: string, limit: number): Promise<InvitationRow[]> {
    return this.#s.listInvitations.all(teamRef, limit) as InvitationRow[];
  }

  async invitationsCreatedSince(teamRef: string, since: number): Promise<WindowCount> {
    return windowCount(this.#s.invitationsCreatedSince.get(teamRef, since));
  }

  async collectGarbage(bounds: GarbageBounds): Promise<GarbageCounts> {
    const acked = this.#s.gcAcked.run(bounds.ackedBefore, bounds.limit).changes;
    const unacked = this.#s.gcUnacked.run(bounds.unackedCreatedBefore, bounds.limit).changes;
    const sessions = this.#s.gcSessions.run({
      bound: bounds.sessionOfflineBefore,
      limit: bounds.limit,
    }).changes;
    const joinFailures = this.#s.gcJoinFailures.run(
      bounds.joinFailuresBefore,
      bounds.limit,
    ).changes;
    const unusedTeams = this.#s.gcUnusedTeams.all(bounds.unusedTeamCreatedBefore, bounds.limit) as {
      team_ref: string;
    }[];
    const invitations = this.#s.gcInvitations.run({
      bound: bounds.invitationEndedBefore,
      limit: bounds.limit,
    }).changes;
    for (const { team_ref } of unusedTeams) {
      this.#s.deleteTeamInvitations.run(team_ref);
      this.#s.deleteMemberships.run(team_ref);
      this.#s.deleteTeam.run(team_ref);
    }
    const principals = this.#s.gcUnusedPrincipals.run(
      bounds.unusedPrincipalCreatedBefore,
      bounds.limit,
    ).changes;
    return {
      messages: acked + unacked,
      sessions,
      join_failures: joinFailures,
      invitations,
      teams: unusedTeams.length,
      principals,
    };
  }
  async insertBlobContent(row: BlobContentRow): Promise<void> {
    this.#s.insertBlobContent.run(row);
  }

  async putBlobChunk(contentId: string, seq: number, data: Uint8Array): Promise<void> {
    this.#s.putBlobChunk.run(contentId, seq, bufferOf(data));
  }

  async blobChunk(contentId: string, seq: number): Promise<Uint8Array | null> {
    return (this.#s.blobChunk.get(contentId, seq) as Buffer | undefined) ?? null;
  }

  async deleteBlobContent(contentId: string): Promise<void> {
    this.#s.deleteBlobContent.run(contentId);
  }

  async teamBlobBytes(teamRef: string): Promise<number> {
    return this.#s.teamBlobBytes.get(teamRef) as number;
  }

  async getBlob(teamRef: string, sha256: string): Promise<BlobRow | null> {
    return (this.#s.getBlob.get(teamRef, sha256) as BlobRow | undefined) ?? null;
  }

  async insertBlob(row: BlobRow): Promise<void> {
    this.#s.insertBlob.run(row);
  }

  async putBlobUploader(
    teamRef: string,
    sha256: string,
    principalRef: string,
    at: number,
  ): Promise<void> {
    this.#s.putBlobUploader.run(teamRef, sha256, principalRef, at);
  }

  async blobUploaders(teamRef: string, sha256: string): Promise<BlobUploaderRow[]> {
    return this.#s.blobUploaders.all(teamRef, sha256) as BlobUploaderRow[];
  }

  async blobNamedFor(teamRef: string, sha256: string, principalRef: string): Promise<boolean> {
    return this.#s.blobNamedFor.get(teamRef, sha256, principalRef) === 1;
  }

  async collectBlobs(bounds: BlobGarbageBounds): Promise<{ blobs: number; contents: number }> {
    const unneeded = this.#s.unneededBlobs.all(bounds.unnamedUploadedBefore, bounds.limit) as {
      team_ref: string;
      sha256: string;
      content_id: string;
    }[];
    for (const blob of unneeded) {
      this.#s.deleteBlob.run(blob.team_ref, blob.sha256);
      this.#s.deleteBlobContent.run(blob.content_id);
    }
    const contents = this.#s.staleContents.run(bounds.staleContentBefore, bounds.limit).changes;
    return { blobs: unneeded.length, contents };
  }
}
