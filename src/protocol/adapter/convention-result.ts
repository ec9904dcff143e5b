import type { JsonObject } from "../encoding/json-value.ts";
import { expectObject, runValidation } from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The result of an adapter-defined convention verb: `profile init` / `status` / `reset` /
 * `revoke-credentials` and `team rotate-secret` / `revoke-member` / `transfer`
 * (docs/spec/protocol.md §4.1). Any JSON object; a `profile` result never carries a secret.
 *
 * @example
 * const status: ConventionResult = { profile: "default", state: "joined" };
 */
export type ConventionResult = JsonObject;

/**
 * Validates an adapter-defined result: it must be a JSON object (kept as is, since its members
 * are the adapter's).
 *
 * @example
 * validateConventionResult([]).ok === false;
 */
export function validateConventionResult(value: unknown): ValidationResult<ConventionResult> {
  return runValidation(() => expectObject(value, "") as ConventionResult);
}
