import { isRfc3339Timestamp } from "../encoding/rfc3339.ts";
import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  failField,
  fieldPath,
  member,
  nullableString,
  optionalString,
  requiredArray,
  requiredInteger,
  requiredString,
  requiredTimestamp,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * One active member in a `team members` result (docs/spec/protocol.md §4.10), all six members
 * present.
 *
 * @example
 * { principal_ref: "p-41c9", human_label: "dana@example.org", status: "active",
 *   joined_at: "2026-10-01T08:00:00Z", last_seen_at: null, session_count: 0 }
 */
export interface TeamMember {
  principal_ref: string;
  /** The membership label (≤ 128 cp, `""` when none); unverified. */
  human_label: string;
  /** Membership status (`active` for every listed member in v1; open set). */
  status: string;
  joined_at: string;
  /** `null` when the member never registered a session. */
  last_seen_at: string | null;
  /** Integer ≥ 0. */
  session_count: number;
}

/**
 * The `team members` result (convention, cap `team.roster`, docs/spec/protocol.md §4.10): every
 * **active** member.
 *
 * @example
 * { team_ref: "t-9c1e", team_name: "core", server_time: "2026-10-02T09:15:42Z", members: [] }
 */
export interface TeamMembersResult {
  team_ref: string;
  team_name: string;
  server_time: string;
  /** Always present (`[]` when empty). */
  members: TeamMember[];
  /**
   * **[ours]** (capability `team.labels`): the team's creator, so a roster can mark it; absent
   * from an adapter without the capability.
   */
  creator_principal_ref?: string;
}

function readMember(o: WireObject, prefix: string): TeamMember {
  const principal_ref = requiredString(o, "principal_ref", prefix, { nonEmpty: true });
  const human_label = requiredString(o, "human_label", prefix, {
    cap: PROTOCOL_LIMITS.max_human_label_chars,
  });
  const status = requiredString(o, "status", prefix);
  const joined_at = requiredTimestamp(o, "joined_at", prefix);
  if (member(o, "last_seen_at") === undefined)
    failField(fieldPath(prefix, "last_seen_at"), "required");
  const last_seen_at = nullableString(o, "last_seen_at", prefix) ?? null;
  if (last_seen_at !== null && !isRfc3339Timestamp(last_seen_at)) {
    failField(fieldPath(prefix, "last_seen_at"), "invalid_value");
  }
  const session_count = requiredInteger(o, "session_count", prefix, 0, Number.MAX_SAFE_INTEGER);
  return { principal_ref, human_label, status, joined_at, last_seen_at, session_count };
}

/**
 * Validates a `team members` result; an absent `members` reads as `[]`; element failures name
 * `members.<index>.<member>`; `creator_principal_ref`, when present, is a non-empty string.
 *
 * @example
 * validateTeamMembersResult({ team_ref: "t", team_name: "core", server_time: "2026-10-02T09:15:42Z" });
 * // ok, members: []
 */
export function validateTeamMembersResult(value: unknown): ValidationResult<TeamMembersResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const creator = optionalString(o, "creator_principal_ref", "", { nonEmpty: true });
    return {
      ...(creator === undefined ? {} : { creator_principal_ref: creator }),
      team_ref: requiredString(o, "team_ref", "", { nonEmpty: true }),
      team_name: requiredString(o, "team_name", "", {
        cap: PROTOCOL_LIMITS.max_team_name_codepoints,
      }),
      server_time: requiredTimestamp(o, "server_time", ""),
      members: requiredArray(o, "members", "", true, (element, path) =>
        readMember(expectObject(element, path), path),
      ),
    };
  });
}
