import type { JsonObject } from "../encoding/json-value.ts";
import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  failWith,
  optionalJsonObject,
  optionalString,
  requiredBoolean,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { type JoinSecret, parseJoinSecret } from "./join-secret.ts";

/**
 * `team join` stdin (convention, cap `team.join`, docs/spec/protocol.md §4.10). The secret travels
 * only here (or a no-echo prompt), never on argv.
 *
 * @example
 * { join_secret: "brg1.t-9c1e.Zm9vYmFy", human_label: "sam", backend: { url: "https://brigade.example.org" } }
 */
export interface TeamJoinRequest {
  /** `brg1.<team_ref>.<secret>` (docs/spec/protocol.md §9). */
  join_secret: string;
  /** ≤ 128 code points; kept when omitted on a rejoin. */
  human_label?: string;
  /** Adapter-specific (ours: the server URL); accepted only when the profile has no backend. */
  backend?: JsonObject;
}

/** A validated `team join` document with its secret already parsed (renders redacted). */
export interface ParsedTeamJoinRequest extends TeamJoinRequest {
  /** The parsed secret; `String(parsed)` is redacted. */
  parsed_secret: JoinSecret;
}

/**
 * The `team join` result (all four required). `rejoined: true` when the secret names the team the
 * profile is already bound to or re-activates a left membership (same principal).
 *
 * @example
 * { team_ref: "t-9c1e", team_name: "core", principal_ref: "p-77aa", rejoined: false }
 */
export interface TeamJoinResult {
  team_ref: string;
  team_name: string;
  principal_ref: string;
  rejoined: boolean;
}

/**
 * Validates a `team join` document: `join_secret` required and well-formed
 * (docs/spec/protocol.md §9; malformed → `field = "join_secret"`, `reason = "invalid_value"`, fixed
 * message), `human_label` ≤ 128 cp, `backend` a JSON object when present (else `field =
 * "backend"`), copied as is. The result also carries `parsed_secret`. Never echoes the secret.
 *
 * @example
 * validateTeamJoinRequest({ join_secret: "brg1.t.s", backend: "x" }).ok === false; // field "backend"
 */
export function validateTeamJoinRequest(value: unknown): ValidationResult<ParsedTeamJoinRequest> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const join_secret = requiredString(o, "join_secret", "");
    const parsed = parseJoinSecret(join_secret);
    if (!parsed.ok) failWith(parsed.error);
    const out: ParsedTeamJoinRequest = { join_secret, parsed_secret: parsed.value };
    const label = optionalString(o, "human_label", "", {
      cap: PROTOCOL_LIMITS.max_human_label_chars,
    });
    if (label !== undefined) out.human_label = label;
    const backend = optionalJsonObject(o, "backend", "");
    if (backend !== undefined) out.backend = backend;
    return out;
  });
}

/**
 * Validates a `team join` result.
 *
 * @example
 * validateTeamJoinResult({ team_ref: "t", team_name: "core", principal_ref: "p", rejoined: true }).ok === true;
 */
export function validateTeamJoinResult(value: unknown): ValidationResult<TeamJoinResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    return {
      team_ref: requiredString(o, "team_ref", "", id),
      team_name: requiredString(o, "team_name", "", {
        cap: PROTOCOL_LIMITS.max_team_name_codepoints,
      }),
      principal_ref: requiredString(o, "principal_ref", "", id),
      rejoined: requiredBoolean(o, "rejoined", ""),
    };
  });
}
