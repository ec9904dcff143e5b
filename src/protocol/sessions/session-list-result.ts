import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  requiredArray,
  requiredBoolean,
  requiredString,
  requiredTimestamp,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { readSessionRecord, type SessionRecord } from "./session-record.ts";

/**
 * The `session list` result (docs/spec/protocol.md §4.4): only sessions of the profile's team;
 * offline sessions only with `--include-offline`; `truncated: true` when the list was cut short.
 *
 * @example
 * { team_ref: "t-9c1e", team_name: "core", server_time: "2026-10-02T09:15:42Z", sessions: [], truncated: false }
 */
export interface SessionListResult {
  team_ref: string;
  /** ≤ 64 code points. */
  team_name: string;
  server_time: string;
  /** Always present (`[]` when empty). */
  sessions: SessionRecord[];
  truncated: boolean;
}

/**
 * Validates a `session list` result; an absent `sessions` reads as `[]`
 * (docs/spec/protocol.md §2.3). Element failures name `sessions.<index>.<member>`.
 *
 * @example
 * validateSessionListResult({ team_ref: "t", team_name: "core", server_time: "2026-10-02T09:15:42Z", truncated: false });
 * // ok, sessions: []
 */
export function validateSessionListResult(value: unknown): ValidationResult<SessionListResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    return {
      team_ref: requiredString(o, "team_ref", "", { nonEmpty: true }),
      team_name: requiredString(o, "team_name", "", {
        cap: PROTOCOL_LIMITS.max_team_name_codepoints,
      }),
      server_time: requiredTimestamp(o, "server_time", ""),
      sessions: requiredArray(o, "sessions", "", true, (element, path) =>
        readSessionRecord(expectObject(element, path), path),
      ),
      truncated: requiredBoolean(o, "truncated", ""),
    };
  });
}
