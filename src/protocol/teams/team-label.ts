import { PROTOCOL_LIMITS } from "../limits.ts";
import { expectObject, requiredString, runValidation } from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The `team label` request **[ours]** (capability `team.labels`): the caller's own label in the
 * team, 1..128 code points (docs/spec/protocol.md §7 `max_human_label_chars`); unverified display
 * text like every label, cleaned by every reader.
 *
 * @example { human_label: "Dana (laptop)" }
 */
export interface TeamLabelRequest {
  human_label: string;
}

/**
 * Validates a `team label` request: `human_label` required, non-empty, ≤ 128 code points
 * (`invalid_input` naming `human_label`, with the cap). Never throws.
 *
 * @example validateTeamLabelRequest({ human_label: "" }).ok === false;
 */
export function validateTeamLabelRequest(value: unknown): ValidationResult<TeamLabelRequest> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      human_label: requiredString(o, "human_label", "", {
        nonEmpty: true,
        cap: PROTOCOL_LIMITS.max_human_label_chars,
      }),
    };
  });
}

/**
 * The `team label` result: the caller's membership with its new label.
 *
 * @example { team_ref: "t-9c1e", principal_ref: "p-41c9", human_label: "Dana (laptop)" }
 */
export interface TeamLabelResult {
  team_ref: string;
  principal_ref: string;
  human_label: string;
}

/**
 * Validates a `team label` result (ids non-empty, the label ≤ 128 code points).
 *
 * @example validateTeamLabelResult({ team_ref: "t", principal_ref: "p" }).ok === false;
 */
export function validateTeamLabelResult(value: unknown): ValidationResult<TeamLabelResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    return {
      team_ref: requiredString(o, "team_ref", "", id),
      principal_ref: requiredString(o, "principal_ref", "", id),
      human_label: requiredString(o, "human_label", "", {
        cap: PROTOCOL_LIMITS.max_human_label_chars,
      }),
    };
  });
}
