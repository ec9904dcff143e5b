import type {
  AttachmentLimits,
  Capability,
  DescribeLimits,
  LeaseRange,
  RetentionPolicy,
} from "../protocol/index.ts";
import {
  ATTACHMENT_LIMITS,
  DEFAULT_LEASE,
  PROTOCOL_LIMITS,
  RETENTION_FLOORS,
} from "../protocol/index.ts";

/**
 * The lease range the service grants, in seconds (docs/spec/protocol.md §7: default 90, min 30, max
 * 600).
 */
export const SERVICE_LEASE: Readonly<LeaseRange> = Object.freeze({ ...DEFAULT_LEASE });

/**
 * The retention the service advertises, in seconds: exactly the floors of
 * docs/spec/protocol.md §6.9.
 */
export const SERVICE_RETENTION: Readonly<RetentionPolicy> = Object.freeze({ ...RETENTION_FLOORS });

/** Capabilities the backend semantics support (the adapter adds its own transport ones). */
export const SERVICE_CAPABILITIES: readonly Capability[] = Object.freeze([
  "team.create",
  "team.join",
  "team.roster",
  "team.admin",
  "message.receive",
  "session.description",
  "session.resume",
  "session.workspace_label",
  "session.inbound",
  "session.model",
  "session.context_used_tokens",
  "session.human_label",
  "session.brigade_version",
  "session.sync_peer",
  "session.live_delivery",
  "message.state",
  "message.adopt",
  "profile.rotate_token",
  "team.invitations",
  "team.labels",
  "message.attachments",
  "message.person",
] as const satisfies readonly Capability[]);

/**
 * The attachment limits a service enforces **[ours]** (capability `message.attachments`,
 * docs/20-protocol.md "Attachments"), in files and bytes. The first three are at most the
 * protocol's {@link ATTACHMENT_LIMITS} (`brigade serve --limit` may lower them); the team quota
 * bounds the bytes one team's blobs and uploads under way take on the server.
 */
export interface AttachmentSettings {
  readonly maxFilesPerMessage: number;
  readonly maxFileBytes: number;
  readonly maxMessageBytes: number;
  readonly teamQuotaBytes: number;
}

/** 1 MiB, in bytes. */
export const MIB = 1_048_576;

/**
 * The attachment limits of a service nobody configured: the protocol's ceilings (10 files, 25 MiB
 * a file, 100 MiB a message) and 1 GiB of blobs per team **[ours]** (ten full messages; a team
 * that needs more asks its operator, docs/50-operator.md "Disk").
 */
export const DEFAULT_ATTACHMENT_SETTINGS: AttachmentSettings = Object.freeze({
  maxFilesPerMessage: ATTACHMENT_LIMITS.max_attachments_per_message,
  maxFileBytes: ATTACHMENT_LIMITS.max_attachment_bytes,
  maxMessageBytes: ATTACHMENT_LIMITS.max_message_attachment_bytes,
  teamQuotaBytes: 1024 * MIB,
});

/**
 * Bytes per stored chunk of a blob **[ours]** (256 KiB): every chunk but the last is exactly this
 * long, so a byte offset names its chunk. Small enough that no stored value is large (a
 * PostgreSQL row, a SQLite record) and that moving one costs the event loop little; large enough
 * that a 25 MiB file is 100 chunks.
 */
export const BLOB_CHUNK_BYTES: number = 256 * 1024;

/**
 * How long a blob no message names is kept after its last upload, ms **[ours]**: the acknowledged
 * message retention (a day). An upload comes right before its send, so this only matters for a
 * send that failed or never came; re-uploading the same bytes renews it at no cost in space.
 */
export const UNNAMED_BLOB_RETENTION_MS: number = RETENTION_FLOORS.acked_message_seconds * 1000;

/**
 * How long an upload's content may stay without a blob naming it, ms **[ours]**: an hour, far past
 * any upload's request limit, after which it is the remains of an upload that died with its
 * process and the sweep removes it.
 */
export const STALE_BLOB_CONTENT_MS: number = 60 * 60 * 1000;

/** Blobs (and stale contents) deleted per sweep transaction **[ours]**: at most 200 MiB a unit. */
export const BLOB_GC_BATCH_SIZE = 8;

/**
 * The `retry_after_ms` hint of `team_storage_full` **[ours]**: a minute. Space frees only when the
 * sweep removes blobs no message needs any more, so the hint says "later", not "when".
 */
export const TEAM_STORAGE_RETRY_AFTER_MS = 60_000;

