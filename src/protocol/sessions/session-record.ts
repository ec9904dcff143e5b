import {
  MAX_BRIGADE_VERSION_CODEPOINTS,
  MAX_CONTEXT_USED_TOKENS,
  MAX_SYNC_PEER_CODEPOINTS,
  PROTOCOL_LIMITS,
} from "../limits.ts";
import {
  expectObject,
  nullableInteger,
  nullableString,
  optionalString,
  requiredBoolean,
  requiredEnum,
  requiredString,
  requiredTimestamp,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type NotLiveReason, readReportedLiveDelivery } from "./live-delivery.ts";
import {
  ACTIVITIES,
  type Activity,
  INBOUND_POLICIES,
  type InboundPolicy,
  SESSION_STATES,
  type SessionState,
} from "./session-vocabulary.ts";

/**
 * One session as an adapter reports it (docs/spec/protocol.md §4.4), in `session list` and
 * (extended) in the `session register` result. Every display member is unverified text.
 *
 * @example
 * const record: SessionRecord = {
 *   session_id: "s-51d0", session_name: "billing-svc", principal_ref: "p-41c9", state: "active",
 *   activity: "busy", inbound: "accept", last_seen_at: "2026-10-02T09:15:42Z",
 *   lease_until: "2026-10-02T09:17:12Z", created_at: "2026-10-02T09:00:00Z", is_self: false,
 * };
 */
export interface SessionRecord {
  /** Adapter-assigned opaque id, non-empty. */
  session_id: string;
  /** ≤ 64 code points. */
  session_name: string;
  /** Owner of the session, non-empty. */
  principal_ref: string;
  state: SessionState;
  activity: Activity;
  inbound: InboundPolicy;
  last_seen_at: string;
  lease_until: string;
  created_at: string;
  /** `true` only in a `session list --session <id>` result, for that session. */
  is_self: boolean;
  /** ≤ 256 code points; `""`, `null` and absent all mean none. */
  session_description?: string | null;
  /** The membership's label (≤ 128 cp); unverified — every consumer says so once per output. */
  human_label?: string;
  harness?: string;
  harness_version?: string;
  /** ≤ 128 code points. */
  workspace_label?: string | null;
  /** ≤ 128 code points. */
  model?: string | null;
  /** Integer 0..2^53 − 1. */
  context_used_tokens?: number | null;
  /** ≤ 64 code points. */
  brigade_version?: string;
  /** ≤ 256 code points. */
  sync_peer?: string;
  /** What the harness last said of live delivery (cap `session.live_delivery`); absent = never. */
  live_delivery?: "yes" | "no";
  /** Present with `live_delivery: "no"`: why the session cannot receive live. */
  live_delivery_reason?: NotLiveReason;
}

/** Reads a SessionRecord from `o` (members at `prefix`); throws the validators' failure. */
export function readSessionRecord(o: WireObject, prefix: string): SessionRecord {
  const id = { nonEmpty: true } as const;
  const record: SessionRecord = {
    session_id: requiredString(o, "session_id", prefix, id),
    session_name: requiredString(o, "session_name", prefix, {
      cap: PROTOCOL_LIMITS.max_session_name_codepoints,
    }),
    principal_ref: requiredString(o, "principal_ref", prefix, id),
    state: requiredEnum(o, "state", prefix, SESSION_STATES),
    activity: requiredEnum(o, "activity", prefix, ACTIVITIES),
    inbound: requiredEnum(o, "inbound", prefix, INBOUND_POLICIES),
    last_seen_at: requiredTimestamp(o, "last_seen_at", prefix),
    lease_until: requiredTimestamp(o, "lease_until", prefix),
    created_at: requiredTimestamp(o, "created_at", prefix),
    is_self: requiredBoolean(o, "is_self", prefix),
  };
  const description = nullableString(o, "session_description", prefix, {
    cap: PROTOCOL_LIMITS.max_description_chars,
  });
  if (description !== undefined) record.session_description = description;
  const label = optionalString(o, "human_label", prefix, {
    cap: PROTOCOL_LIMITS.max_human_label_chars,
  });
  if (label !== undefined) record.human_label = label;
  const harness = optionalString(o, "harness", prefix);
  if (harness !== undefined) record.harness = harness;
  const harnessVersion = optionalString(o, "harness_version", prefix);
  if (harnessVersion !== undefined) record.harness_version = harnessVersion;
  const workspace = nullableString(o, "workspace_label", prefix, {
    cap: PROTOCOL_LIMITS.max_workspace_label_chars,
  });
  if (workspace !== undefined) record.workspace_label = workspace;
  const model = nullableString(o, "model", prefix, { cap: PROTOCOL_LIMITS.max_model_chars });
  if (model !== undefined) record.model = model;
  const tokens = nullableInteger(o, "context_used_tokens", prefix, 0, MAX_CONTEXT_USED_TOKENS);
  if (tokens !== undefined) record.context_used_tokens = tokens;
  const version = optionalString(o, "brigade_version", prefix, {
    cap: MAX_BRIGADE_VERSION_CODEPOINTS,
  });
  if (version !== undefined) record.brigade_version = version;
  const peer = optionalString(o, "sync_peer", prefix, { cap: MAX_SYNC_PEER_CODEPOINTS });
  if (peer !== undefined) record.sync_peer = peer;
  const live = readReportedLiveDelivery(o);
  if (live !== undefined) Object.assign(record, live);
  return record;
}

/**
 * Validates one `SessionRecord` (docs/spec/protocol.md §4.4). Unknown members are dropped.
 *
 * @example
 * validateSessionRecord({ session_id: "" }).ok === false; // field "session_id"
 */
export function validateSessionRecord(value: unknown): ValidationResult<SessionRecord> {
  return runValidation(() => readSessionRecord(expectObject(value, ""), ""));
}
