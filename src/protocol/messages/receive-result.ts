import { expectObject, requiredArray, runValidation } from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type MessageEnvelope, readMessageEnvelope } from "./message-envelope.ts";

/**
 * The `message receive` result (docs/spec/protocol.md §4.6): accepted, unacknowledged messages for
 * the session, oldest first (SHOULD), at most `--limit`. Receiving never acknowledges.
 *
 * @example
 * { messages: [] }
 */
export interface ReceiveResult {
  /** Always present (`[]` when empty). */
  messages: MessageEnvelope[];
}

/**
 * Validates a `message receive` result; an absent `messages` reads as `[]`; element failures name
 * `messages.<index>.<member>`.
 *
 * @example
 * validateReceiveResult({}); // { ok: true, value: { messages: [] } }
 */
export function validateReceiveResult(value: unknown): ValidationResult<ReceiveResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      messages: requiredArray(o, "messages", "", true, (element, path) =>
        readMessageEnvelope(expectObject(element, path), path),
      ),
    };
  });
}
