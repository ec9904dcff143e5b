import type { MessageRow, SessionRow } from "./store.ts";

/**
 * A session row for the store contract cases: session `id` of principal `p-a` in team `t-1`,
 * named `name-<id>`, busy and accepting, a 90 s lease from 1,000,000 ms; `overrides` replace any
 * member. Test data only: no store reads it as a default.
 */
export function contractSession(id: string, overrides: Partial<SessionRow> = {}): SessionRow {
  return {
    session_id: id,
    team_ref: "t-1",
    principal_ref: "p-a",
    session_name: `name-${id}`,
    activity: "busy",
    inbound: "accept",
    session_description: null,
    workspace_label: null,
    model: null,
    context_used_tokens: null,
    brigade_version: null,
    sync_peer: null,
    live_delivery: null,
    live_delivery_at: null,
    harness: "claude-code",
    harness_version: "2.1.270",
    lease_seconds: 90,
    lease_until: 1_000_000 + 90_000,
    last_seen_at: 1_000_000,
    created_at: 1_000_000,
    closed_at: null,
    ...overrides,
  };
}

/**
 * A message row for the store contract cases: message `id` in team `t-1` from session `s-a`
 * (principal `p-a`) to session `s-b`, body `hello`, created at 1,000,000 ms, unacked; `overrides`
 * replace any member.
 */
export function contractMessage(id: string, overrides: Partial<MessageRow> = {}): MessageRow {
  return {
    message_id: id,
    team_ref: "t-1",
    sender_principal_ref: "p-a",
    sender_session_id: "s-a",
    sender_session_name: "name-s-a",
    sender_human_label: null,
    recipient_session_id: "s-b",
    summary: null,
    body: "hello",
    reply_to: null,
    hop_count: 0,
    created_at: 1_000_000,
    acked_at: null,
    idempotency_key: null,
    ...overrides,
  };
}
