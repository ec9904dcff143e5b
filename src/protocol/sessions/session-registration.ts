import {
  DEFAULT_LEASE,
  MAX_BRIGADE_VERSION_CODEPOINTS,
  MAX_CONTEXT_USED_TOKENS,
  MAX_SYNC_PEER_CODEPOINTS,
  PROTOCOL_LIMITS,
} from "../limits.ts";
import {
  expectObject,
  member,
  nullableInteger,
  nullableString,
  optionalString,
  requiredBoolean,
  requiredEnum,
  requiredInteger,
  requiredString,
  requiredTimestamp,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type NotLiveReason, readLiveDelivery } from "./live-delivery.ts";
import { readSessionRecord, type SessionRecord } from "./session-record.ts";
import {
  ACTIVITIES,
  type Activity,
  INBOUND_POLICIES,
  type InboundPolicy,
} from "./session-vocabulary.ts";

/**
 * `SessionRegistration.resume`: re-open an owned closed or expired session in place
 * (docs/spec/protocol.md §4.3).
 */
export interface SessionResumeRequest {
  session_id: string;
}

/**
 * `session register` stdin (harness → adapter, docs/spec/protocol.md §4.3). Optional members are
 * omitted when they have no value; the `| null` members may also carry an explicit `null` (no
 * value). An adapter lacking the matching `session.*` capability still accepts a member and ignores
 * it. There is deliberately no member for a native session id, cwd, hostname, username or
 * transcript path.
 *
 * @example
 * const registration: SessionRegistration = {
 *   harness: "claude-code", harness_version: "2.1.270", session_name: "billing-svc",
 *   activity: "busy", inbound: "accept",
 * };
 */
export interface SessionRegistration {
  /** e.g. `"claude-code"`. */
  harness: string;
  /** e.g. `"2.1.270"`. */
  harness_version: string;
  /** ≤ 64 code points; unverified display text. */
  session_name: string;
  activity: Activity;
  inbound: InboundPolicy;
  /** ≤ 256 code points; cap `session.description`. */
  session_description?: string | null;
  /** Integer within the adapter's `lease.min_seconds..max_seconds`; absent → `lease.default_seconds`. */
  lease_seconds?: number | null;
  /** ≤ 128 code points; cap `session.workspace_label`. */
  workspace_label?: string | null;
  /** ≤ 128 code points; fills an empty membership label only (cap `session.human_label`). */
  human_label?: string | null;
  /** ≤ 128 code points; cap `session.model`. */
  model?: string | null;
  /** Integer 0..2^53 − 1; cap `session.context_used_tokens`. */
  context_used_tokens?: number | null;
  /** ≤ 64 code points; cap `session.brigade_version`. Not nullable. */
  brigade_version?: string;
  /** ≤ 256 code points, opaque `<adapter>:<descriptor>`; cap `session.sync_peer`. Not nullable. */
  sync_peer?: string;
  /** Whether the session can receive live (cap `session.live_delivery`); `null` = not said. */
  live_delivery?: "yes" | "no" | null;
  /** Required with `live_delivery: "no"`, dropped otherwise. */
  live_delivery_reason?: NotLiveReason;
  /** Cap `session.resume`. */
  resume?: SessionResumeRequest | null;
}

/**
 * The `session register` result (docs/spec/protocol.md §4.3): the `SessionRecord` plus `resumed`,
 * the granted `lease_seconds` and the adapter clock's `server_time`.
 *
 * @example
 * result.lease_until; // ≈ server_time + lease_seconds
 */
export interface SessionRegistrationResult extends SessionRecord {
  resumed: boolean;
  lease_seconds: number;
  server_time: string;
}

/** The lease range a registration or heartbeat `lease_seconds` must fall in. */
export interface LeaseBounds {
  readonly min_seconds: number;
  readonly max_seconds: number;
}

/** Options of {@link validateSessionRegistration}. */
export interface SessionRegistrationOptions {
  /** The adapter's accepted lease range; defaults to `DEFAULT_LEASE` (30..600 s). */
  readonly lease?: LeaseBounds;
}

