import { describe, expect, test } from "vitest";
import { validateConventionResult } from "../adapter/convention-result.ts";
import {
  validateTeamAcceptTransferResult,
  validateTeamMemberTarget,
  validateTeamRevokeMemberResult,
  validateTeamRotateSecretResult,
  validateTeamTransferResult,
  validateTeamTransferTarget,
} from "./team-admin.ts";
import { validateTeamCreateRequest, validateTeamCreateResult } from "./team-create.ts";
import {
  validateTeamInvitationsResult,
  validateTeamInvitationTarget,
  validateTeamInviteRequest,
  validateTeamInviteResult,
  validateTeamRevokeInviteResult,
} from "./team-invitations.ts";
import { validateTeamJoinRequest, validateTeamJoinResult } from "./team-join.ts";
import { validateTeamLabelRequest, validateTeamLabelResult } from "./team-label.ts";
import { validateTeamLeaveResult } from "./team-leave-result.ts";
import { validateTeamMembersResult } from "./team-members-result.ts";

const SECRET = "brg1.t-9c1e.Zm9vYmFyYmF6cXV4";

describe("team create", () => {
  test("request: team_name required ≤ 64 cp, human_label ≤ 128 cp", () => {
    expect(validateTeamCreateRequest({ team_name: "core", human_label: "dana", x: 1 })).toEqual({
      ok: true,
      value: { team_name: "core", human_label: "dana" },
    });
    for (const [value, field] of [
      [{}, "team_name"],
      [{ team_name: "" }, "team_name"],
      [{ team_name: "é".repeat(65) }, "team_name"],
      [{ team_name: "c", human_label: "é".repeat(129) }, "human_label"],
    ] as const) {
      const r = validateTeamCreateRequest(value);
      expect(r.ok ? undefined : r.error.details?.field).toBe(field);
    }
  });

  test("a bad team_name says the rule, value-free; the cap details stay", () => {
    for (const team_name of ["", "\u001b".repeat(65), 7] as const) {
      const r = validateTeamCreateRequest({ team_name });
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.error.message).toBe("team_name must be 1 to 64 characters (Unicode code points)");
      expect(r.error.details?.field).toBe("team_name");
    }
    const long = validateTeamCreateRequest({ team_name: "é".repeat(65) });
    expect(long.ok ? undefined : long.error.details).toEqual({
      field: "team_name",
      reason: "too_long",
      limit: "64",
      actual: "65",
      unit: "codepoints",
    });
    // The wire rule is length only: control characters are display text, cleaned when shown.
    expect(validateTeamCreateRequest({ team_name: "bad\nname\u001b[31m" }).ok).toBe(true);
    const label = validateTeamCreateRequest({ team_name: "c", human_label: "é".repeat(129) });
    expect(label.ok ? undefined : label.error.message).toBe(
      "an input member exceeds its length limit",
    );
  });

  test("result: four members, the secret must parse", () => {
    const result = {
      team_ref: "t-9c1e",
      team_name: "core",
      join_secret: SECRET,
      principal_ref: "p-41c9",
    };
    expect(validateTeamCreateResult(result)).toEqual({ ok: true, value: result });
    const r = validateTeamCreateResult({ ...result, join_secret: "nope" });
    expect(r.ok ? undefined : r.error.details).toEqual({
      field: "join_secret",
      reason: "invalid_value",
    });
  });
});

