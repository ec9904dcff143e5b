import {
  expectObject,
  failField,
  nonEmptyStringElement,
  requiredArray,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * `message ack --session <id>` stdin (docs/spec/protocol.md §4.9): a non-empty list of non-empty
 * message ids.
 *
 * @example
 * { message_ids: ["m-7f3a", "m-0000"] }
 */
export interface AckRequest {
  message_ids: string[];
}

/**
 * The `message ack` result (docs/spec/protocol.md §4.9), both arrays always present. An
 * already-acknowledged owned id is `acked` again; an id not found or not addressed to the session
 * is `unknown`, never an error. Also the body of the watch `acked` event.
 *
 * @example
 * { acked: ["m-7f3a"], unknown: ["m-0000"] }
 */
export interface AckResult {
  acked: string[];
  unknown: string[];
}

/** Reads the `message_ids` member (required, non-empty array of non-empty strings). */
export function readMessageIds(o: WireObject, prefix: string): string[] {
  const ids = requiredArray(o, "message_ids", prefix, false, nonEmptyStringElement);
  if (ids.length === 0)
    failField(prefix === "" ? "message_ids" : `${prefix}.message_ids`, "required");
  return ids;
}

/**
 * Validates a `message ack` document: `message_ids` required and non-empty (`reason = "required"`
 * when absent or `[]`), every element a non-empty string (`field = "message_ids.<index>"`).
 *
 * @example
 * validateAckRequest({ message_ids: [] }).ok === false;
 */
export function validateAckRequest(value: unknown): ValidationResult<AckRequest> {
  return runValidation(() => ({ message_ids: readMessageIds(expectObject(value, ""), "") }));
}

/** Reads an AckResult's two arrays (absent reads as `[]`). */
export function readAckArrays(o: WireObject, prefix: string, ackedName: string): AckResult {
  return {
    acked: requiredArray(o, ackedName, prefix, true, nonEmptyStringElement),
    unknown: requiredArray(o, "unknown", prefix, true, nonEmptyStringElement),
  };
}

/**
 * Validates a `message ack` result; absent arrays read as `[]` (docs/spec/protocol.md §2.3).
 *
 * @example
 * validateAckResult({ acked: ["m-1"] }); // { ok: true, value: { acked: ["m-1"], unknown: [] } }
 */
export function validateAckResult(value: unknown): ValidationResult<AckResult> {
  return runValidation(() => readAckArrays(expectObject(value, ""), "", "acked"));
}
