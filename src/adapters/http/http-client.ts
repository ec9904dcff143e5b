import {
  BapError,
  internalError,
  parseJsonDocument,
  unavailableError,
  type ValidationResult,
  validateEnvelope,
} from "../../protocol/index.ts";
import type { AdapterLogger } from "../adapter-logger.ts";
import { HTTP_CALL_TIMEOUT_MS } from "./http-adapter-constants.ts";
import { readBoundedBody } from "./read-bounded-body.ts";

/** The HTTP methods the API uses with JSON bodies (a blob upload's `PUT` has its own path). */
export type HttpMethod = "GET" | "POST";

/** One call to `brigade serve` (docs/30-http-api.md). */
export interface ServerRequest {
  readonly method: HttpMethod;
  /** Path below the base URL, starting `/v1/`, segments already percent-encoded. */
  readonly path: string;
  /** JSON body (POST); `{}` is sent for a POST without one. */
  readonly body?: unknown;
  /** Bearer token; absent only for `POST /v1/principals`. */
  readonly token?: string;
  /** The server's operator key (`team create` on a closed server); sent only in its header. */
  readonly operatorKey?: string;
  /** Caller cancellation; reported as `unavailable`, reason `timeout`. */
  readonly signal?: AbortSignal | undefined;
}

/** Transport settings shared by every call of one adapter. */
export interface ServerTransport {
  /** Normalised base URL (no trailing `/`). */
  readonly baseUrl: string;
  /** `fetch` to use (tests inject one); defaults to the global. */
  readonly fetch: typeof fetch;
  /** Per-call budget in ms. */
  readonly timeoutMs: number;
  readonly logger: AdapterLogger;
}

// Our server's answers are small; anything larger is not an answer we trust.
/** The largest envelope answer read, in bytes (8 MiB). */
export const MAX_RESPONSE_BYTES: number = 8 * 1024 * 1024;

/**
 * Percent-encodes one path segment (`:team`, `:session`).
 *
 * @example
 * segment("t-9c1e") === "t-9c1e"; segment("a/b") === "a%2Fb";
 */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/**
 * Whether `error` came from an abort (`AbortError` or `TimeoutError` DOMException).
 *
 * @example
 * isAbortLike(new DOMException("x", "AbortError")) === true;
 */
export function isAbortLike(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "name" in error &&
    (error.name === "AbortError" || error.name === "TimeoutError")
  );
}

/**
 * The combined signal of a call: the caller's, plus a per-call timeout.
 *
 * @example
 * const signal = callSignal(options.signal, 15000);
 */
export function callSignal(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}

/**
 * Sends one request and returns the validated `result`, or throws a {@link BapError}:
 * - network failure, timeout, caller abort or any 5xx → `unavailable` (retryable; `timeout` reason
 *   when aborted);
 * - an error envelope → that error, member for member (the server's uniform errors stay uniform);
 * - a body that is not one valid envelope, or a `result` that fails `validate` → `internal`; a body
 *   over 8 MiB is not read past its limit (memory stays bounded) and is `internal` too.
 * The token travels only in the `Authorization` header; nothing of it or of the body is logged.
 *
 * @example
 * const record = await callServer(transport, { method: "POST", path: "/v1/teams/t-1/sessions", body: reg, token }, validateSessionRegistrationResult);
 */
export async function callServer<T>(
  transport: ServerTransport,
  request: ServerRequest,
  validate: (value: unknown) => ValidationResult<T>,
): Promise<T> {
  const log = transport.logger;
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
  if (request.operatorKey !== undefined) headers["x-brigade-operator-key"] = request.operatorKey;
  let body: string | undefined;
  if (request.method === "POST") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.body ?? {});
  }
  const started = performance.now();
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await transport.fetch(`${transport.baseUrl}${request.path}`, {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: callSignal(request.signal, transport.timeoutMs),
      redirect: "error",
    });
    bytes = await readBoundedBody(response, MAX_RESPONSE_BYTES);
  } catch (error) {
    const aborted = isAbortLike(error) || request.signal?.aborted === true;
    log.warn("http_call_failed", {
      method: request.method,
      reason: aborted ? "timeout" : "network",
      ms: Math.round(performance.now() - started),
    });
    throw new BapError(aborted ? unavailableError("timeout") : unavailableError(), {
      cause: error,
    });
  }
  log.debug("http_call", {
    method: request.method,
    status: response.status,
    ms: Math.round(performance.now() - started),
  });
  return answerOf(log, response.status, bytes, validate);
}

/**
 * The `result` of one answer of the server (its status and body bytes), validated, or the
 * {@link BapError} it carries: a 5xx is `unavailable`; a body that is not one valid envelope, or
 * a `result` that fails `validate`, is `internal`; an error envelope is that error, member for
 * member. Shared by every call that reads an envelope ({@link callServer}, the blob transfers).
 */
export function answerOf<T>(
  log: AdapterLogger,
  status: number,
  bytes: Uint8Array,
  validate: (value: unknown) => ValidationResult<T>,
): T {
  const response = { status };
  if (response.status >= 500) throw new BapError(unavailableError());
  const parsed = parseJsonDocument(bytes, { maxBytes: MAX_RESPONSE_BYTES });
  if (!parsed.ok) {
    log.error("server_answer_not_json", { status: response.status });
    throw new BapError(internalError());
  }
  const envelope = validateEnvelope(parsed.value);
  if (!envelope.ok) {
    log.error("server_answer_not_envelope", { status: response.status });
    throw new BapError(
      envelope.error.code === "protocol_mismatch" ? envelope.error : internalError(),
    );
  }
  if (!envelope.value.ok) throw new BapError(envelope.value.error);
  const result = validate(envelope.value.result);
  if (!result.ok) {
    log.error("server_result_invalid", { field: result.error.details?.field ?? "" });
    throw new BapError(internalError());
  }
  return result.value;
}

/** Default transport budget, re-exported for callers building a {@link ServerTransport}. */
export const DEFAULT_HTTP_TIMEOUT_MS: number = HTTP_CALL_TIMEOUT_MS;
