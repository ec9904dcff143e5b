PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (version INTEGER NOT NULL) STRICT;
INSERT INTO schema_version VALUES(11);
CREATE TABLE principals (
    principal_ref TEXT PRIMARY KEY,
    token_digest TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  ) STRICT;
INSERT INTO principals VALUES('p-a11ce0000000000000a1','62d6c49a8c8b332d83dffec7056a7bbdf51e6513f2f0921c8a183458dc4d08e0',1767225600000);
INSERT INTO principals VALUES('p-b0b000000000000000b2','ce7f41290023f8dffaebfb355beeaa4eb2f32b9505e186162687540c57b7e100',1767225601000);
CREATE TABLE teams (
    team_ref TEXT PRIMARY KEY,
    team_name TEXT NOT NULL,
    secret_digest TEXT NOT NULL,
    creator_principal_ref TEXT NOT NULL REFERENCES principals(principal_ref),
    created_at INTEGER NOT NULL
  , used_at INTEGER, offered_to_principal_ref TEXT) STRICT;
INSERT INTO teams VALUES('t-7ea30000000000000001','fixture-team','e0adcc82bbb697e4b7d1ae84af95cd4c84e91f7f2cf3e12882a08abcd6fba38a','p-a11ce0000000000000a1',1767225600000,1767225603000,NULL);
CREATE TABLE memberships (
    team_ref TEXT NOT NULL REFERENCES teams(team_ref),
    principal_ref TEXT NOT NULL REFERENCES principals(principal_ref),
    human_label TEXT,
    status TEXT NOT NULL CHECK (status IN ('active', 'left', 'revoked')),
    joined_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (team_ref, principal_ref)
  ) STRICT, WITHOUT ROWID;
INSERT INTO memberships VALUES('t-7ea30000000000000001','p-a11ce0000000000000a1','Alice','active',1767225600000,1767225600000);
INSERT INTO memberships VALUES('t-7ea30000000000000001','p-b0b000000000000000b2','Bob','active',1767225601000,1767225601000);
CREATE TABLE join_failures (
    id INTEGER PRIMARY KEY,
    principal_ref TEXT NOT NULL,
    at INTEGER NOT NULL
  ) STRICT;
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
    closed_at INTEGER, live_delivery TEXT, live_delivery_at INTEGER,
    FOREIGN KEY (team_ref, principal_ref) REFERENCES memberships(team_ref, principal_ref)
  ) STRICT;
INSERT INTO sessions VALUES('s-a1000000000000000001','t-7ea30000000000000001','p-a11ce0000000000000a1','alpha','idle','accept',NULL,NULL,NULL,NULL,NULL,NULL,'claude-code','2.1.0',90,1767225692000,1767225602000,1767225602000,NULL,'yes',1767225602000);
INSERT INTO sessions VALUES('s-b2000000000000000002','t-7ea30000000000000001','p-b0b000000000000000b2','beta','busy','accept',NULL,NULL,NULL,NULL,NULL,NULL,'claude-code','2.1.0',90,1767225693000,1767225603000,1767225603000,NULL,'inbound_gate',1767225603000);
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
  , disposition TEXT CHECK (disposition IN ('held', 'refused')), disposition_at INTEGER, sent_to_session_id TEXT, attachments TEXT, released_at INTEGER) STRICT;
INSERT INTO messages VALUES(1,'m-0000000000000000aa01','t-7ea30000000000000001','p-a11ce0000000000000a1','s-a1000000000000000001','alpha','Alice','s-b2000000000000000002','before the upgrade','written by schema version 11',NULL,0,1767225604000,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO messages VALUES(2,'m-0000000000000000bb02','t-7ea30000000000000001','p-b0b000000000000000b2','s-b2000000000000000002','beta','Bob','s-a1000000000000000001',NULL,'an acknowledged reply',NULL,1,1767225605000,1767225606000,NULL,NULL,NULL,NULL,NULL,NULL);
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
CREATE TABLE blob_contents (
    content_id TEXT PRIMARY KEY,
    team_ref TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
CREATE TABLE blob_chunks (
    content_id TEXT NOT NULL REFERENCES blob_contents(content_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL
  ) STRICT;
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
CREATE TABLE web_logins (
    login_digest TEXT PRIMARY KEY,
    principal_ref TEXT NOT NULL,
    team_ref TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  ) STRICT, WITHOUT ROWID;
CREATE TABLE web_sessions (
    session_digest TEXT PRIMARY KEY,
    principal_ref TEXT NOT NULL,
    team_ref TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    ended_at INTEGER
  ) STRICT, WITHOUT ROWID;
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('messages',2);
CREATE INDEX join_failures_by_principal ON join_failures(principal_ref, at);
CREATE INDEX join_failures_by_time ON join_failures(at);
CREATE INDEX sessions_by_team ON sessions(team_ref, created_at);
CREATE INDEX sessions_by_owner ON sessions(team_ref, principal_ref);
CREATE INDEX sessions_by_principal ON sessions(principal_ref, created_at);
CREATE UNIQUE INDEX messages_idempotency ON messages(sender_session_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX messages_by_principal ON messages(sender_principal_ref, created_at);
CREATE INDEX messages_acked_gc ON messages(acked_at) WHERE acked_at IS NOT NULL;
CREATE INDEX messages_unacked_gc ON messages(created_at) WHERE acked_at IS NULL;
CREATE INDEX messages_sender_window
    ON messages(sender_session_id, created_at, recipient_session_id, hop_count);
CREATE INDEX messages_recipient_state
    ON messages(recipient_session_id, acked_at, sender_session_id);
CREATE INDEX teams_by_creator ON teams(creator_principal_ref, created_at);
CREATE INDEX teams_unused ON teams(created_at) WHERE used_at IS NULL;
CREATE INDEX memberships_by_principal ON memberships(principal_ref);
CREATE INDEX principals_by_age ON principals(created_at);
CREATE INDEX invitations_by_team ON invitations(team_ref, created_at);
CREATE INDEX blob_contents_by_team ON blob_contents(team_ref, size);
CREATE INDEX blob_contents_by_age ON blob_contents(created_at);
CREATE UNIQUE INDEX blob_chunks_by_content ON blob_chunks(content_id, seq);
CREATE INDEX message_attachments_by_blob ON message_attachments(team_ref, sha256, message_id);
CREATE INDEX web_logins_by_principal ON web_logins(principal_ref, created_at);
CREATE INDEX web_sessions_by_principal ON web_sessions(principal_ref, expires_at);
COMMIT;
