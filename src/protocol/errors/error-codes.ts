/**
 * The twelve BAP/1 error codes (docs/spec/protocol.md §3.3), in exit-status order (`internal` = 1 …
 * `loop_detected` = 12).
 *
 * @example
 * ERROR_CODES.includes(envelope.error.code);
 */
export const ERROR_CODES = [
  "internal",
  "usage",
  "invalid_input",
  "unauthenticated",
  "unauthorized",
  "not_found",
  "conflict",
  "rate_limited",
  "unavailable",
  "protocol_mismatch",
  "config",
  "loop_detected",
] as const;

/** One of the twelve BAP/1 error codes (docs/spec/protocol.md §3.3). */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Process exit status per error code (docs/spec/protocol.md §3.3). Success is 0; an adapter never
 * exits 126, 127 or ≥ 128 from its own code.
 *
 * @example
 * ERROR_EXIT_STATUS.not_found === 6;
 */
export const ERROR_EXIT_STATUS: Readonly<Record<ErrorCode, number>> = Object.freeze({
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

/** Exit status of a successful command. */
export const EXIT_SUCCESS = 0;

/** The only retryable codes (docs/spec/protocol.md §3.1, §3.3). */
export const RETRYABLE_ERROR_CODES = ["rate_limited", "unavailable"] as const;

/** A retryable error code. */
export type RetryableErrorCode = (typeof RETRYABLE_ERROR_CODES)[number];

/**
 * True when `value` is one of the twelve error codes (exact spelling).
 *
 * @example
 * isErrorCode("not_found") === true; isErrorCode("NOT_FOUND") === false;
 */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The `retryable` value the spec fixes for `code`: `true` only for `rate_limited` and
 * `unavailable`.
 *
 * @example
 * isRetryableCode("unavailable") === true; isRetryableCode("conflict") === false;
 */
export function isRetryableCode(code: ErrorCode): boolean {
  return code === "rate_limited" || code === "unavailable";
}

/**
 * The process exit status for an error code; any string that is not one of the twelve codes maps
 * to 1 (`internal`), as the harness reads an unrecognised code (docs/spec/protocol.md §3.3).
 *
 * @example
 * exitStatusForCode("usage") === 2; exitStatusForCode("teapot") === 1;
 */
export function exitStatusForCode(code: string): number {
  return isErrorCode(code) ? ERROR_EXIT_STATUS[code] : 1;
}

/**
 * The error code an exit status stands for, or `undefined` for 0 and for statuses outside 1..12.
 *
 * @example
 * codeForExitStatus(8) === "rate_limited"; codeForExitStatus(0) === undefined;
 */
export function codeForExitStatus(status: number): ErrorCode | undefined {
  return Number.isInteger(status) && status >= 1 && status <= 12
    ? ERROR_CODES[status - 1]
    : undefined;
}
