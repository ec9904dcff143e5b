import type { ErrorCode } from "./error-codes.ts";

/**
 * `error.details` (docs/spec/protocol.md §3.1, §3.2): an object whose values are all strings. Keys
 * the spec names are listed in `DETAILS_KEYS`; a producer never puts an offending input value here.
 *
 * @example
 * const details: ErrorDetails = { field: "session_name", reason: "too_long", limit: "64", actual: "65", unit: "codepoints" };
 */
export interface ErrorDetails {
  [key: string]: string;
}

/**
 * The serialisable BAP/1 error object (docs/spec/protocol.md §3.1), as carried by an error envelope
 * and a watch `error` event. Member order on the wire: `code`, `message`, `retryable`,
 * `retry_after_ms`, `details`.
 *
 * - `message`: short, fixed, value-free, safe to show a model.
 * - `retryable`: always present; `true` only for `rate_limited` and `unavailable`.
 * - `retry_after_ms`: integer ≥ 0; present (and > 0) for `rate_limited`.
 * - `details`: optional; omitted entirely for the uniform errors of docs/spec/protocol.md §3.5.
 *
 * @example
 * const e: ProtocolError = { code: "not_found", message: "session or message not found", retryable: false };
 */
export interface ProtocolError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  retry_after_ms?: number;
  details?: ErrorDetails;
}
