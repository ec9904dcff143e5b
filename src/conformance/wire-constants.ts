/**
 * The BAP/1 constants the suite checks an adapter against (docs/spec/protocol.md §3.3, §7, §9).
 *
 * The suite keeps its own copy on purpose: it is a black-box checker, and a shared constant would
 * let a wrong value in `src/protocol/` pass its own conformance run.
 */

/**
 * The twelve error codes of docs/spec/protocol.md §3.3 and the exit status each one maps to.
 *
 * @example CONFORMANCE_EXIT_STATUS.not_found === 6
 */
export const CONFORMANCE_EXIT_STATUS: Readonly<Record<string, number>> = Object.freeze({
  internal: 1,
  usage: 2,
  invalid_input: 3,
  unauthenticated: 4,
  unauthorized: 5,
  not_found: 6,
  conflict: 7,
  rate_limited: 8,
  unavailable: 9,
  protocol_mismatch: 10,
  config: 11,
  loop_detected: 12,
});

/**
 * The v1 limits of docs/spec/protocol.md §7 the suite sends values exactly at (and one past).
 *
 * @example V1_LIMITS.max_body_bytes === 16384
 */
export const V1_LIMITS: {
  readonly max_body_bytes: 16384;
  readonly max_summary_chars: 200;
  readonly max_session_name_codepoints: 64;
  readonly max_description_chars: 256;
  readonly max_model_chars: 128;
  readonly max_brigade_version_codepoints: 64;
  readonly max_sync_peer_codepoints: 256;
  readonly max_hop_count: 32;
  readonly max_unacked_per_sender_recipient: 15;
  readonly max_unacked_per_recipient: 60;
  readonly send_per_minute: 20;
  readonly principal_send_per_minute: 60;
  readonly stdin_bytes: 1048576;
} = {
  max_body_bytes: 16384,
  max_summary_chars: 200,
  max_session_name_codepoints: 64,
  max_description_chars: 256,
  max_model_chars: 128,
  max_brigade_version_codepoints: 64,
  max_sync_peer_codepoints: 256,
  max_hop_count: 32,
  max_unacked_per_sender_recipient: 15,
  max_unacked_per_recipient: 60,
  send_per_minute: 20,
  principal_send_per_minute: 60,
  stdin_bytes: 1048576,
};

/**
 * The docs/spec/protocol.md §9 leak-scan shape of a join secret (`brg1.<team_ref>.<secret>`),
 * global flag. The redacted rendering `brg1.<team_ref>.[redacted]` also matches it;
 * {@link isRedactedRendering} tells the two apart.
 *
 * @example JOIN_SECRET_SHAPE.test("brg1.t-1.abc") // true (reset lastIndex between uses)
 */
export const JOIN_SECRET_SHAPE: RegExp = /brg1\.[^\s"'<>`.]+(\.[^\s"'<>`.]+)+/g;

/**
 * True when a docs/spec/protocol.md §9-shaped match is the redacted rendering
 * docs/spec/protocol.md §9 prescribes (last segment exactly `[redacted]`), which carries no secret
 * and is therefore allowed in logs.
 *
 * @example isRedactedRendering("brg1.t-1.[redacted]") // true
 */
export function isRedactedRendering(match: string): boolean {
  return match.endsWith(".[redacted]");
}
