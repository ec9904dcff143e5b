import type Database from "better-sqlite3";

/**
 * Schema migrations, in order: migration `i` (0-based) brings the database to version `i + 1`.
 * Never edit a released entry; append a new one.
 */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE principals (
    principal_ref TEXT PRIMARY KEY,
    token_digest TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE teams (
    team_ref TEXT PRIMARY KEY,
    team_name TEXT NOT NULL,
    secret_digest TEXT NOT NULL,
    creator_principal_ref TEXT NOT NULL REFERENCES principals(principal_ref),
    created_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE memberships (
    team_ref TEXT NOT NULL REFERENCES teams(team_ref),
    principal_ref TEXT NOT NULL REFERENCES principals(principal_ref),
    human_label TEXT,
    status TEXT NOT NULL CHECK (status IN ('active', 'left', 'revoked')),
    joined_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (team_ref, principal_ref)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE join_failures (
    id INTEGER PRIMARY KEY,
    principal_ref TEXT NOT NULL,
    at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX join_failures_by_principal ON join_failures(principal_ref, at);
  CREATE INDEX join_failures_by_time ON join_failures(at);

  CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    team_ref TEXT NOT NULL,
    principal_ref TEXT NOT NULL,
    session_name TEXT NOT NULL,
    activity TEXT NOT NULL CHECK (activity IN ('busy', 'idle')),
    inbound TEXT NOT NULL CHECK (inbound IN ('accept', 'hold', 'refuse')),
    session_description TEXT,
    workspace_label TEXT,
    model TEXT,
    context_used_tokens INTEGER,
    brigade_version TEXT,
    sync_peer TEXT,
    harness TEXT NOT NULL,
    harness_version TEXT NOT NULL,
    lease_seconds INTEGER NOT NULL,
    lease_until INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    closed_at INTEGER,
    FOREIGN KEY (team_ref, principal_ref) REFERENCES memberships(team_ref, principal_ref)
  ) STRICT;
  CREATE INDEX sessions_by_team ON sessions(team_ref, created_at);
  CREATE INDEX sessions_by_owner ON sessions(team_ref, principal_ref);
  CREATE INDEX sessions_by_principal ON sessions(principal_ref, created_at);

  CREATE TABLE messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT NOT NULL UNIQUE,
    team_ref TEXT NOT NULL,
    sender_principal_ref TEXT NOT NULL,
    sender_session_id TEXT NOT NULL,
    sender_session_name TEXT NOT NULL,
    sender_human_label TEXT,
    recipient_session_id TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    summary TEXT,
    body TEXT NOT NULL,
    reply_to TEXT,
    hop_count INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    acked_at INTEGER,
    idempotency_key TEXT
  ) STRICT;
  CREATE UNIQUE INDEX messages_idempotency ON messages(sender_session_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
  CREATE INDEX messages_by_sender ON messages(sender_session_id, created_at);
  CREATE INDEX messages_by_principal ON messages(sender_principal_ref, created_at);
  CREATE INDEX messages_by_pair ON messages(sender_session_id, recipient_session_id, created_at);
  CREATE INDEX messages_unacked_pair ON messages(recipient_session_id, sender_session_id)
    WHERE acked_at IS NULL;
  CREATE INDEX messages_inbox ON messages(recipient_session_id, seq) WHERE acked_at IS NULL;
  CREATE INDEX messages_recipient ON messages(recipient_session_id);
  CREATE INDEX messages_acked_gc ON messages(acked_at) WHERE acked_at IS NOT NULL;
  CREATE INDEX messages_unacked_gc ON messages(created_at) WHERE acked_at IS NULL;
  `,
  // 2: every message insert paid for nine indexes, eight keyed by a random id. Keep one index per
  // access path, covering where a count or the hop lookup can stay inside it:
  // - sender windows and the implicit-reply hop: (sender, created_at, recipient, hop_count);
  // - unacked counts per pair and per recipient, the inbox, the FK cascade and the session sweep:
  //   (recipient, acked_at, sender), where `acked_at IS NULL` is an equality on the index.
  `
  DROP INDEX messages_by_pair;
  DROP INDEX messages_unacked_pair;
  DROP INDEX messages_inbox;
  DROP INDEX messages_recipient;
  DROP INDEX messages_by_sender;
  CREATE INDEX messages_sender_window
    ON messages(sender_session_id, created_at, recipient_session_id, hop_count);
  CREATE INDEX messages_recipient_state
    ON messages(recipient_session_id, acked_at, sender_session_id);
  `,
  // 3: retention of what was never used, and the per-principal team creation limit.
  // - teams.used_at: first time a session registered or a member besides the creator joined;
  //   sessions are themselves collected, so only a mark can remember that a team was ever used.
  //   Teams that exist before this migration count as used: nothing recorded says otherwise, and
  //   a retention rule must never delete what someone may rely on.
  // - indexes for the sweep (unused teams by age, principals by age, memberships by principal)
  //   and for counting the teams a principal created inside a window.
  `
  ALTER TABLE teams ADD COLUMN used_at INTEGER;
  UPDATE teams SET used_at = created_at;
  CREATE INDEX teams_by_creator ON teams(creator_principal_ref, created_at);
  CREATE INDEX teams_unused ON teams(created_at) WHERE used_at IS NULL;
  CREATE INDEX memberships_by_principal ON memberships(principal_ref);
  CREATE INDEX principals_by_age ON principals(created_at);
  `,
  // 4: message states (capabilities message.state and message.adopt).
  // - disposition / disposition_at: what the recipient's harness reported (held or refused);
  // - sent_to_session_id: the first recipient of a message another session of the same person
  //   adopted (recipient_session_id then names the adopting session, so the inbox, the caps, the
  //   ack and the FK cascade keep working unchanged).
  // The sender's listing reads messages_sender_window (sender_session_id, created_at, ...).
  `
  ALTER TABLE messages ADD COLUMN disposition TEXT CHECK (disposition IN ('held', 'refused'));
  ALTER TABLE messages ADD COLUMN disposition_at INTEGER;
  ALTER TABLE messages ADD COLUMN sent_to_session_id TEXT;
  `,
  // 5: live delivery (capability session.live_delivery): "yes" or the reason code the harness
  // last reported, NULL while it never said. No CHECK: the service validates the code, and a new
  // reason must not need a migration.
  `
  ALTER TABLE sessions ADD COLUMN live_delivery TEXT;
  `,
  // 6: when a request last said live_delivery (ms): a "yes" not said again for five sixths of the
  // lease is reported as watcher_silent. A value stored before this column was last said no later
  // than the session's last heartbeat, so that time stands in for it.
  `
  ALTER TABLE sessions ADD COLUMN live_delivery_at INTEGER;
  UPDATE sessions SET live_delivery_at = last_seen_at WHERE live_delivery IS NOT NULL;
  `,
  // 7: the member a team's creator offered the team to (team transfer), who becomes the creator
  // by accepting it; NULL while no offer stands. Before this column a transfer took effect at
  // once, so no team has an offer standing.
  `
  ALTER TABLE teams ADD COLUMN offered_to_principal_ref TEXT;
  `,
  // 8: invitations (capability team.invitations): a join secret of their own per invitation, kept
  // only as its digest, with a use count that one conditional UPDATE takes (never above max_uses).
  `
  CREATE TABLE invitations (
    invitation_id TEXT PRIMARY KEY,
    team_ref TEXT NOT NULL REFERENCES teams(team_ref),
    secret_digest TEXT NOT NULL UNIQUE,
    created_by TEXT NOT NULL,
    max_uses INTEGER NOT NULL CHECK (max_uses >= 1),
    uses INTEGER NOT NULL CHECK (uses >= 0 AND uses <= max_uses),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at INTEGER
  ) STRICT;
  CREATE INDEX invitations_by_team ON invitations(team_ref, created_at);
  `,
  // 9: attachments (capability message.attachments).
  // - messages.attachments: JSON of the files a message names, NULL when none (read with the
  //   message, so an inbox needs no second query);
  // - blob_contents: one row per upload, made before its first byte is stored (it counts against
  //   the team's quota at once), and blob_chunks its bytes, 256 KiB a row; a rowid table, as
  //   large rows belong in one;
  // - blobs: the verified blob of a team per digest, naming its content; blob_uploaders: who
  //   proved they hold its bytes (the sender's side of reading it, and of naming it in a send);
  // - message_attachments: the link the recipient's side of reading it and its retention read
  //   (a blob lives while a message names it), removed with its message.
  `
  ALTER TABLE messages ADD COLUMN attachments TEXT;

  CREATE TABLE blob_contents (
    content_id TEXT PRIMARY KEY,
    team_ref TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX blob_contents_by_team ON blob_contents(team_ref, size);
  CREATE INDEX blob_contents_by_age ON blob_contents(created_at);

  CREATE TABLE blob_chunks (
    content_id TEXT NOT NULL REFERENCES blob_contents(content_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX blob_chunks_by_content ON blob_chunks(content_id, seq);

  CREATE TABLE blobs (
    team_ref TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_id TEXT NOT NULL UNIQUE REFERENCES blob_contents(content_id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (team_ref, sha256)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE blob_uploaders (
    team_ref TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    principal_ref TEXT NOT NULL,
    uploaded_at INTEGER NOT NULL,
    PRIMARY KEY (team_ref, sha256, principal_ref),
    FOREIGN KEY (team_ref, sha256) REFERENCES blobs(team_ref, sha256) ON DELETE CASCADE
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE message_attachments (
    message_id TEXT NOT NULL REFERENCES messages(message_id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    team_ref TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (message_id, position),
    FOREIGN KEY (team_ref, sha256) REFERENCES blobs(team_ref, sha256)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX message_attachments_by_blob ON message_attachments(team_ref, sha256, message_id);
  `,
  // 9 (version 10): no change (the number was reserved for a change that needed no table). A
  // database at version 10 has exactly the tables of version 9.
  `
  SELECT 1;
  `,
  // 10 (version 11): the dashboard (docs/52-dashboard.md).
  // - messages.released_at: when the recipient's person released a held message in the browser;
  // - web_logins: one-time login links, kept only as the digest of their secret, taken by one
  //   conditional UPDATE (so a link signs in once, whichever server process gets it);
  // - web_sessions: browser sessions, kept only as the digest of their cookie's secret, so any
  //   process of a shared database knows them.
  `
  ALTER TABLE messages ADD COLUMN released_at INTEGER;

  CREATE TABLE web_logins (
    login_digest TEXT PRIMARY KEY,
    principal_ref TEXT NOT NULL,
    team_ref TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX web_logins_by_principal ON web_logins(principal_ref, created_at);

  CREATE TABLE web_sessions (
    session_digest TEXT PRIMARY KEY,
    principal_ref TEXT NOT NULL,
    team_ref TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    ended_at INTEGER
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX web_sessions_by_principal ON web_sessions(principal_ref, expires_at);
  `,
  // 11 (version 12): when a team's transfer offer lapses (ms), NULL exactly when no offer stands.
  // Offers made before this column had no end; each that stands is treated as made at the
  // upgrade, so it gets the whole 7 days (docs/20-protocol.md, "Team lifecycle") rather than
  // lapsing under a member who may be about to accept it.
  `
  ALTER TABLE teams ADD COLUMN offer_expires_at INTEGER;
  UPDATE teams
    SET offer_expires_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) + 604800000
    WHERE offered_to_principal_ref IS NOT NULL;
  `,
];

/** The schema version this code writes: the number of {@link SQLITE_MIGRATIONS}. */
export const SQLITE_SCHEMA_VERSION: number = SQLITE_MIGRATIONS.length;

/**
 * Thrown when a database file was written by a newer schema than this code knows. The message
 * names both versions and what to do; nothing in the file is changed.
 */
export class SqliteSchemaError extends Error {
  readonly code = "schema_too_new" as const;
  /** The file's schema version, and the newest this code knows. */
  readonly found: number;
  readonly known: number;
  constructor(found: number, known: number = SQLITE_SCHEMA_VERSION) {
    super(
      `the data file has schema version ${found}, newer than the ${known} this program knows: run the Brigade version that wrote it (or newer), or restore a backup made before the upgrade`,
    );
    this.name = "SqliteSchemaError";
    this.found = found;
    this.known = known;
  }
}

/**
 * Throws {@link SqliteSchemaError} when `db` was written by a newer schema than this code knows,
 * reading only (no table is created, no pragma changed), so a refused file is left byte for byte
 * as it was. A file without a version table passes.
 */
export function refuseNewerSchema(db: Database.Database): void {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    .get();
  if (table === undefined) return;
  const row = db.prepare("SELECT MAX(version) AS version FROM schema_version").get() as {
    version: number | null;
  };
  if (row.version !== null && row.version > SQLITE_SCHEMA_VERSION) {
    throw new SqliteSchemaError(row.version);
  }
}

/**
 * Brings `db` to {@link SQLITE_SCHEMA_VERSION}: creates the version table when absent and applies
 * each missing migration in its own transaction, so a crash leaves a whole version or none.
 * Throws {@link SqliteSchemaError} when the file is newer than this code.
 *
 * @example
 * migrate(new Database(":memory:")); // SQLITE_SCHEMA_VERSION
 */
export function migrate(db: Database.Database): number {
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL) STRICT");
  const row = db.prepare("SELECT version FROM schema_version").get() as
    | { version: number }
    | undefined;
  if (row === undefined) db.prepare("INSERT INTO schema_version (version) VALUES (0)").run();
  let version = row?.version ?? 0;
  if (version > SQLITE_SCHEMA_VERSION) throw new SqliteSchemaError(version);
  const setVersion = db.prepare("UPDATE schema_version SET version = ?");
  while (version < SQLITE_SCHEMA_VERSION) {
    const sql = SQLITE_MIGRATIONS[version] as string;
    const next = version + 1;
    db.transaction(() => {
      db.exec(sql);
      setVersion.run(next);
    }).immediate();
    version = next;
  }
  return version;
}
