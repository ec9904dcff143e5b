import {
  expectObject,
  failField,
  member,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The `profile rotate-token` result **[ours]** (capability `profile.rotate_token`,
 * docs/20-protocol.md "Team lifecycle"): the profile's credential holds a new bearer token and
 * the old one is refused; the principal, its memberships and its sessions stay. It never carries
 * the token, which goes only to the adapter's credential store.
 *
 * @example
 * { principal_ref: "p-77aa", rotated: true }
 */
export interface ProfileRotateTokenResult {
  principal_ref: string;
  rotated: true;
}

/**
 * Validates a `profile rotate-token` result: `principal_ref` non-empty, `rotated` exactly `true`.
 *
 * @example
 * validateProfileRotateTokenResult({ principal_ref: "p", rotated: false }).ok === false;
 */
export function validateProfileRotateTokenResult(
  value: unknown,
): ValidationResult<ProfileRotateTokenResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const principal_ref = requiredString(o, "principal_ref", "", { nonEmpty: true });
    const rotated = member(o, "rotated");
    if (rotated === undefined) failField("rotated", "required");
    if (rotated !== true) failField("rotated", "invalid_value");
    return { principal_ref, rotated };
  });
}
