/**
 * The BAP/1 protocol version string every envelope, `DescribeResult`, `MessageEnvelope` and
 * watch `ready` event carries (docs/spec/protocol.md §3.1). A different value is a different major.
 *
 * @example
 * envelope.protocol_version === PROTOCOL_VERSION; // "1"
 */
export const PROTOCOL_VERSION = "1" as const;

/** The type of {@link PROTOCOL_VERSION}. */
export type ProtocolVersion = typeof PROTOCOL_VERSION;

/**
 * The v1 limits an adapter advertises in `DescribeResult.limits` and enforces exactly
 * (docs/spec/protocol.md §7, §4.2). Names and values are the wire's. `*_bytes` count UTF-8 bytes;
 * `*_chars` and `*_codepoints` count Unicode code points.
 *
 * @example
 * utf8ByteLength(body) <= PROTOCOL_LIMITS.max_body_bytes; // 16384
 */
export const PROTOCOL_LIMITS: {
  readonly max_body_bytes: 16384;
  readonly max_summary_chars: 200;
  readonly max_session_name_codepoints: 64;
  readonly max_team_name_codepoints: 64;
  readonly max_description_chars: 256;
  readonly max_human_label_chars: 128;
  readonly max_workspace_label_chars: 128;
  readonly max_model_chars: 128;
  readonly max_idempotency_key_chars: 128;
  readonly send_rate: { readonly per_minute: 20; readonly per_hour: 200 };
  readonly principal_send_rate: { readonly per_minute: 60; readonly per_hour: 600 };
  readonly max_unacked_per_recipient: 60;
  readonly max_unacked_per_sender_recipient: 15;
  readonly max_hop_count: 32;
  readonly implicit_reply_window_seconds: 600;
} = Object.freeze({
  max_body_bytes: 16384,
  max_summary_chars: 200,
  max_session_name_codepoints: 64,
  max_team_name_codepoints: 64,
  max_description_chars: 256,
  max_human_label_chars: 128,
  max_workspace_label_chars: 128,
  max_model_chars: 128,
  max_idempotency_key_chars: 128,
  send_rate: Object.freeze({ per_minute: 20, per_hour: 200 }),
  principal_send_rate: Object.freeze({ per_minute: 60, per_hour: 600 }),
  max_unacked_per_recipient: 60,
  max_unacked_per_sender_recipient: 15,
  max_hop_count: 32,
  implicit_reply_window_seconds: 600,
} as const);

/**
 * Cap on `brigade_version`, in code points; a wire bound with no `limits` member
 * (docs/spec/protocol.md §7).
 */
export const MAX_BRIGADE_VERSION_CODEPOINTS = 64;

/**
 * Cap on `sync_peer`, in code points; a wire bound with no `limits` member
 * (docs/spec/protocol.md §7).
 */
export const MAX_SYNC_PEER_CODEPOINTS = 256;

/** Largest `context_used_tokens` (2^53 − 1, `Number.MAX_SAFE_INTEGER`); the smallest is 0. */
export const MAX_CONTEXT_USED_TOKENS: number = Number.MAX_SAFE_INTEGER;

/**
 * Lease bounds in seconds (docs/spec/protocol.md §7): the reference adapter's `lease` range. An
 * adapter advertises its own range in `DescribeResult.lease` (`min ≤ default ≤ max`).
 *
 * @example
 * const lease = registration.lease_seconds ?? DEFAULT_LEASE.default_seconds; // 90
 */
export const DEFAULT_LEASE: {
  readonly default_seconds: 90;
  readonly min_seconds: 30;
  readonly max_seconds: 600;
} = Object.freeze({ default_seconds: 90, min_seconds: 30, max_seconds: 600 } as const);

/**
 * Retention floors in seconds (docs/spec/protocol.md §6.9, §7): a backend keeps data at least this
 * long.
 *
 * @example
 * RETENTION_FLOORS.unacked_message_seconds === 604800; // 7 days
 */
export const RETENTION_FLOORS: {
  readonly unacked_message_seconds: 604800;
  readonly acked_message_seconds: 86400;
  readonly closed_session_seconds: 604800;
} = Object.freeze({
  unacked_message_seconds: 604800,
  acked_message_seconds: 86400,
  closed_session_seconds: 604800,
} as const);

/** Cap on one stdin JSON document, in bytes (1 MiB, docs/spec/protocol.md §1.3). */
export const MAX_STDIN_DOCUMENT_BYTES = 1_048_576;

/**
 * Cap on one NDJSON line (watch events and commands), in bytes, excluding the `\n`
 * (docs/spec/protocol.md §5).
 */
export const MAX_NDJSON_LINE_BYTES = 1_048_576;

/**
 * Cap on an adapter's stdout as read by the harness, in bytes (4 MiB, docs/spec/protocol.md §1.6).
 */
export const MAX_ADAPTER_STDOUT_BYTES = 4_194_304;

/** `message receive --limit` default, in messages (docs/spec/protocol.md §1.2). */
export const DEFAULT_RECEIVE_LIMIT = 50;

/** `message receive --limit` smallest accepted value (docs/spec/protocol.md §1.2). */
export const MIN_RECEIVE_LIMIT = 1;

/** `message receive --limit` largest accepted value (docs/spec/protocol.md §1.2). */
export const MAX_RECEIVE_LIMIT = 200;

/**
 * Fixed `retry_after_ms` hint for the two inbox caps, which clear on ack
 * (docs/spec/protocol.md §6.12).
 */
export const INBOX_CAP_RETRY_AFTER_MS = 5000;

/**
 * Harness call budgets in milliseconds (docs/spec/protocol.md §1.6). `message watch` has no budget:
 * it runs until stdin EOF, `close`, SIGTERM or a fatal error.
 *
 * @example
 * setTimeout(kill, HARNESS_TIMEOUTS_MS.request); // 20 s
 */
export const HARNESS_TIMEOUTS_MS: {
  readonly request: 20000;
  readonly session_start_register: 8000;
  readonly session_end_close: 1000;
  readonly watcher_call: 3000;
} = Object.freeze({
  request: 20000,
  session_start_register: 8000,
  session_end_close: 1000,
  watcher_call: 3000,
} as const);
