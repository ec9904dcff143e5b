import {
  expectObject,
  requiredEnum,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The `session close` result (docs/spec/protocol.md §4.4); closing twice succeeds with the same
 * shape.
 *
 * @example
 * { session_id: "s-51d0", state: "offline" }
 */
export interface SessionCloseResult {
  session_id: string;
  state: "offline";
}

/**
 * Validates a `session close` result: `state` must be `"offline"`.
 *
 * @example
 * validateSessionCloseResult({ session_id: "s-51d0", state: "offline" }).ok === true;
 */
export function validateSessionCloseResult(value: unknown): ValidationResult<SessionCloseResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      session_id: requiredString(o, "session_id", "", { nonEmpty: true }),
      state: requiredEnum(o, "state", "", ["offline"] as const),
    };
  });
}
