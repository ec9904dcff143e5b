import {
  expectObject,
  failField,
  requiredString,
  requiredTimestamp,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The answer of `POST /v1/teams/:team/dashboard-login` **[ours]** (`brigade dashboard`,
 * docs/52-dashboard.md): the path of a one-time login link on the same server (its secret is the
 * `code` query parameter, 43 base64url characters, shown once) and when it stops admitting.
 *
 * @example { team_ref: "t-9c1e", login_path: "/dashboard/login?code=…", expires_at: "2026-12-05T02:45:00.000Z" }
 */
export interface DashboardLoginResult {
  team_ref: string;
  login_path: string;
  expires_at: string;
}

/**
 * Validates a dashboard login answer: `login_path` must be `/dashboard/login?code=` and 43
 * base64url characters, so a client never opens anything else the server says. Never throws.
 *
 * @example validateDashboardLoginResult({ team_ref: "t", login_path: "/x", expires_at: "" }).ok === false;
 */
export function validateDashboardLoginResult(
  value: unknown,
): ValidationResult<DashboardLoginResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    const result = {
      team_ref: requiredString(o, "team_ref", "", id),
      login_path: requiredString(o, "login_path", "", id),
      expires_at: requiredTimestamp(o, "expires_at", ""),
    };
    if (!/^\/dashboard\/login\?code=[A-Za-z0-9_-]{43}$/.test(result.login_path)) {
      failField("login_path", "invalid_value");
    }
    return result;
  });
}
