import {
  DEFAULT_LEASE,
  MAX_BRIGADE_VERSION_CODEPOINTS,
  MAX_CONTEXT_USED_TOKENS,
  MAX_SYNC_PEER_CODEPOINTS,
  PROTOCOL_LIMITS,
} from "../limits.ts";
import {
  expectObject,
  failField,
  fieldPath,
  nullableEnum,
  nullableInteger,
  nullableString,
  requiredEnum,
  requiredString,
  requiredTimestamp,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type NotLiveReason, readLiveDelivery } from "./live-delivery.ts";
import type { LeaseBounds } from "./session-registration.ts";
import {
  ACTIVITIES,
  type Activity,
  INBOUND_POLICIES,
  type InboundPolicy,
  SESSION_STATES,
  type SessionState,
} from "./session-vocabulary.ts";

/**
 * The members a heartbeat may change (docs/spec/protocol.md §4.5; shared with the watch `heartbeat`
 * command). Every member is optional; absent **and** `null` mean unchanged. `model`,
 * `context_used_tokens`, `brigade_version` and `sync_peer` are never cleared by a heartbeat.
 */
export interface HeartbeatChanges {
  activity?: Activity | null;
  /** Non-empty, ≤ 64 code points. */
  session_name?: string | null;
  inbound?: InboundPolicy | null;
  /** Integer within the adapter's lease range. */
  lease_seconds?: number | null;
  /** ≤ 128 code points. */
  model?: string | null;
  /** Integer 0..2^53 − 1. */
  context_used_tokens?: number | null;
  /** ≤ 64 code points. */
  brigade_version?: string | null;
  /** ≤ 256 code points. */
  sync_peer?: string | null;
  /** Whether the session can receive live (cap `session.live_delivery`); `"yes"` clears a reason. */
  live_delivery?: "yes" | "no" | null;
  /** Required with `live_delivery: "no"`, dropped otherwise. */
  live_delivery_reason?: NotLiveReason;
}

/**
 * `session heartbeat --session <id>` stdin (docs/spec/protocol.md §4.5): renews `lease_until = now
 * + lease` and applies present values. `session_description: ""` replaces the description and means
 * none.
 *
 * @example
 * const beat: HeartbeatRequest = { activity: "idle", session_description: "" };
 */
export interface HeartbeatRequest extends HeartbeatChanges {
  /** ≤ 256 code points; `""` clears. */
  session_description?: string | null;
}

/**
 * The `session heartbeat` result (docs/spec/protocol.md §4.5), all members required; also the body
 * of the watch `heartbeat_ok` event.
 *
 * @example
 * { session_id: "s-51d0", state: "active", lease_until: "2026-10-02T09:17:12Z", server_time: "2026-10-02T09:15:42Z" }
 */
export interface HeartbeatResult {
  session_id: string;
  state: SessionState;
  lease_until: string;
  server_time: string;
  /**
   * **[ours]** Unacknowledged messages to this session that its person released on the
   * dashboard (docs/52-dashboard.md): the harness delivers them as it would after `brigade inbox
   * release`. Absent when none; at most {@link MAX_RELEASED_IDS}.
   */
  released_message_ids?: string[];
}

/** Most ids a heartbeat result names in `released_message_ids` (the inbox cap is 60). */
export const MAX_RELEASED_IDS = 200;

/** Options of {@link validateHeartbeatRequest}. */
export interface HeartbeatOptions {
  /** The adapter's accepted lease range; defaults to `DEFAULT_LEASE` (30..600 s). */
  readonly lease?: LeaseBounds;
}

