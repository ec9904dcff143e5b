import { parseJsonDocument } from "../encoding/json-document.ts";
import type { JsonObject } from "../encoding/json-value.ts";
import { ndjsonLine } from "../encoding/ndjson-writer.ts";
import type { BapError } from "../errors/bap-error.ts";
import { internalError } from "../errors/error-builders.ts";
import type { ProtocolError } from "../errors/protocol-error.ts";
import { readProtocolError } from "../errors/protocol-error-reader.ts";
import { MAX_ADAPTER_STDOUT_BYTES, PROTOCOL_VERSION, type ProtocolVersion } from "../limits.ts";
import {
  expectObject,
  failField,
  member,
  requiredObject,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { readProtocolVersion } from "./describe-result.ts";

/** A successful result envelope (docs/spec/protocol.md §3.1). */
export interface OkEnvelope<T = JsonObject> {
  ok: true;
  protocol_version: ProtocolVersion;
  result: T;
}

/** A failed result envelope (docs/spec/protocol.md §3.1). */
export interface ErrorEnvelope {
  ok: false;
  protocol_version: ProtocolVersion;
  error: ProtocolError;
}

/**
 * The one JSON document an adapter writes to stdout for every command but `message watch`
 * (docs/spec/protocol.md §1.4, §3.1): `result` present iff `ok`, `error` iff not.
 *
 * @example
 * {"ok": true, "protocol_version": "1", "result": {"session_id": "s-51d0", "state": "offline"}}
 */
export type Envelope<T = JsonObject> = OkEnvelope<T> | ErrorEnvelope;

/**
 * Wraps a result.
 *
 * @example
 * JSON.stringify(okEnvelope({ session_id: "s-51d0", state: "offline" }));
 * // '{"ok":true,"protocol_version":"1","result":{"session_id":"s-51d0","state":"offline"}}'
 */
export function okEnvelope<T>(result: T): OkEnvelope<T> {
  return { ok: true, protocol_version: PROTOCOL_VERSION, result };
}

/**
 * Wraps an error (a wire object or a {@link BapError}, converted to its wire object).
 *
 * @example
 * errorEnvelope(notFoundError());
 * // { ok: false, protocol_version: "1", error: { code: "not_found", message: "session or message not found", retryable: false } }
 */
export function errorEnvelope(error: ProtocolError | BapError): ErrorEnvelope {
  const wire = "toProtocolError" in error ? error.toProtocolError() : error;
  return { ok: false, protocol_version: PROTOCOL_VERSION, error: wire };
}

/**
 * The stdout text of an envelope: compact JSON plus exactly one `\n` (docs/spec/protocol.md §1.4),
 * with U+2028 and U+2029 escaped as in {@link ndjsonLine}.
 *
 * @example
 * envelopeLine(okEnvelope({})) === '{"ok":true,"protocol_version":"1","result":{}}\n';
 */
export function envelopeLine(envelope: Envelope<unknown>): string {
  return ndjsonLine(envelope);
}

/**
 * Validates an envelope as a consumer: `ok` boolean; `protocol_version` `"1"` (another version is
 * `protocol_mismatch`); `result` (a JSON object, kept as is for the per-command validator) present
 * iff `ok`; `error` present iff not, read leniently (unknown code → `internal`, absent
 * `retryable` → `false`). Other failures are `invalid_input` naming the member.
 *
 * @example
 * validateEnvelope({ ok: true, protocol_version: "1", result: {}, error: {} }).ok === false; // field "error"
 */
export function validateEnvelope(value: unknown): ValidationResult<Envelope> {
  return runValidation((): Envelope => {
    const o = expectObject(value, "");
    const ok = member(o, "ok");
    if (ok === undefined) failField("ok", "required");
    if (typeof ok !== "boolean") failField("ok", "invalid_value");
    readProtocolVersion(o, "");
    if (ok) {
      if (member(o, "error") !== undefined) failField("error", "invalid_value");
      const result = requiredObject(o, "result", "") as JsonObject;
      return { ok: true, protocol_version: PROTOCOL_VERSION, result };
    }
    if (member(o, "result") !== undefined) failField("result", "invalid_value");
    const error = readProtocolError(requiredObject(o, "error", ""), "error");
    return { ok: false, protocol_version: PROTOCOL_VERSION, error };
  });
}

/**
 * The harness's reading of an adapter's whole stdout (docs/spec/protocol.md §1.6): over 4 MiB →
 * `internal` `stdout_overflow`; not one JSON document → `internal` `stdout_not_json`; not a valid
 * envelope → `internal` `stdout_invalid_envelope` (a `protocol_version` mismatch stays
 * `protocol_mismatch`). Never throws.
 *
 * @example
 * decodeEnvelopeOutput(new TextEncoder().encode('{"ok":true,"protocol_version":"1","result":{}}\n'));
 * // { ok: true, value: { ok: true, protocol_version: "1", result: {} } }
 */
export function decodeEnvelopeOutput(stdout: Uint8Array): ValidationResult<Envelope> {
  if (stdout.length > MAX_ADAPTER_STDOUT_BYTES) {
    return { ok: false, error: internalError("stdout_overflow") };
  }
  const parsed = parseJsonDocument(stdout, { maxBytes: MAX_ADAPTER_STDOUT_BYTES });
  if (!parsed.ok) return { ok: false, error: internalError("stdout_not_json") };
  const envelope = validateEnvelope(parsed.value);
  if (envelope.ok || envelope.error.code === "protocol_mismatch") return envelope;
  return { ok: false, error: internalError("stdout_invalid_envelope") };
}
