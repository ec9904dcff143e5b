import { protocolMismatchError } from "../errors/error-builders.ts";
import { PROTOCOL_VERSION, type ProtocolVersion } from "../limits.ts";
import type { AttachmentLimits } from "../messages/attachment.ts";
import {
  expectObject,
  failField,
  failWith,
  fieldPath,
  member,
  optionalString,
  requiredArray,
  requiredEnum,
  requiredInteger,
  requiredObject,
  requiredString,
  runValidation,
  stringElement,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/** `DescribeResult.adapter`: the adapter's own name and version (display text). */
export interface AdapterIdentity {
  name: string;
  version: string;
}

/** `delivery.ack_state` values; `processed` is reserved (docs/spec/protocol.md §4.2, §8). */
export const ACK_STATES = ["injected", "processed"] as const;

/** What an ack means: `injected` in v1. */
export type AckState = (typeof ACK_STATES)[number];

/** `DescribeResult.delivery` (docs/spec/protocol.md §4.2). */
export interface DeliveryContract {
  /** Always `at_least_once`. */
  guarantee: "at_least_once";
  /** Free text; we answer `none`. */
  ordering: string;
  /** `injected` (`processed` reserved). */
  ack_state: AckState;
}

/** A per-minute / per-hour message budget (`send_rate`, `principal_send_rate`). */
export interface RateBudget {
  per_minute: number;
  per_hour: number;
}

/**
 * `DescribeResult.limits` (docs/spec/protocol.md §4.2, §7): every member present and a positive
 * integer; an adapter advertises exactly `PROTOCOL_LIMITS`.
 */
export interface DescribeLimits {
  max_body_bytes: number;
  max_summary_chars: number;
  max_session_name_codepoints: number;
  max_team_name_codepoints: number;
  max_description_chars: number;
  max_human_label_chars: number;
  max_workspace_label_chars: number;
  max_model_chars: number;
  max_idempotency_key_chars: number;
  send_rate: RateBudget;
  principal_send_rate: RateBudget;
  max_unacked_per_recipient: number;
  max_unacked_per_sender_recipient: number;
  max_hop_count: number;
  implicit_reply_window_seconds: number;
}

/** `DescribeResult.lease`: the adapter's accepted lease range in seconds, `min ≤ default ≤ max`. */
export interface LeaseRange {
  default_seconds: number;
  min_seconds: number;
  max_seconds: number;
}

/**
 * `DescribeResult.retention`: the adapter's retention, in seconds (floors in
 * docs/spec/protocol.md §6.9).
 */
export interface RetentionPolicy {
  unacked_message_seconds: number;
  acked_message_seconds: number;
  closed_session_seconds: number;
}

/** `profile.state` values (docs/spec/protocol.md §4.2), computed from local files only. */
export const PROFILE_STATES = ["unconfigured", "unauthenticated", "not_member", "joined"] as const;

/** A profile state. */
export type ProfileState = (typeof PROFILE_STATES)[number];

/** `DescribeResult.profile` when the profile is not bound to a team: no team or principal members. */
export interface UnboundProfileSummary {
  name: string;
  state: Exclude<ProfileState, "joined">;
}

/** `DescribeResult.profile` when `joined`: team and principal members present. */
export interface JoinedProfileSummary {
  name: string;
  state: "joined";
  team_ref: string;
  team_name: string;
  principal_ref: string;
  /** The membership's label, when it has one; unverified display text. */
  human_label?: string;
}

/** `DescribeResult.profile` (docs/spec/protocol.md §4.2). */
export type ProfileSummary = UnboundProfileSummary | JoinedProfileSummary;

/**
 * The `describe` result (docs/spec/protocol.md §4.2). All members required; `capabilities` MUST
 * include `message.receive` and may include strings unknown to us (kept, ignored by feature
 * checks).
 *
 * @example
 * const r = validateDescribeResult(JSON.parse(stdout).result);
 * if (r.ok && hasCapability(r.value.capabilities, "message.watch.push")) …
 */
export interface DescribeResult {
  protocol_version: ProtocolVersion;
  adapter: AdapterIdentity;
  delivery: DeliveryContract;
  capabilities: string[];
  limits: DescribeLimits;
  lease: LeaseRange;
  retention: RetentionPolicy;
  profile: ProfileSummary;
  /**
   * **[ours]** Present with the capability `message.attachments`: the ceilings the adapter
   * checks before an upload (docs/20-protocol.md, "Attachments").
   */
  attachments?: AttachmentLimits;
}

const LIMIT_NUMBER_MEMBERS = [
  "max_body_bytes",
  "max_summary_chars",
  "max_session_name_codepoints",
  "max_team_name_codepoints",
  "max_description_chars",
  "max_human_label_chars",
  "max_workspace_label_chars",
  "max_model_chars",
  "max_idempotency_key_chars",
] as const;

const positive = (object: WireObject, name: string, prefix: string): number =>
  requiredInteger(object, name, prefix, 1, Number.MAX_SAFE_INTEGER);

function readRateBudget(object: WireObject, name: string, prefix: string): RateBudget {
  const path = fieldPath(prefix, name);
  const budget = requiredObject(object, name, prefix);
  return {
    per_minute: positive(budget, "per_minute", path),
    per_hour: positive(budget, "per_hour", path),
  };
}

function readLimits(object: WireObject): DescribeLimits {
  const limits = requiredObject(object, "limits", "");
  const numbers: Record<string, number> = {};
  for (const name of LIMIT_NUMBER_MEMBERS) numbers[name] = positive(limits, name, "limits");
  const n = numbers as Record<(typeof LIMIT_NUMBER_MEMBERS)[number], number>;
  return {
    max_body_bytes: n.max_body_bytes,
    max_summary_chars: n.max_summary_chars,
    max_session_name_codepoints: n.max_session_name_codepoints,
    max_team_name_codepoints: n.max_team_name_codepoints,
    max_description_chars: n.max_description_chars,
    max_human_label_chars: n.max_human_label_chars,
    max_workspace_label_chars: n.max_workspace_label_chars,
    max_model_chars: n.max_model_chars,
    max_idempotency_key_chars: n.max_idempotency_key_chars,
    send_rate: readRateBudget(limits, "send_rate", "limits"),
    principal_send_rate: readRateBudget(limits, "principal_send_rate", "limits"),
    max_unacked_per_recipient: positive(limits, "max_unacked_per_recipient", "limits"),
    max_unacked_per_sender_recipient: positive(
      limits,
      "max_unacked_per_sender_recipient",
      "limits",
    ),
    max_hop_count: positive(limits, "max_hop_count", "limits"),
    implicit_reply_window_seconds: positive(limits, "implicit_reply_window_seconds", "limits"),
  };
}

function readLease(object: WireObject): LeaseRange {
  const lease = requiredObject(object, "lease", "");
  const range: LeaseRange = {
    default_seconds: positive(lease, "default_seconds", "lease"),
    min_seconds: positive(lease, "min_seconds", "lease"),
    max_seconds: positive(lease, "max_seconds", "lease"),
  };
  if (range.min_seconds > range.default_seconds) failField("lease.min_seconds", "out_of_range");
  if (range.default_seconds > range.max_seconds) failField("lease.max_seconds", "out_of_range");
  return range;
}

function readRetention(object: WireObject): RetentionPolicy {
  const retention = requiredObject(object, "retention", "");
  return {
    unacked_message_seconds: positive(retention, "unacked_message_seconds", "retention"),
    acked_message_seconds: positive(retention, "acked_message_seconds", "retention"),
    closed_session_seconds: positive(retention, "closed_session_seconds", "retention"),
  };
}

function readAttachmentLimits(object: WireObject): AttachmentLimits | undefined {
  if (member(object, "attachments") === undefined) return undefined;
  const limits = requiredObject(object, "attachments", "");
  return {
    max_attachments_per_message: positive(limits, "max_attachments_per_message", "attachments"),
    max_attachment_bytes: positive(limits, "max_attachment_bytes", "attachments"),
    max_message_attachment_bytes: positive(limits, "max_message_attachment_bytes", "attachments"),
  };
}

function readProfile(object: WireObject): ProfileSummary {
  const profile = requiredObject(object, "profile", "");
  const name = requiredString(profile, "name", "profile");
  const state = requiredEnum(profile, "state", "profile", PROFILE_STATES);
  if (state !== "joined") return { name, state };
  const joined: JoinedProfileSummary = {
    name,
    state,
    team_ref: requiredString(profile, "team_ref", "profile", { nonEmpty: true }),
    team_name: requiredString(profile, "team_name", "profile", { cap: 64 }),
    principal_ref: requiredString(profile, "principal_ref", "profile", { nonEmpty: true }),
  };
  const label = optionalString(profile, "human_label", "profile", { cap: 128 });
  if (label !== undefined) joined.human_label = label;
  return joined;
}

/** Reads the `protocol_version` member, failing `protocol_mismatch` for another version. */
export function readProtocolVersion(object: WireObject, prefix: string): ProtocolVersion {
  const path = fieldPath(prefix, "protocol_version");
  const value = member(object, "protocol_version");
  if (value === undefined) failField(path, "required");
  if (typeof value !== "string") failField(path, "invalid_value");
  if (value !== PROTOCOL_VERSION) failWith(protocolMismatchError());
  return PROTOCOL_VERSION;
}

/**
 * Validates a `describe` result (docs/spec/protocol.md §4.2). A `protocol_version` other than `"1"`
 * fails with `protocol_mismatch` (exit 10, docs/spec/protocol.md §6.13); every other failure is
 * `invalid_input` naming the member (`limits.max_body_bytes`, `lease.min_seconds`, …). A missing
 * `message.receive` capability fails with `field = "capabilities"`, `reason = "invalid_value"`.
 * Unknown members are dropped.
 *
 * @example
 * validateDescribeResult({ protocol_version: "2" }).ok === false; // code "protocol_mismatch"
 */
export function validateDescribeResult(value: unknown): ValidationResult<DescribeResult> {
  return runValidation(() => {
    const object = expectObject(value, "");
    const protocol_version = readProtocolVersion(object, "");
    const adapterObject = requiredObject(object, "adapter", "");
    const adapter: AdapterIdentity = {
      name: requiredString(adapterObject, "name", "adapter", { nonEmpty: true }),
      version: requiredString(adapterObject, "version", "adapter"),
    };
    const deliveryObject = requiredObject(object, "delivery", "");
    const delivery: DeliveryContract = {
      guarantee: requiredEnum(deliveryObject, "guarantee", "delivery", ["at_least_once"] as const),
      ordering: requiredString(deliveryObject, "ordering", "delivery"),
      ack_state: requiredEnum(deliveryObject, "ack_state", "delivery", ACK_STATES),
    };
    const capabilities = requiredArray(object, "capabilities", "", true, stringElement);
    if (!capabilities.includes("message.receive")) failField("capabilities", "invalid_value");
    return {
      protocol_version,
      adapter,
      delivery,
      capabilities,
      limits: readLimits(object),
      lease: readLease(object),
      retention: readRetention(object),
      profile: readProfile(object),
      ...attachmentsMember(readAttachmentLimits(object)),
    };
  });
}

function attachmentsMember(limits: AttachmentLimits | undefined): {
  attachments?: AttachmentLimits;
} {
  return limits === undefined ? {} : { attachments: limits };
}
