import type { PoolClient } from "pg";
import { applyPostgresFunctions } from "./schema-functions.ts";

/**
 * Schema migrations, in order: migration `i` (0-based) brings the database to version `i + 1`.
 * Never change what a released entry does to the tables; append a new one. The same mechanism as
 * the SQLite store's (`SQLITE_MIGRATIONS`): one version row, each migration in its own
 * transaction. They hold tables, indexes and views only: the SQL functions have one current
 * definition, `POSTGRES_FUNCTIONS`, applied after them (`test/testdata/postgres-schema/` keeps
 * the released text of the entries that once defined functions, for the upgrade tests).
 *
 * Text columns hold {@link encodeText}-escaped text (PostgreSQL `text` cannot hold U+0000); times
 * are `bigint` epoch milliseconds. `messages` is append-only (retention deletes whole rows); the
 * state of a delivery lives beside it: `inbox` holds one row per unacknowledged message (an ack
 * deletes it, so the table the caps count stays small) and `acks` the first ack time;
 * `message_states` holds what changes of a message after it was sent (a harness's report, a move
 * to an adopting session) and the view `addressed_messages` reads messages as addressed now.
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE principals (
    principal_ref text PRIMARY KEY,
    token_digest text NOT NULL UNIQUE,
    created_at bigint NOT NULL
  );
  CREATE INDEX principals_by_age ON principals (created_at);

  CREATE TABLE teams (
    team_ref text PRIMARY KEY,
    team_name text NOT NULL,
    secret_digest text NOT NULL,
    creator_principal_ref text NOT NULL REFERENCES principals (principal_ref),
    created_at bigint NOT NULL,
    used_at bigint
  );
  CREATE INDEX teams_by_creator ON teams (creator_principal_ref, created_at);
  CREATE INDEX teams_unused ON teams (created_at) WHERE used_at IS NULL;

  CREATE TABLE memberships (
    team_ref text NOT NULL REFERENCES teams (team_ref),
    principal_ref text NOT NULL REFERENCES principals (principal_ref),
    human_label text,
    status text NOT NULL CHECK (status IN ('active', 'left', 'revoked')),
    joined_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (team_ref, principal_ref)
  );
  CREATE INDEX memberships_by_principal ON memberships (principal_ref);

  CREATE TABLE join_failures (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    principal_ref text NOT NULL,
    at bigint NOT NULL
  );
  CREATE INDEX join_failures_by_principal ON join_failures (principal_ref, at);
  CREATE INDEX join_failures_by_time ON join_failures (at);

  CREATE TABLE sessions (
    session_id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    team_ref text NOT NULL,
    principal_ref text NOT NULL,
    session_name text NOT NULL,
    activity text NOT NULL CHECK (activity IN ('busy', 'idle')),
    inbound text NOT NULL CHECK (inbound IN ('accept', 'hold', 'refuse')),
    session_description text,
    workspace_label text,
    model text,
    context_used_tokens bigint,
    brigade_version text,
    sync_peer text,
    harness text NOT NULL,
    harness_version text NOT NULL,
    lease_seconds integer NOT NULL,
    lease_until bigint NOT NULL,
    last_seen_at bigint NOT NULL,
    created_at bigint NOT NULL,
    closed_at bigint,
    FOREIGN KEY (team_ref, principal_ref) REFERENCES memberships (team_ref, principal_ref)
  );
  CREATE INDEX sessions_by_team ON sessions (team_ref, created_at, seq);
  CREATE INDEX sessions_by_owner ON sessions (team_ref, principal_ref);
  CREATE INDEX sessions_by_principal ON sessions (principal_ref, created_at);

  CREATE TABLE messages (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id text NOT NULL UNIQUE,
    team_ref text NOT NULL,
    sender_principal_ref text NOT NULL,
    sender_session_id text NOT NULL,
    sender_session_name text NOT NULL,
    sender_human_label text,
    recipient_session_id text NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
    summary text,
    body text NOT NULL,
    reply_to text,
    hop_count integer NOT NULL,
    created_at bigint NOT NULL,
    idempotency_key text
  );
  CREATE UNIQUE INDEX messages_idempotency ON messages (sender_session_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
  CREATE INDEX messages_sender_window ON messages (sender_session_id, created_at)
    INCLUDE (recipient_session_id, hop_count);
  CREATE INDEX messages_by_principal ON messages (sender_principal_ref, created_at);
  CREATE INDEX messages_by_recipient ON messages (recipient_session_id);

  CREATE TABLE inbox (
    seq bigint PRIMARY KEY,
    message_id text NOT NULL UNIQUE REFERENCES messages (message_id) ON DELETE CASCADE,
    recipient_session_id text NOT NULL,
    sender_session_id text NOT NULL,
    created_at bigint NOT NULL
  );
  CREATE INDEX inbox_by_recipient ON inbox (recipient_session_id, seq) INCLUDE (sender_session_id);
  CREATE INDEX inbox_by_age ON inbox (created_at);

  CREATE TABLE acks (
    message_id text PRIMARY KEY REFERENCES messages (message_id) ON DELETE CASCADE,
    acked_at bigint NOT NULL
  );
  CREATE INDEX acks_by_time ON acks (acked_at);
  `,
  `
  -- Message states (capabilities message.state and message.adopt). messages stays append-only:
  -- a message's recipient as sent never changes there. What changes lives beside it, in a row
  -- only for a message that was reported or moved, so the table stays as small as the inbox:
  -- moved_to_session_id is the session that adopted it (the inbox row moves with it, so the caps
  -- and the watch feed count and read it there), disposition what the current recipient's
  -- harness last reported and disposition_at when that disposition was first reported.
  CREATE TABLE message_states (
    message_id text PRIMARY KEY REFERENCES messages (message_id) ON DELETE CASCADE,
    moved_to_session_id text REFERENCES sessions (session_id),
    disposition text CHECK (disposition IN ('held', 'refused')),
    disposition_at bigint
  );
  CREATE INDEX message_states_moved_to ON message_states (moved_to_session_id)
    WHERE moved_to_session_id IS NOT NULL;

  -- Messages as addressed now: recipient_session_id is the adopting session once moved, and
  -- sent_to_session_id the recipient as sent (NULL while never moved). Every read that means
  -- "addressed to this session" goes through it (acks, replies, the implicit-reply hop, replays).
  CREATE VIEW addressed_messages AS
    SELECT m.seq, m.message_id, m.team_ref, m.sender_principal_ref, m.sender_session_id,
      m.sender_session_name, m.sender_human_label,
      coalesce(st.moved_to_session_id, m.recipient_session_id) AS recipient_session_id,
      CASE WHEN st.moved_to_session_id IS NULL THEN NULL ELSE m.recipient_session_id END
        AS sent_to_session_id,
      m.summary, m.body, m.reply_to, m.hop_count, m.created_at, m.idempotency_key,
      st.disposition, st.disposition_at
    FROM messages m LEFT JOIN message_states st ON st.message_id = m.message_id;
  `,
  // 3: live delivery (capability session.live_delivery): 'yes' or the reason code the harness last
  // reported, NULL while it never said; unchecked like the SQLite column (the service validates).
  `
  ALTER TABLE sessions ADD COLUMN live_delivery text;
  `,
  // 4: when a request last said live_delivery (ms), as SQLite's migration 6; the session's last
  // heartbeat stands in for a value stored before the column.
  `
  ALTER TABLE sessions ADD COLUMN live_delivery_at bigint;
  UPDATE sessions SET live_delivery_at = last_seen_at WHERE live_delivery IS NOT NULL;
  `,
  // 5: when a server first opened the database (ms), NULL while only \`brigade migrate-store\` did:
  // a copy into a database that holds data refuses one a server has used, because the server's
  // changes (a revoked member, a rotated secret, a transfer) are newer than the copy's source. A
  // database that already holds data here may have been served by an older program, and nothing
  // recorded says otherwise, so it counts as served.
  `
  CREATE TABLE served (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    first_served_at bigint
  );
  INSERT INTO served (first_served_at)
    SELECT CASE WHEN EXISTS (SELECT 1 FROM principals) OR EXISTS (SELECT 1 FROM teams)
      OR EXISTS (SELECT 1 FROM sessions) OR EXISTS (SELECT 1 FROM messages)
      THEN (extract(epoch FROM clock_timestamp()) * 1000)::bigint END;
  `,
  // 6: the member a team's creator offered the team to (team transfer), as SQLite's migration 7.
  `
  ALTER TABLE teams ADD COLUMN offered_to_principal_ref text;
  `,
  // 7: invitations (capability team.invitations), as SQLite's migration 8; seq orders a team's
  // list newest first. A use is one conditional UPDATE, which under READ COMMITTED checks its WHERE
  // again on a row another process changed meanwhile, so no invitation goes past max_uses.
  `
  CREATE TABLE invitations (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    invitation_id text PRIMARY KEY,
    team_ref text NOT NULL REFERENCES teams (team_ref),
    secret_digest text NOT NULL UNIQUE,
    created_by text NOT NULL,
    max_uses integer NOT NULL CHECK (max_uses >= 1),
    uses integer NOT NULL CHECK (uses >= 0 AND uses <= max_uses),
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    last_used_at bigint,
    revoked_at bigint
  );
  CREATE INDEX invitations_by_team ON invitations (team_ref, created_at);
  `,
  // 8: attachments (capability message.attachments), as SQLite's migration 9: the JSON of the
  // files a message names (also read through addressed_messages, whose new column comes last so
  // the view can be replaced in place); upload contents, reserved before their first byte and
  // stored in 256 KiB bytea chunks, kept out of line and uncompressed (attachments are often
  // compressed already, and a chunk is read whole); verified blobs, their uploaders, and the link
  // from a message to each blob it names, which the recipient's access and retention read.
  `
  ALTER TABLE messages ADD COLUMN attachments text;
  CREATE OR REPLACE VIEW addressed_messages AS
    SELECT m.seq, m.message_id, m.team_ref, m.sender_principal_ref, m.sender_session_id,
      m.sender_session_name, m.sender_human_label,
      coalesce(st.moved_to_session_id, m.recipient_session_id) AS recipient_session_id,
      CASE WHEN st.moved_to_session_id IS NULL THEN NULL ELSE m.recipient_session_id END
        AS sent_to_session_id,
      m.summary, m.body, m.reply_to, m.hop_count, m.created_at, m.idempotency_key,
      st.disposition, st.disposition_at, m.attachments
    FROM messages m LEFT JOIN message_states st ON st.message_id = m.message_id;

  CREATE TABLE blob_contents (
    content_id text PRIMARY KEY,
    team_ref text NOT NULL,
    sha256 text NOT NULL,
    size bigint NOT NULL,
    created_at bigint NOT NULL
  );
  CREATE INDEX blob_contents_by_team ON blob_contents (team_ref) INCLUDE (size);
  CREATE INDEX blob_contents_by_age ON blob_contents (created_at);

  CREATE TABLE blob_chunks (
    content_id text NOT NULL REFERENCES blob_contents (content_id) ON DELETE CASCADE,
    seq integer NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (content_id, seq)
  );
  ALTER TABLE blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

  CREATE TABLE blobs (
    team_ref text NOT NULL,
    sha256 text NOT NULL,
    size bigint NOT NULL,
    content_id text NOT NULL UNIQUE REFERENCES blob_contents (content_id),
    created_at bigint NOT NULL,
    PRIMARY KEY (team_ref, sha256)
  );

  CREATE TABLE blob_uploaders (
    team_ref text NOT NULL,
    sha256 text NOT NULL,
    principal_ref text NOT NULL,
    uploaded_at bigint NOT NULL,
    PRIMARY KEY (team_ref, sha256, principal_ref),
    FOREIGN KEY (team_ref, sha256) REFERENCES blobs (team_ref, sha256) ON DELETE CASCADE
  );

  CREATE TABLE message_attachments (
    message_id text NOT NULL REFERENCES messages (message_id) ON DELETE CASCADE,
    position integer NOT NULL,
    team_ref text NOT NULL,
    sha256 text NOT NULL,
    PRIMARY KEY (message_id, position),
    FOREIGN KEY (team_ref, sha256) REFERENCES blobs (team_ref, sha256)
  );
  CREATE INDEX message_attachments_by_blob ON message_attachments (team_ref, sha256);
  `,
  // 9: the dashboard (docs/52-dashboard.md), as SQLite's migration 11: when the recipient's person
  // released a held message (beside the other states of a message), one-time login links and
  // browser sessions, each kept only as the digest of its secret, so every process of the
  // database signs a person in and knows their session.
  `
  ALTER TABLE message_states ADD COLUMN released_at bigint;

  CREATE TABLE web_logins (
    login_digest text PRIMARY KEY,
    principal_ref text NOT NULL,
    team_ref text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint
  );
  CREATE INDEX web_logins_by_principal ON web_logins (principal_ref, created_at);

  CREATE TABLE web_sessions (
    session_digest text PRIMARY KEY,
    principal_ref text NOT NULL,
    team_ref text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    ended_at bigint
  );
  CREATE INDEX web_sessions_by_principal ON web_sessions (principal_ref, expires_at);
  `,
  // 10: when a team's transfer offer lapses (ms), as SQLite's migration 12: an offer standing at
  // the upgrade is treated as made then, and gets the whole 7 days.
  `
  ALTER TABLE teams ADD COLUMN offer_expires_at bigint;
  UPDATE teams
    SET offer_expires_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 604800000
    WHERE offered_to_principal_ref IS NOT NULL;
  `,
];

/** The schema version this code writes: the number of {@link POSTGRES_MIGRATIONS}. */
export const POSTGRES_SCHEMA_VERSION: number = POSTGRES_MIGRATIONS.length;

