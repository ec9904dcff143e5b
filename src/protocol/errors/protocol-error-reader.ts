import {
  expectObject,
  failField,
  fieldPath,
  member,
  optionalInteger,
  requiredString,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { isErrorCode, isRetryableCode } from "./error-codes.ts";
import type { ErrorDetails, ProtocolError } from "./protocol-error.ts";

/**
 * Reads a wire error object as a consumer (docs/spec/protocol.md §3.1): `code` and `message`
 * required strings; a code that is not one of the twelve reads as `internal` (the harness's rule,
 * docs/spec/protocol.md §3.3); `retryable` absent reads as `false`, otherwise it must be a boolean;
 * `retry_after_ms` an integer ≥ 0; `details` an object whose non-string values are dropped. Throws
 * the validators' failure.
 */
export function readProtocolError(o: WireObject, prefix: string): ProtocolError {
  const rawCode = requiredString(o, "code", prefix);
  const message = requiredString(o, "message", prefix);
  const retryableValue = member(o, "retryable");
  if (retryableValue !== undefined && typeof retryableValue !== "boolean") {
    failField(fieldPath(prefix, "retryable"), "invalid_value");
  }
  const error: ProtocolError = {
    code: isErrorCode(rawCode) ? rawCode : "internal",
    message,
    retryable: retryableValue ?? false,
  };
  const retryAfter = optionalInteger(o, "retry_after_ms", prefix, 0, Number.MAX_SAFE_INTEGER);
  if (retryAfter !== undefined) error.retry_after_ms = retryAfter;
  const details = member(o, "details");
  if (details !== undefined) {
    const detailsObject = expectObject(details, fieldPath(prefix, "details"));
    const kept: ErrorDetails = {};
    for (const key of Object.keys(detailsObject)) {
      const v = detailsObject[key];
      if (typeof v === "string") kept[key] = v;
    }
    error.details = kept;
  }
  return error;
}

/**
 * Validates a wire error object as a consumer (see {@link readProtocolError} for the lenient
 * rules). Failures are `invalid_input` naming the member.
 *
 * @example
 * validateProtocolError({ code: "teapot", message: "x" });
 * // { ok: true, value: { code: "internal", message: "x", retryable: false } }
 */
export function validateProtocolError(value: unknown): ValidationResult<ProtocolError> {
  return runValidation(() => readProtocolError(expectObject(value, ""), ""));
}

/**
 * The retryability a consumer should act on: derived from the code (docs/spec/protocol.md §3.1
 * SHOULD), not from the possibly wrong `retryable` member.
 *
 * @example
 * shouldRetry({ code: "unavailable", message: "…", retryable: false }) === true;
 */
export function shouldRetry(error: ProtocolError): boolean {
  return isRetryableCode(error.code);
}
