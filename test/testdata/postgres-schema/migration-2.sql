
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

  -- The send function again, reading the messages as addressed now: a reply from the adopting
  -- session, its implicit-reply hop and a replay answer as they do on the SQLite store.
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

    SELECT s.team_ref INTO v_team FROM sessions s WHERE s.session_id = p_recipient;
    IF NOT FOUND OR v_team <> p_team THEN verdict := 'not_found'; RETURN; END IF;

    IF p_key IS NOT NULL THEN
      SELECT m.message_id, m.recipient_session_id, m.body, m.summary, m.reply_to INTO v_original
        FROM addressed_messages m WHERE m.sender_session_id = p_sender AND m.idempotency_key = p_key;
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
  