import { createHash } from "node:crypto";
import type { ClientBase } from "pg";

/**
 * The current definition of every SQL function of the schema (`CREATE OR REPLACE`), in one
 * place: the send (`brigade_send`), its verdict (`brigade_send_verdict`) and their helpers. The
 * migrations hold tables, indexes and views only; {@link applyPostgresFunctions} puts these
 * definitions in place after them whenever their digest differs from the one the database
 * recorded, so a change to a function is an edit here, not a restatement in a new migration.
 * A change of a function's arguments or result columns, which `CREATE OR REPLACE` cannot make,
 * needs a migration that drops the old function first (migrations run before this is applied).
 * Nothing in a migration may call these functions: on a new database they do not exist yet.
 */
export const POSTGRES_FUNCTIONS: string = `
  -- The database clock in epoch milliseconds: one clock for every server process.
  CREATE OR REPLACE FUNCTION brigade_now_ms() RETURNS bigint LANGUAGE sql VOLATILE AS $$
    SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint
  $$;

  -- The key of a transaction-scoped advisory lock: kind 'p' (principal) or 's' (session).
  CREATE OR REPLACE FUNCTION brigade_lock_key(kind text, ref text) RETURNS bigint
    LANGUAGE sql IMMUTABLE AS $$ SELECT hashtextextended(kind || ':' || ref, 0) $$;

  -- docs/spec/protocol.md §6.4: recipient NUL body NUL summary NUL reply_to, absent = empty. The
  -- values are escaped (NUL is chr(1) || '0'), so the separator is an escaped NUL: the result is
  -- the escape of the fingerprint the SQLite path builds, equal exactly when that one is.
  CREATE OR REPLACE FUNCTION brigade_fingerprint(
    recipient text, body text, summary text, reply_to text)
    RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT recipient || chr(1) || '0' || body || chr(1) || '0' || coalesce(summary, '')
      || chr(1) || '0' || coalesce(reply_to, '')
  $$;

  -- Steps (b) to (i) of docs/spec/protocol.md §6.16, in that order, at p_now, as of one snapshot
  -- (STABLE: every query in it sees the calling statement's snapshot). verdict is 'accept',
  -- 'duplicate' (original_id set) or a refusal. p_limits: send per minute, per hour, principal
  -- per minute, per hour, pair cap, inbox cap, max hop count, implicit-reply window (ms), cap
  -- retry hint (ms). The replay, the reply check and the implicit-reply hop read the messages as
  -- addressed now (addressed_messages), so they answer for an adopting session as the SQLite
  -- store does; the windows count by sender and read messages.
  CREATE OR REPLACE FUNCTION brigade_send_verdict(
    p_principal text, p_team text, p_sender text, p_recipient text, p_body text,
    p_summary text, p_reply_to text, p_key text, p_now bigint, p_limits bigint[],
    OUT verdict text, OUT reason text, OUT retry_after_ms bigint, OUT hop integer,
    OUT sender_name text, OUT human_label text, OUT original_id text)
  LANGUAGE plpgsql STABLE AS $$
  DECLARE
    v_status text;
    v_team text;
    v_owner text;
    v_closed bigint;
    v_original record;
    v_previous integer;
    v_window record;
    v_pair bigint;
    v_inbox bigint;
  BEGIN
    SELECT m.status, m.human_label INTO v_status, human_label
      FROM memberships m WHERE m.team_ref = p_team AND m.principal_ref = p_principal;
    IF NOT FOUND OR v_status <> 'active' THEN verdict := 'unauthorized'; RETURN; END IF;

    SELECT s.team_ref, s.principal_ref, s.closed_at, s.session_name
      INTO v_team, v_owner, v_closed, sender_name
      FROM sessions s WHERE s.session_id = p_sender;
    IF NOT FOUND OR v_team <> p_team OR v_owner <> p_principal THEN
      verdict := 'not_found'; RETURN;
    END IF;
    IF v_closed IS NOT NULL THEN verdict := 'session_closed'; RETURN; END IF;

    -- A session whose owner left or was removed answers as one that does not exist.
    SELECT s.team_ref, mem.status INTO v_team, v_status
      FROM sessions s JOIN memberships mem
        ON mem.team_ref = s.team_ref AND mem.principal_ref = s.principal_ref
      WHERE s.session_id = p_recipient;
    IF NOT FOUND OR v_team <> p_team OR v_status <> 'active' THEN
      verdict := 'not_found'; RETURN;
    END IF;

    -- This function decides sends without attachments only: an original that named some is
    -- another send (the service's fingerprint adds them).
    IF p_key IS NOT NULL THEN
      SELECT m.message_id, m.recipient_session_id, m.body, m.summary, m.reply_to, m.attachments
        INTO v_original
        FROM addressed_messages m
        WHERE m.sender_session_id = p_sender AND m.idempotency_key = p_key;
      IF FOUND THEN
        IF v_original.attachments IS NULL
           AND brigade_fingerprint(v_original.recipient_session_id, v_original.body,
             v_original.summary, v_original.reply_to)
           = brigade_fingerprint(p_recipient, p_body, p_summary, p_reply_to) THEN
          verdict := 'duplicate'; original_id := v_original.message_id;
        ELSE
          verdict := 'idempotency_key_reused';
        END IF;
        RETURN;
      END IF;
    END IF;

    IF p_reply_to IS NOT NULL THEN
      SELECT m.hop_count + 1 INTO hop FROM addressed_messages m
        WHERE m.message_id = p_reply_to AND m.recipient_session_id = p_sender;
      IF NOT FOUND THEN verdict := 'not_found'; RETURN; END IF;
    ELSE
      SELECT m.hop_count INTO v_previous FROM addressed_messages m
        WHERE m.sender_session_id = p_recipient AND m.recipient_session_id = p_sender
          AND m.created_at > p_now - p_limits[8]
        ORDER BY m.created_at DESC, m.seq DESC LIMIT 1;
      hop := CASE WHEN FOUND THEN v_previous + 1 ELSE 0 END;
    END IF;
    IF hop > p_limits[7] THEN verdict := 'loop_detected'; RETURN; END IF;

    SELECT count(*) FILTER (WHERE m.created_at > p_now - 60000) AS minute,
           min(m.created_at) FILTER (WHERE m.created_at > p_now - 60000) AS minute_oldest,
           count(*) AS hour, min(m.created_at) AS hour_oldest
      INTO v_window FROM messages m
      WHERE m.sender_session_id = p_sender AND m.created_at > p_now - 3600000;
    IF v_window.minute >= p_limits[1] THEN
      verdict := 'rate_limited'; reason := 'send_per_minute';
      retry_after_ms := greatest(1, v_window.minute_oldest + 60000 - p_now); RETURN;
    END IF;
    IF v_window.hour >= p_limits[2] THEN
      verdict := 'rate_limited'; reason := 'send_per_hour';
      retry_after_ms := greatest(1, v_window.hour_oldest + 3600000 - p_now); RETURN;
    END IF;

    SELECT count(*) FILTER (WHERE m.created_at > p_now - 60000) AS minute,
           min(m.created_at) FILTER (WHERE m.created_at > p_now - 60000) AS minute_oldest,
           count(*) AS hour, min(m.created_at) AS hour_oldest
      INTO v_window FROM messages m
      WHERE m.sender_principal_ref = p_principal AND m.created_at > p_now - 3600000;
    IF v_window.minute >= p_limits[3] THEN
      verdict := 'rate_limited'; reason := 'principal_per_minute';
      retry_after_ms := greatest(1, v_window.minute_oldest + 60000 - p_now); RETURN;
    END IF;
    IF v_window.hour >= p_limits[4] THEN
      verdict := 'rate_limited'; reason := 'principal_per_hour';
      retry_after_ms := greatest(1, v_window.hour_oldest + 3600000 - p_now); RETURN;
    END IF;

    SELECT count(*) FILTER (WHERE i.sender_session_id = p_sender), count(*)
      INTO v_pair, v_inbox FROM inbox i WHERE i.recipient_session_id = p_recipient;
    IF v_pair >= p_limits[5] THEN
      verdict := 'rate_limited'; reason := 'sender_quota_for_recipient';
      retry_after_ms := p_limits[9]; RETURN;
    END IF;
    IF v_inbox >= p_limits[6] THEN
      verdict := 'rate_limited'; reason := 'recipient_inbox_full';
      retry_after_ms := p_limits[9]; RETURN;
    END IF;
    verdict := 'accept';
  END
  $$;

  -- One message send, steps (b) to (j): a verdict without locks first, which answers every
  -- refusal and replay as of one snapshot (a linearizable answer: that committed state existed
  -- at that instant); a send that looks acceptable takes the transaction-scoped advisory locks,
  -- principal then recipient (a fixed order, so two sends never wait on each other in a cycle),
  -- reads the clock, decides again on a fresh snapshot that sees every send committed by a
  -- previous holder of either lock, and inserts. The caller runs it in autocommit: its
  -- transaction ends, and releases the locks, when it returns.
  CREATE OR REPLACE FUNCTION brigade_send(
    p_message_id text, p_principal text, p_team text, p_sender text, p_recipient text,
    p_body text, p_summary text, p_reply_to text, p_key text, p_limits bigint[])
  RETURNS TABLE (verdict text, reason text, retry_after_ms bigint, message_id text,
    recipient_session_id text, hop_count integer, created_at bigint)
  LANGUAGE plpgsql VOLATILE AS $$
  DECLARE
    v record;
    v_now bigint;
    v_seq bigint;
  BEGIN
    v_now := brigade_now_ms();
    SELECT * INTO v FROM brigade_send_verdict(p_principal, p_team, p_sender, p_recipient,
      p_body, p_summary, p_reply_to, p_key, v_now, p_limits);
    IF v.verdict = 'accept' THEN
      PERFORM pg_advisory_xact_lock(brigade_lock_key('p', p_principal));
      PERFORM pg_advisory_xact_lock(brigade_lock_key('s', p_recipient));
      v_now := brigade_now_ms();
      SELECT * INTO v FROM brigade_send_verdict(p_principal, p_team, p_sender, p_recipient,
        p_body, p_summary, p_reply_to, p_key, v_now, p_limits);
    END IF;
    IF v.verdict = 'accept' THEN
      INSERT INTO messages (message_id, team_ref, sender_principal_ref, sender_session_id,
          sender_session_name, sender_human_label, recipient_session_id, summary, body, reply_to,
          hop_count, created_at, idempotency_key)
        VALUES (p_message_id, p_team, p_principal, p_sender, v.sender_name, v.human_label,
          p_recipient, p_summary, p_body, p_reply_to, v.hop, v_now, p_key)
        RETURNING messages.seq INTO v_seq;
      INSERT INTO inbox (seq, message_id, recipient_session_id, sender_session_id, created_at)
        VALUES (v_seq, p_message_id, p_recipient, p_sender, v_now);
      RETURN QUERY SELECT 'accepted'::text, NULL::text, NULL::bigint, p_message_id, p_recipient,
        v.hop, v_now;
    ELSIF v.verdict = 'duplicate' THEN
      RETURN QUERY SELECT 'duplicate'::text, NULL::text, NULL::bigint, m.message_id,
          m.recipient_session_id, m.hop_count, m.created_at
        FROM addressed_messages m WHERE m.message_id = v.original_id;
    ELSE
      RETURN QUERY SELECT v.verdict, v.reason, v.retry_after_ms, NULL::text, NULL::text,
        NULL::integer, NULL::bigint;
    END IF;
  END
  $$;
`;

