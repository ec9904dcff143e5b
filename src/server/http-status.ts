import type { ErrorCode } from "../protocol/index.ts";

const STATUS: Readonly<Record<ErrorCode, number>> = {
  internal: 500,
  usage: 400,
  invalid_input: 400,
  unauthenticated: 401,
  unauthorized: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  protocol_mismatch: 400,
  config: 500,
  loop_detected: 422,
};

/**
 * The HTTP status that mirrors a BAP/1 error code (docs/30-http-api.md). Clients read the
 * envelope; the status is for proxies, logs and people.
 *
 * @example httpStatusFor("not_found") === 404
 */
export function httpStatusFor(code: ErrorCode): number {
  return STATUS[code] ?? 500;
}
