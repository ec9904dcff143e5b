import type { ValidationResult } from "../validation/validation-result.ts";
import type { ErrorCode } from "./error-codes.ts";
import { ERROR_EXIT_STATUS } from "./error-codes.ts";
import type { ErrorDetails, ProtocolError } from "./protocol-error.ts";

/**
 * The error every in-process `Adapter` method fails with (spec: in-process binding), wrapping one
 * {@link ProtocolError}. `toProtocolError()` / `toJSON()` give the wire object back, member for
 * member; `exitStatus` is the process-boundary status (docs/spec/protocol.md §3.3).
 *
 * @example
 * throw new BapError(notFoundError());
 * // later: errorEnvelope(caught.toProtocolError())
 */
export class BapError extends Error {
  /** One of the twelve codes. */
  readonly code: ErrorCode;
  /** Whether a retry may succeed (`rate_limited`, `unavailable`). */
  readonly retryable: boolean;
  /** `retry_after_ms`, when the error carries one. */
  readonly retryAfterMs: number | undefined;
  /** `details`, when the error carries them (string values only). */
  readonly details: Readonly<ErrorDetails> | undefined;

  /** Wraps `error`; the message is the error's fixed message. */
  constructor(error: ProtocolError, options?: { readonly cause?: unknown }) {
    super(error.message, options);
    this.name = "BapError";
    this.code = error.code;
    this.retryable = error.retryable;
    this.retryAfterMs = error.retry_after_ms;
    this.details = error.details === undefined ? undefined : Object.freeze({ ...error.details });
  }

  /** The process exit status for this error's code (1..12). */
  get exitStatus(): number {
    return ERROR_EXIT_STATUS[this.code];
  }

  /** The wire error object (a fresh copy), in wire member order. */
  toProtocolError(): ProtocolError {
    const error: ProtocolError = {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
    };
    if (this.retryAfterMs !== undefined) error.retry_after_ms = this.retryAfterMs;
    if (this.details !== undefined) error.details = { ...this.details };
    return error;
  }

  /** `JSON.stringify(bapError)` gives the wire error object, never a stack. */
  toJSON(): ProtocolError {
    return this.toProtocolError();
  }
}

/**
 * True when `value` is a {@link BapError}.
 *
 * @example
 * catch (e) { if (isBapError(e) && e.code === "not_found") … }
 */
export function isBapError(value: unknown): value is BapError {
  return value instanceof BapError;
}

/**
 * The validated value of `result`, or throws a {@link BapError} carrying its error (usually
 * `invalid_input` naming the member): the one bridge from a never-throwing `validateX` to the
 * throwing style of in-process adapters, the service and the HTTP routes.
 *
 * @example const request = valueOrThrow(validateSendRequest(json));
 */
export function valueOrThrow<T>(result: ValidationResult<T>): T {
  if (!result.ok) throw new BapError(result.error);
  return result.value;
}