/** Thrown when the database was written by a newer schema than this code knows. */
export class PostgresSchemaError extends Error {
  readonly code = "schema_too_new" as const;
  constructor() {
    super("the database schema is newer than this program");
    this.name = "PostgresSchemaError";
  }
}

/** Session-level advisory lock held while migrating, so concurrent starts migrate once. */
const MIGRATION_LOCK_KEY = 7_264_180_513;

/**
 * Brings the database of `client` to {@link POSTGRES_SCHEMA_VERSION}: under a session advisory
 * lock (several server processes may start at once), creates the version table when absent and
 * applies each missing migration in its own transaction, so a crash leaves a whole version or
 * none; then, under the same lock, puts the current function definitions in place when the
 * database recorded other ones (`applyPostgresFunctions`), and, unless `copyTarget`, records the
 * first time a server opened the database (the `served` row; a copy into it is refused from then
 * on). Returns the version; throws {@link PostgresSchemaError} when the database is newer.
 *
 * @example
 * await migratePostgres(client, { copyTarget: false }); // POSTGRES_SCHEMA_VERSION
 */
export async function migratePostgres(
  client: PoolClient,
  options: { readonly copyTarget: boolean },
): Promise<number> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await client.query("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)");
    const read = await client.query<{ version: number }>("SELECT version FROM schema_version");
    if (read.rows.length === 0) await client.query("INSERT INTO schema_version VALUES (0)");
    let version = read.rows[0]?.version ?? 0;
    if (version > POSTGRES_SCHEMA_VERSION) throw new PostgresSchemaError();
    while (version < POSTGRES_SCHEMA_VERSION) {
      const next = version + 1;
      await client.query("BEGIN");
      try {
        await client.query(POSTGRES_MIGRATIONS[version] as string);
        await client.query("UPDATE schema_version SET version = $1", [next]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      version = next;
    }
    await applyPostgresFunctions(client);
    if (!options.copyTarget) {
      await client.query(
        "UPDATE served SET first_served_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint " +
          "WHERE first_served_at IS NULL",
      );
    }
    return version;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
}