/**
 * Validates a `session register` document (docs/spec/protocol.md §4.3, §2). Over-cap and shape
 * failures are `invalid_input` naming the member (`session_name`, `resume.session_id`, …);
 * `lease_seconds` outside the lease range is `out_of_range` with `min`/`max`. Unknown members are
 * dropped.
 *
 * @example
 * validateSessionRegistration({ harness: "claude-code", harness_version: "2.1.270",
 *   session_name: "x".repeat(65), activity: "busy", inbound: "accept" });
 * // { ok: false, error: { code: "invalid_input", …, details: { field: "session_name",
 * //   reason: "too_long", limit: "64", actual: "65", unit: "codepoints" } } }
 */
export function validateSessionRegistration(
  value: unknown,
  options?: SessionRegistrationOptions,
): ValidationResult<SessionRegistration> {
  const lease = options?.lease ?? DEFAULT_LEASE;
  return runValidation(() => {
    const o = expectObject(value, "");
    const out: SessionRegistration = {
      harness: requiredString(o, "harness", ""),
      harness_version: requiredString(o, "harness_version", ""),
      session_name: requiredString(o, "session_name", "", {
        cap: PROTOCOL_LIMITS.max_session_name_codepoints,
      }),
      activity: requiredEnum(o, "activity", "", ACTIVITIES),
      inbound: requiredEnum(o, "inbound", "", INBOUND_POLICIES),
    };
    const description = nullableString(o, "session_description", "", {
      cap: PROTOCOL_LIMITS.max_description_chars,
    });
    if (description !== undefined) out.session_description = description;
    const leaseSeconds = nullableInteger(
      o,
      "lease_seconds",
      "",
      lease.min_seconds,
      lease.max_seconds,
    );
    if (leaseSeconds !== undefined) out.lease_seconds = leaseSeconds;
    const workspace = nullableString(o, "workspace_label", "", {
      cap: PROTOCOL_LIMITS.max_workspace_label_chars,
    });
    if (workspace !== undefined) out.workspace_label = workspace;
    const label = nullableString(o, "human_label", "", {
      cap: PROTOCOL_LIMITS.max_human_label_chars,
    });
    if (label !== undefined) out.human_label = label;
    const model = nullableString(o, "model", "", { cap: PROTOCOL_LIMITS.max_model_chars });
    if (model !== undefined) out.model = model;
    const tokens = nullableInteger(o, "context_used_tokens", "", 0, MAX_CONTEXT_USED_TOKENS);
    if (tokens !== undefined) out.context_used_tokens = tokens;
    const version = optionalString(o, "brigade_version", "", {
      cap: MAX_BRIGADE_VERSION_CODEPOINTS,
    });
    if (version !== undefined) out.brigade_version = version;
    const peer = optionalString(o, "sync_peer", "", { cap: MAX_SYNC_PEER_CODEPOINTS });
    if (peer !== undefined) out.sync_peer = peer;
    const live = readLiveDelivery(o, "");
    if (live !== undefined) Object.assign(out, live);
    const resume = member(o, "resume");
    if (resume === null) {
      out.resume = null;
    } else if (resume !== undefined) {
      const resumeObject = expectObject(resume, "resume");
      out.resume = {
        session_id: requiredString(resumeObject, "session_id", "resume", { nonEmpty: true }),
      };
    }
    return out;
  });
}

/**
 * Validates a `session register` result (docs/spec/protocol.md §4.3): a `SessionRecord` plus
 * `resumed`, `lease_seconds` (integer ≥ 1) and `server_time`.
 *
 * @example
 * const r = validateSessionRegistrationResult(envelope.result);
 * if (r.ok) r.value.resumed; // boolean
 */
export function validateSessionRegistrationResult(
  value: unknown,
): ValidationResult<SessionRegistrationResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const record = readSessionRecord(o, "");
    const resumed = requiredBoolean(o, "resumed", "");
    const leaseSeconds = requiredInteger(o, "lease_seconds", "", 1, Number.MAX_SAFE_INTEGER);
    const serverTime = requiredTimestamp(o, "server_time", "");
    return { ...record, resumed, lease_seconds: leaseSeconds, server_time: serverTime };
  });
}
