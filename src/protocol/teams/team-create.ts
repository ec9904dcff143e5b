import { TEAM_NAME_MESSAGE } from "../errors/error-messages.ts";
import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  failField,
  optionalString,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { parseJoinSecret } from "./join-secret.ts";

/**
 * `team create` stdin (convention, cap `team.create`, docs/spec/protocol.md §4.10); the CLI may
 * also build it from `--name`/`--label` or `--prompt`.
 *
 * @example
 * { team_name: "core", human_label: "dana@example.org" }
 */
export interface TeamCreateRequest {
  /** Non-empty, ≤ 64 code points. */
  team_name: string;
  /** ≤ 128 code points. */
  human_label?: string;
}

/**
 * The `team create` result (all four required) — the only output that carries a secret. With
 * `--secret-file` the secret is written there (mode 0600) and omitted from stdout, so consumers
 * of a `--secret-file` run read {@link TeamCreateResult} without `join_secret`.
 *
 * @example
 * { team_ref: "t-9c1e", team_name: "core", join_secret: "brg1.t-9c1e.Zm9vYmFy", principal_ref: "p-41c9" }
 */
export interface TeamCreateResult {
  team_ref: string;
  team_name: string;
  join_secret: string;
  principal_ref: string;
}

/**
 * Validates a `team create` document: `team_name` required, non-empty, ≤ 64 cp (any other text
 * is display text: docs/spec/protocol.md §2.8); `human_label` optional, ≤ 128 cp. Unknown members
 * are dropped. A `team_name` failure carries {@link TEAM_NAME_MESSAGE}.
 *
 * @example
 * validateTeamCreateRequest({ team_name: "" }).ok === false; // field "team_name"
 */
export function validateTeamCreateRequest(value: unknown): ValidationResult<TeamCreateRequest> {
  const result = runValidation(() => {
    const o = expectObject(value, "");
    const out: TeamCreateRequest = {
      team_name: requiredString(o, "team_name", "", {
        nonEmpty: true,
        cap: PROTOCOL_LIMITS.max_team_name_codepoints,
      }),
    };
    const label = optionalString(o, "human_label", "", {
      cap: PROTOCOL_LIMITS.max_human_label_chars,
    });
    if (label !== undefined) out.human_label = label;
    return out;
  });
  // The rule in words rather than the generic sentence; details (field, reason, cap) unchanged.
  if (result.ok || result.error.details?.field !== "team_name") return result;
  return { ok: false, error: { ...result.error, message: TEAM_NAME_MESSAGE } };
}

/**
 * Validates a `team create` result; `join_secret` must parse (docs/spec/protocol.md §9, `field =
 * "join_secret"`).
 *
 * @example
 * validateTeamCreateResult({ team_ref: "t", team_name: "core", join_secret: "nope", principal_ref: "p" }).ok === false;
 */
export function validateTeamCreateResult(value: unknown): ValidationResult<TeamCreateResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    const team_ref = requiredString(o, "team_ref", "", id);
    const team_name = requiredString(o, "team_name", "", {
      cap: PROTOCOL_LIMITS.max_team_name_codepoints,
    });
    const join_secret = requiredString(o, "join_secret", "");
    if (!parseJoinSecret(join_secret).ok) failField("join_secret", "invalid_value");
    return {
      team_ref,
      team_name,
      join_secret,
      principal_ref: requiredString(o, "principal_ref", "", id),
    };
  });
}