/** Reads the shared heartbeat members of `o` into `out`; throws the validators' failure. */
export function readHeartbeatChanges(
  o: WireObject,
  prefix: string,
  lease: LeaseBounds,
  out: HeartbeatChanges,
): void {
  const activity = nullableEnum(o, "activity", prefix, ACTIVITIES);
  if (activity !== undefined) out.activity = activity;
  const name = nullableString(o, "session_name", prefix, {
    nonEmpty: true,
    cap: PROTOCOL_LIMITS.max_session_name_codepoints,
  });
  if (name !== undefined) out.session_name = name;
  const inbound = nullableEnum(o, "inbound", prefix, INBOUND_POLICIES);
  if (inbound !== undefined) out.inbound = inbound;
  const leaseSeconds = nullableInteger(
    o,
    "lease_seconds",
    prefix,
    lease.min_seconds,
    lease.max_seconds,
  );
  if (leaseSeconds !== undefined) out.lease_seconds = leaseSeconds;
  const model = nullableString(o, "model", prefix, { cap: PROTOCOL_LIMITS.max_model_chars });
  if (model !== undefined) out.model = model;
  const tokens = nullableInteger(o, "context_used_tokens", prefix, 0, MAX_CONTEXT_USED_TOKENS);
  if (tokens !== undefined) out.context_used_tokens = tokens;
  const version = nullableString(o, "brigade_version", prefix, {
    cap: MAX_BRIGADE_VERSION_CODEPOINTS,
  });
  if (version !== undefined) out.brigade_version = version;
  const peer = nullableString(o, "sync_peer", prefix, { cap: MAX_SYNC_PEER_CODEPOINTS });
  if (peer !== undefined) out.sync_peer = peer;
  const live = readLiveDelivery(o, prefix);
  if (live !== undefined) Object.assign(out, live);
}

/**
 * Validates a `session heartbeat` document (docs/spec/protocol.md §4.5). Failures are
 * `invalid_input` naming the member; unknown members (e.g. `workspace_label`) are dropped.
 *
 * @example
 * validateHeartbeatRequest({ session_name: "" }).ok === false; // field "session_name"
 * validateHeartbeatRequest({}).ok === true; // nothing changes, the lease renews
 */
export function validateHeartbeatRequest(
  value: unknown,
  options?: HeartbeatOptions,
): ValidationResult<HeartbeatRequest> {
  const lease = options?.lease ?? DEFAULT_LEASE;
  return runValidation(() => {
    const o = expectObject(value, "");
    const out: HeartbeatRequest = {};
    readHeartbeatChanges(o, "", lease, out);
    const description = nullableString(o, "session_description", "", {
      cap: PROTOCOL_LIMITS.max_description_chars,
    });
    if (description !== undefined) out.session_description = description;
    return out;
  });
}

/** Reads a HeartbeatResult from `o`; throws the validators' failure. */
export function readHeartbeatResult(o: WireObject, prefix: string): HeartbeatResult {
  const result: HeartbeatResult = {
    session_id: requiredString(o, "session_id", prefix, { nonEmpty: true }),
    state: requiredEnum(o, "state", prefix, SESSION_STATES),
    lease_until: requiredTimestamp(o, "lease_until", prefix),
    server_time: requiredTimestamp(o, "server_time", prefix),
  };
  const released = o.released_message_ids;
  if (released !== undefined && released !== null) {
    const field = fieldPath(prefix, "released_message_ids");
    if (!Array.isArray(released)) failField(field, "invalid_value");
    if (released.length > MAX_RELEASED_IDS) failField(field, "out_of_range");
    released.forEach((id: unknown, i: number) => {
      if (typeof id !== "string" || id === "" || id.length > 128)
        failField(`${field}.${i}`, "invalid_value");
    });
    if (released.length > 0) result.released_message_ids = released as string[];
  }
  return result;
}

/**
 * Validates a `session heartbeat` result (docs/spec/protocol.md §4.5).
 *
 * @example
 * validateHeartbeatResult({ session_id: "s-1", state: "idle", lease_until: "2026-10-02T09:17:12Z",
 *   server_time: "2026-10-02T09:15:42Z" }).ok === true;
 */
export function validateHeartbeatResult(value: unknown): ValidationResult<HeartbeatResult> {
  return runValidation(() => readHeartbeatResult(expectObject(value, ""), ""));
}