describe("team join", () => {
  test("request: parses the secret; backend must be an object and is kept as is", () => {
    const r = validateTeamJoinRequest({
      join_secret: SECRET,
      human_label: "sam",
      backend: { url: "https://brigade.example.org", nested: { a: [1] } },
      extra: true,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.join_secret).toBe(SECRET);
    expect(r.value.backend).toEqual({ url: "https://brigade.example.org", nested: { a: [1] } });
    expect(r.value.parsed_secret.teamRef).toBe("t-9c1e");
    expect(String(r.value.parsed_secret)).toBe("brg1.t-9c1e.[redacted]");
    expect(r.value).not.toHaveProperty("extra");
  });

  test.each([["x"], [[]], [null], [3]])("backend %j → invalid_input field=backend", (backend) => {
    const r = validateTeamJoinRequest({ join_secret: SECRET, backend });
    expect(r.ok ? undefined : r.error).toMatchObject({
      code: "invalid_input",
      details: { field: "backend", reason: "invalid_value" },
    });
  });

  test("a malformed secret is refused with a fixed message containing no part of it", () => {
    const bad = "brg1.t-9c1e.has space";
    const r = validateTeamJoinRequest({ join_secret: bad });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toEqual({
      code: "invalid_input",
      message: "the join secret is malformed",
      retryable: false,
      details: { field: "join_secret", reason: "invalid_value" },
    });
    expect(validateTeamJoinRequest({}).ok).toBe(false);
  });

  test("result", () => {
    const result = {
      team_ref: "t-9c1e",
      team_name: "core",
      principal_ref: "p-77aa",
      rejoined: true,
    };
    expect(validateTeamJoinResult(result)).toEqual({ ok: true, value: result });
    expect(validateTeamJoinResult({ ...result, rejoined: "yes" }).ok).toBe(false);
  });
});

describe("team leave and members", () => {
  test("leave: left must be true", () => {
    const result = { team_ref: "t-9c1e", principal_ref: "p-77aa", left: true };
    expect(validateTeamLeaveResult(result)).toEqual({ ok: true, value: result });
    expect(validateTeamLeaveResult({ ...result, left: false }).ok).toBe(false);
  });

  test("members: six member fields, last_seen_at nullable but present", () => {
    const m = {
      principal_ref: "p-41c9",
      human_label: "dana@example.org",
      status: "active",
      joined_at: "2026-10-01T08:00:00Z",
      last_seen_at: null,
      session_count: 0,
    };
    const base = { team_ref: "t-9c1e", team_name: "core", server_time: "2026-10-02T09:15:42Z" };
    expect(validateTeamMembersResult({ ...base, members: [m] })).toEqual({
      ok: true,
      value: { ...base, members: [m] },
    });
    expect(validateTeamMembersResult(base)).toEqual({ ok: true, value: { ...base, members: [] } });
    const { last_seen_at: _l, ...noSeen } = m;
    const r = validateTeamMembersResult({ ...base, members: [noSeen] });
    expect(r.ok ? undefined : r.error.details).toEqual({
      field: "members.0.last_seen_at",
      reason: "required",
    });
    const r2 = validateTeamMembersResult({ ...base, members: [{ ...m, session_count: -1 }] });
    expect(r2.ok ? undefined : r2.error.details?.field).toBe("members.0.session_count");
  });

  test("convention results must be objects", () => {
    expect(validateConventionResult({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect(validateConventionResult("x").ok).toBe(false);
  });
});

describe("team.admin shapes", () => {
  const fieldOf = (r: { ok: boolean; error?: { details?: Record<string, string> } }) =>
    r.ok ? undefined : r.error?.details?.field;

  test("member target: principal_ref required, a non-empty string; other members dropped", () => {
    expect(validateTeamMemberTarget({ principal_ref: "p-77aa", x: 1 })).toEqual({
      ok: true,
      value: { principal_ref: "p-77aa" },
    });
    for (const bad of [{}, { principal_ref: "" }, { principal_ref: null }, [], "p"]) {
      const r = validateTeamMemberTarget(bad);
      expect(r.ok).toBe(false);
      if (!Array.isArray(bad) && typeof bad === "object") expect(fieldOf(r)).toBe("principal_ref");
    }
  });

  test("rotate-secret result: the secret must parse", () => {
    const result = { team_ref: "t-9c1e", team_name: "core", join_secret: SECRET };
    expect(validateTeamRotateSecretResult(result)).toEqual({ ok: true, value: result });
    expect(fieldOf(validateTeamRotateSecretResult({ ...result, join_secret: "nope" }))).toBe(
      "join_secret",
    );
    expect(fieldOf(validateTeamRotateSecretResult({ team_ref: "t", team_name: "c" }))).toBe(
      "join_secret",
    );
  });

  test("revoke-member result: revoked must be true", () => {
    const result = { team_ref: "t-9c1e", principal_ref: "p-77aa", revoked: true };
    expect(validateTeamRevokeMemberResult(result)).toEqual({ ok: true, value: result });
    expect(fieldOf(validateTeamRevokeMemberResult({ ...result, revoked: false }))).toBe("revoked");
    expect(fieldOf(validateTeamRevokeMemberResult({ team_ref: "t", principal_ref: "p" }))).toBe(
      "revoked",
    );
  });

  test("transfer result: an offer to a member, or null once withdrawn; never absent or empty", () => {
    const result = {
      team_ref: "t-9c1e",
      creator_principal_ref: "p-41c9",
      offered_to_principal_ref: "p-77aa",
    };
    expect(validateTeamTransferResult(result)).toEqual({ ok: true, value: result });
    const withdrawn = { ...result, offered_to_principal_ref: null };
    expect(validateTeamTransferResult(withdrawn)).toEqual({ ok: true, value: withdrawn });
    for (const offered of [undefined, "", 7]) {
      expect(
        fieldOf(validateTeamTransferResult({ ...result, offered_to_principal_ref: offered })),
      ).toBe("offered_to_principal_ref");
    }
    // expires_at [ours]: kept when present (a time, or null once withdrawn), never empty.
    for (const expires_at of ["2026-10-09T09:00:00.000Z", null]) {
      const timed = { ...result, expires_at };
      expect(validateTeamTransferResult(timed)).toEqual({ ok: true, value: timed });
    }
    for (const expires_at of ["", 7]) {
      expect(fieldOf(validateTeamTransferResult({ ...result, expires_at }))).toBe("expires_at");
    }
  });

  test("transfer target [ours]: a principal, and expires_in_seconds 1..604,800 when given", () => {
    expect(validateTeamTransferTarget({ principal_ref: "p-1", extra: 1 })).toEqual({
      ok: true,
      value: { principal_ref: "p-1" },
    });
    for (const seconds of [1, 604_800]) {
      expect(
        validateTeamTransferTarget({ principal_ref: "p-1", expires_in_seconds: seconds }),
      ).toEqual({ ok: true, value: { principal_ref: "p-1", expires_in_seconds: seconds } });
    }
    for (const seconds of [0, 604_801, 1.5, "60", null]) {
      expect(
        fieldOf(validateTeamTransferTarget({ principal_ref: "p-1", expires_in_seconds: seconds })),
      ).toBe("expires_in_seconds");
    }
    expect(fieldOf(validateTeamTransferTarget({ expires_in_seconds: 60 }))).toBe("principal_ref");
  });

  test("accept-transfer result: all three refs required and non-empty", () => {
    const result = {
      team_ref: "t-9c1e",
      creator_principal_ref: "p-77aa",
      previous_creator_principal_ref: "p-41c9",
    };
    expect(validateTeamAcceptTransferResult(result)).toEqual({ ok: true, value: result });
    expect(
      fieldOf(validateTeamAcceptTransferResult({ ...result, previous_creator_principal_ref: "" })),
    ).toBe("previous_creator_principal_ref");
  });
});

describe("invitation and label shapes", () => {
  const fieldOf = (r: { ok: boolean; error?: { details?: Record<string, string> } }) =>
    r.ok ? undefined : r.error?.details?.field;
  const invite = {
    team_ref: "t-9c1e",
    team_name: "core",
    invitation_id: "i-3f2a",
    invitation: "brg1.t-9c1e.Zm9vYmFyYmF6",
    max_uses: 1,
    expires_at: "2026-10-03T09:15:42Z",
  };

  test("team invite result: the invitation is a join secret or absent; nothing else passes", () => {
    expect(validateTeamInviteResult(invite)).toEqual({ ok: true, value: invite });
    const { invitation: _omitted, ...withoutSecret } = invite;
    expect(validateTeamInviteResult(withoutSecret)).toEqual({ ok: true, value: withoutSecret });
    for (const invitation of [null, "", "x", "brg1.t.\u001b[31m", "brg1.t.a b", 7]) {
      expect(fieldOf(validateTeamInviteResult({ ...invite, invitation }))).toBe("invitation");
    }
    for (const max_uses of [0, 101, 1.5]) {
      expect(fieldOf(validateTeamInviteResult({ ...invite, max_uses }))).toBe("max_uses");
    }
  });

  test("team invite request: optional integers in range", () => {
    expect(validateTeamInviteRequest({})).toEqual({ ok: true, value: {} });
    expect(validateTeamInviteRequest({ max_uses: 100, expires_in_seconds: 604_800 }).ok).toBe(true);
    expect(fieldOf(validateTeamInviteRequest({ expires_in_seconds: 0 }))).toBe(
      "expires_in_seconds",
    );
    expect(fieldOf(validateTeamInviteRequest({ max_uses: null }))).toBe("max_uses");
  });

  test("team invitations result: records with a known state; absent list and truncated read as empty and false", () => {
    const record = {
      invitation_id: "i-1",
      state: "used",
      max_uses: 1,
      uses: 1,
      created_at: "2026-10-02T09:15:42Z",
      expires_at: "2026-10-03T09:15:42Z",
      last_used_at: "2026-10-02T10:00:00Z",
      revoked_at: null,
    };
    const result = { team_ref: "t", server_time: "2026-10-02T09:15:42Z", invitations: [record] };
    expect(validateTeamInvitationsResult(result)).toEqual({
      ok: true,
      value: { ...result, truncated: false },
    });
    expect(
      fieldOf(
        validateTeamInvitationsResult({ ...result, invitations: [{ ...record, state: "x" }] }),
      ),
    ).toBe("invitations.0.state");
    expect(
      fieldOf(
        validateTeamInvitationsResult({
          ...result,
          invitations: [{ ...record, revoked_at: "no" }],
        }),
      ),
    ).toBe("invitations.0.revoked_at");
    const { last_used_at: _gone, ...missing } = record;
    expect(fieldOf(validateTeamInvitationsResult({ ...result, invitations: [missing] }))).toBe(
      "invitations.0.last_used_at",
    );
  });

  test("revoke-invite target and result; label request and result", () => {
    expect(validateTeamInvitationTarget({ invitation_id: "i-1" }).ok).toBe(true);
    expect(fieldOf(validateTeamInvitationTarget({ invitation_id: "" }))).toBe("invitation_id");
    expect(
      validateTeamRevokeInviteResult({ team_ref: "t", invitation_id: "i", state: "used" }).ok,
    ).toBe(true);
    expect(
      fieldOf(
        validateTeamRevokeInviteResult({ team_ref: "t", invitation_id: "i", state: "active" }),
      ),
    ).toBe("state");
    expect(validateTeamLabelRequest({ human_label: "é".repeat(128) }).ok).toBe(true);
    expect(fieldOf(validateTeamLabelRequest({ human_label: "é".repeat(129) }))).toBe("human_label");
    expect(validateTeamLabelResult({ team_ref: "t", principal_ref: "p", human_label: "" }).ok).toBe(
      true,
    );
  });
});
