
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

  -- The database clock in epoch milliseconds: one clock for every server process.
  CREATE FUNCTION brigade_now_ms() RETURNS bigint LANGUAGE sql VOLATILE AS $$
    SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint
  $$;

  -- The key of a transaction-scoped advisory lock: kind 'p' (principal) or 's' (session).
  CREATE FUNCTION brigade_lock_key(kind text, ref text) RETURNS bigint
    LANGUAGE sql IMMUTABLE AS $$ SELECT hashtextextended(kind || ':' || ref, 0) $$;

  -- docs/spec/protocol.md §6.4: recipient NUL body NUL summary NUL reply_to, absent = empty. The
  -- values are escaped (NUL is chr(1) || '0'), so the separator is an escaped NUL: the result is
  -- the escape of the fingerprint the SQLite path builds, equal exactly when that one is.
  CREATE FUNCTION brigade_fingerprint(recipient text, body text, summary text, reply_to text)
    RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT recipient || chr(1) || '0' || body || chr(1) || '0' || coalesce(summary, '')
      || chr(1) || '0' || coalesce(reply_to, '')
  $$;

  -- Steps (b) to (i) of docs/spec/protocol.md §6.16, in that order, at p_now, as of one snapshot
  -- (STABLE: every query in it sees the calling statement's snapshot). verdict is 'accept',
  -- 'duplicate' (original_id set) or a refusal. p_limits: send per minute, per hour, principal
  -- per minute, per hour, pair cap, inbox cap, max hop count, implicit-reply window (ms), cap
  -- retry hint (ms).
  CREATE FUNCTION brigade_send_verdict(
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

    SELECT s.team_ref INTO v_team FROM sessions s WHERE s.session_id = p_recipient;
    IF NOT FOUND OR v_team <> p_team THEN verdict := 'not_found'; RETURN; END IF;

    IF p_key IS NOT NULL THEN
      SELECT m.message_id, m.recipient_session_id, m.body, m.summary, m.reply_to INTO v_original
        FROM messages m WHERE m.sender_session_id = p_sender AND m.idempotency_key = p_key;
      IF FOUND THEN
        IF brigade_fingerprint(v_original.recipient_session_id, v_original.body,
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
      SELECT m.hop_count + 1 INTO hop FROM messages m
        WHERE m.message_id = p_reply_to AND m.recipient_session_id = p_sender;
      IF NOT FOUND THEN verdict := 'not_found'; RETURN; END IF;
    ELSE
      SELECT m.hop_count INTO v_previous FROM messages m
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
  CREATE FUNCTION brigade_send(
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
        FROM messages m WHERE m.message_id = v.original_id;
    ELSE
      RETURN QUERY SELECT v.verdict, v.reason, v.retry_after_ms, NULL::text, NULL::text,
        NULL::integer, NULL::bigint;
    END IF;
  END
  $$;
  