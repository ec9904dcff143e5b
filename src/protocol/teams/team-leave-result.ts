import {
  expectObject,
  failField,
  member,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The `team leave` result (convention, cap `team.join`, docs/spec/protocol.md §4.10): membership
 * revoked, the caller's open sessions in the team closed, the profile unbound (credential kept).
 * Idempotent.
 *
 * @example
 * { team_ref: "t-9c1e", principal_ref: "p-77aa", left: true }
 */
export interface TeamLeaveResult {
  team_ref: string;
  principal_ref: string;
  left: true;
}

/**
 * Validates a `team leave` result; `left` must be `true`.
 *
 * @example
 * validateTeamLeaveResult({ team_ref: "t", principal_ref: "p", left: false }).ok === false;
 */
export function validateTeamLeaveResult(value: unknown): ValidationResult<TeamLeaveResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    const team_ref = requiredString(o, "team_ref", "", id);
    const principal_ref = requiredString(o, "principal_ref", "", id);
    const left = member(o, "left");
    if (left === undefined) failField("left", "required");
    if (left !== true) failField("left", "invalid_value");
    return { team_ref, principal_ref, left };
  });
}