/**
 * Backend-side data for `describe`: the v1 limits (docs/spec/protocol.md §7), lease range,
 * retention and the service's capabilities.
 *
 * @example
 * describeBackend().limits.max_body_bytes === 16384;
 */
export interface BackendDescription {
  limits: DescribeLimits;
  lease: LeaseRange;
  retention: RetentionPolicy;
  capabilities: Capability[];
  /** The attachment limits of this service (capability `message.attachments`). */
  attachments: AttachmentLimits;
}

/** Failed join attempts allowed per principal inside {@link JOIN_ATTEMPT_WINDOW_MS} **[ours]**. */
export const JOIN_ATTEMPT_LIMIT = 10;
/** Sliding window of the join limiter, in ms (10 minutes) **[ours]**. */
export const JOIN_ATTEMPT_WINDOW_MS: number = 10 * 60_000;

/**
 * New sessions a principal may register per minute / per hour (resumes excluded) **[ours]**. The
 * conformance suite registers about 40 sessions for its principal A within a run of about a
 * minute (docs/22-conformance.md), so the per-minute budget leaves room for a fast machine.
 */
export const REGISTER_RATE: Readonly<{ per_minute: number; per_hour: number }> = Object.freeze({
  per_minute: 60,
  per_hour: 300,
});

/**
 * Teams one principal may create per hour / per day **[ours]** (`rate_limited`, reason
 * `create_team`). A person creates a handful of teams; the limit bounds what one credential can
 * fill a server with.
 */
export const TEAM_CREATE_RATE: Readonly<{ per_hour: number; per_day: number }> = Object.freeze({
  per_hour: 10,
  per_day: 50,
});

/**
 * How long a never-used team is kept, in ms (30 days) **[ours]**: a team in which no session was
 * ever registered and no member besides its creator ever joined is collected once it is older.
 * Long enough that a join secret handed to a teammate who is away for weeks still works.
 */
export const UNUSED_TEAM_RETENTION_MS: number = 30 * 24 * 3_600_000;

/**
 * How long an invitation that ended (used up, expired or revoked) stays listed in
 * `team invitations`, in ms (7 days) **[ours]**: long enough for its creator to see how it ended,
 * and past the 24-hour window its team's invitation limit counts.
 */
export const INVITATION_RETENTION_MS: number = 7 * 24 * 3_600_000;

/**
 * How long a principal that belongs to nothing is kept, in ms (7 days) **[ours]**: no membership
 * of any status and no team, e.g. minted by a client that never created or joined a team, or
 * whose only team was collected as never used.
 */
export const UNUSED_PRINCIPAL_RETENTION_MS: number = 7 * 24 * 3_600_000;

/**
 * The fixed `retry_after_ms` hint for the two unacked caps, which clear on ack
 * (docs/spec/protocol.md §6.12).
 */
export const CAP_RETRY_AFTER_MS = 5000;

/** Most sessions one `session list` returns; more sets `truncated: true` **[ours]**. */
export const SESSION_LIST_MAX = 500;

/**
 * Most ids one `message ack` may carry **[ours]** (more → `invalid_input`, `field` `message_ids`,
 * `out_of_range`, `min` 1, `max` this). The spec sets no count, so without one a single 1 MiB
 * body of short ids (about 150,000) holds the store for a large part of a second, and a few at
 * once stall every other request. 1,000 is five times the largest page a client can receive
 * (200) and above what one `message adopt` can move (60), so no client that acks what it fetched
 * ever meets it.
 */
export const ACK_IDS_MAX = 1_000;

/** Rows of each kind deleted per retention sweep transaction **[ours]**. */
export const GC_BATCH_SIZE = 500;

/**
 * The backend half of `DescribeResult`: fresh copies, safe to mutate.
 *
 * @example
 * describeBackend().lease.default_seconds === 90;
 */
export function describeBackend(
  attachments: AttachmentSettings = DEFAULT_ATTACHMENT_SETTINGS,
): BackendDescription {
  return {
    limits: {
      ...PROTOCOL_LIMITS,
      send_rate: { ...PROTOCOL_LIMITS.send_rate },
      principal_send_rate: { ...PROTOCOL_LIMITS.principal_send_rate },
    },
    lease: { ...SERVICE_LEASE },
    retention: { ...SERVICE_RETENTION },
    capabilities: [...SERVICE_CAPABILITIES],
    attachments: {
      max_attachments_per_message: attachments.maxFilesPerMessage,
      max_attachment_bytes: attachments.maxFileBytes,
      max_message_attachment_bytes: attachments.maxMessageBytes,
    },
  };
}