/**
 * SHA-256 of {@link POSTGRES_FUNCTIONS}, 64 lowercase hex digits: what `schema_functions` records
 * once the definitions are in place.
 */
export const POSTGRES_FUNCTIONS_DIGEST: string = createHash("sha256")
  .update(POSTGRES_FUNCTIONS, "utf8")
  .digest("hex");

/**
 * Puts {@link POSTGRES_FUNCTIONS} in place when the digest recorded in the one-row table
 * `schema_functions` (created when absent) is not {@link POSTGRES_FUNCTIONS_DIGEST}: the
 * definitions and the new digest commit in one transaction, so a crash leaves the old ones with
 * the old digest and the next start applies them again. Returns whether it applied them. The
 * caller holds the migration lock and has migrated: several processes starting at once apply
 * them once, and the tables and view they read exist. Rejects with the database's error.
 *
 * @example
 * await applyPostgresFunctions(client); // true on the first start after a change, then false
 */
export async function applyPostgresFunctions(client: ClientBase): Promise<boolean> {
  await client.query("BEGIN");
  try {
    await client.query("CREATE TABLE IF NOT EXISTS schema_functions (digest text NOT NULL)");
    const read = await client.query<{ digest: string }>("SELECT digest FROM schema_functions");
    if (read.rows.length === 1 && read.rows[0]?.digest === POSTGRES_FUNCTIONS_DIGEST) {
      await client.query("COMMIT");
      return false;
    }
    await client.query(POSTGRES_FUNCTIONS);
    await client.query("DELETE FROM schema_functions");
    await client.query("INSERT INTO schema_functions (digest) VALUES ($1)", [
      POSTGRES_FUNCTIONS_DIGEST,
    ]);
    await client.query("COMMIT");
    return true;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
