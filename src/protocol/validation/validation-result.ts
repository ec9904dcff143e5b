import type { ProtocolError } from "../errors/protocol-error.ts";

/**
 * What every `validateX(value: unknown)` returns: the validated value (known members only, in
 * wire order) or the protocol error to answer with (usually `invalid_input` naming the member in
 * `details.field`). Validators never throw.
 *
 * @example
 * const r = validateAckRequest(doc);
 * if (!r.ok) return errorEnvelope(r.error);
 */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ProtocolError };
