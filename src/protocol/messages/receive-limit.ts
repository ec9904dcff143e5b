import { invalidInputError } from "../errors/error-builders.ts";
import type { ProtocolError } from "../errors/protocol-error.ts";
import { MAX_RECEIVE_LIMIT, MIN_RECEIVE_LIMIT } from "../limits.ts";

/**
 * Whether `limit` is a page size `message receive` and `message sent` accept: an integer from
 * {@link MIN_RECEIVE_LIMIT} to {@link MAX_RECEIVE_LIMIT} (1..200, docs/spec/protocol.md §1.2).
 *
 * @example isReceiveLimit(50) === true; isReceiveLimit(201) === false
 */
export function isReceiveLimit(limit: number): boolean {
  return Number.isInteger(limit) && limit >= MIN_RECEIVE_LIMIT && limit <= MAX_RECEIVE_LIMIT;
}

/**
 * The refusal of a limit {@link isReceiveLimit} rejects: `invalid_input`, field `limit`, reason
 * `out_of_range`, with the range's `min` and `max`.
 *
 * @example receiveLimitError().details // { field: "limit", reason: "out_of_range", min: "1", max: "200" }
 */
export function receiveLimitError(): ProtocolError {
  return invalidInputError("limit", "out_of_range", {
    min: String(MIN_RECEIVE_LIMIT),
    max: String(MAX_RECEIVE_LIMIT),
  });
}
