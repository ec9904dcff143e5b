import { describe, expect, test } from "vitest";
import {
  validateSessionRegistration,
  validateSessionRegistrationResult,
} from "./session-registration.ts";

const minimal = {
  harness: "claude-code",
  harness_version: "2.1.270",
  session_name: "billing-svc",
  activity: "busy",
  inbound: "accept",
};

function detailsOf(value: unknown, lease?: { min_seconds: number; max_seconds: number }) {
  const r = validateSessionRegistration(value, lease === undefined ? undefined : { lease });
  expect(r.ok).toBe(false);
  return r.ok ? undefined : r.error.details;
}

describe("validateSessionRegistration (docs/spec/protocol.md §4.3)", () => {
  test("accepts the minimal registration", () => {
    expect(validateSessionRegistration(minimal)).toEqual({ ok: true, value: minimal });
  });

  test("keeps every optional member, explicit nulls included", () => {
    const full = {
      ...minimal,
      session_description: null,
      lease_seconds: 90,
      workspace_label: null,
      human_label: null,
      model: "claude-opus",
      context_used_tokens: 9007199254740991,
      brigade_version: "0.1.0",
      sync_peer: "git:origin/main",
      resume: { session_id: "s-51d0" },
    };
    expect(validateSessionRegistration(full)).toEqual({ ok: true, value: full });
    expect(validateSessionRegistration({ ...minimal, resume: null, lease_seconds: null })).toEqual({
      ok: true,
      value: { ...minimal, lease_seconds: null, resume: null },
    });
  });

  test("unknown members (native ids, cwd …) are ignored and not echoed, at every level", () => {
    const r = validateSessionRegistration({
      ...minimal,
      cwd: "/home/dana",
      native_session_id: "abc",
      resume: { session_id: "s-1", extra: true },
    });
    expect(r).toEqual({ ok: true, value: { ...minimal, resume: { session_id: "s-1" } } });
  });

  test.each([["harness"], ["harness_version"], ["session_name"], ["activity"], ["inbound"]])(
    "%s is required",
    (name) => {
      const value: Record<string, unknown> = { ...minimal };
      delete value[name];
      expect(detailsOf(value)).toEqual({ field: name, reason: "required" });
    },
  );

  test("enumerations name the allowed values", () => {
    expect(detailsOf({ ...minimal, activity: "sleeping" })).toEqual({
      field: "activity",
      reason: "invalid_value",
      allowed: "busy,idle",
    });
    expect(detailsOf({ ...minimal, inbound: "Accept" })?.allowed).toBe("accept,hold,refuse");
  });

  test("caps count code points: 64 two-byte code points pass, 65 fail", () => {
    expect(validateSessionRegistration({ ...minimal, session_name: "é".repeat(64) }).ok).toBe(true);
    expect(detailsOf({ ...minimal, session_name: "é".repeat(65) })).toEqual({
      field: "session_name",
      reason: "too_long",
      limit: "64",
      actual: "65",
      unit: "codepoints",
    });
    expect(
      validateSessionRegistration({ ...minimal, session_description: "é".repeat(256) }).ok,
    ).toBe(true);
    expect(detailsOf({ ...minimal, session_description: "é".repeat(257) })?.field).toBe(
      "session_description",
    );
    expect(detailsOf({ ...minimal, model: "é".repeat(129) })?.field).toBe("model");
    expect(detailsOf({ ...minimal, workspace_label: "é".repeat(129) })?.field).toBe(
      "workspace_label",
    );
    expect(detailsOf({ ...minimal, human_label: "é".repeat(129) })?.field).toBe("human_label");
    expect(detailsOf({ ...minimal, brigade_version: "é".repeat(65) })?.field).toBe(
      "brigade_version",
    );
    expect(validateSessionRegistration({ ...minimal, sync_peer: "é".repeat(256) }).ok).toBe(true);
    expect(detailsOf({ ...minimal, sync_peer: "é".repeat(257) })?.field).toBe("sync_peer");
  });

  test("brigade_version and sync_peer are not nullable", () => {
    expect(detailsOf({ ...minimal, brigade_version: null })).toEqual({
      field: "brigade_version",
      reason: "invalid_value",
    });
    expect(detailsOf({ ...minimal, sync_peer: null })?.field).toBe("sync_peer");
  });

  test("context_used_tokens: integer 0..2^53−1 without fraction or exponent", () => {
    expect(detailsOf({ ...minimal, context_used_tokens: -1 })).toEqual({
      field: "context_used_tokens",
      reason: "out_of_range",
      min: "0",
      max: "9007199254740991",
    });
    expect(detailsOf({ ...minimal, context_used_tokens: 2 ** 53 })?.reason).toBe("out_of_range");
    expect(detailsOf({ ...minimal, context_used_tokens: 1.5 })?.reason).toBe("invalid_value");
    expect(detailsOf({ ...minimal, context_used_tokens: "5" })?.reason).toBe("invalid_value");
  });

  test("an integer written 2.0 in the document is refused", async () => {
    const { parseJsonDocument } = await import("../encoding/json-document.ts");
    const doc = parseJsonDocument(
      new TextEncoder().encode(JSON.stringify(minimal).replace("}", ',"lease_seconds":60.0}')),
    );
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    const r = validateSessionRegistration(doc.value);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.details).toEqual({ field: "lease_seconds", reason: "invalid_value" });
  });

  test("lease_seconds must fall in the adapter's lease range", () => {
    expect(validateSessionRegistration({ ...minimal, lease_seconds: 30 }).ok).toBe(true);
    expect(validateSessionRegistration({ ...minimal, lease_seconds: 600 }).ok).toBe(true);
    expect(detailsOf({ ...minimal, lease_seconds: 29 })).toEqual({
      field: "lease_seconds",
      reason: "out_of_range",
      min: "30",
      max: "600",
    });
    expect(
      detailsOf({ ...minimal, lease_seconds: 100 }, { min_seconds: 10, max_seconds: 60 }),
    ).toMatchObject({ min: "10", max: "60" });
  });

  test("resume must be an object with a non-empty session_id", () => {
    expect(detailsOf({ ...minimal, resume: "s-1" })).toEqual({
      field: "resume",
      reason: "invalid_value",
    });
    expect(detailsOf({ ...minimal, resume: {} })).toEqual({
      field: "resume.session_id",
      reason: "required",
    });
    expect(detailsOf({ ...minimal, resume: { session_id: "" } })?.field).toBe("resume.session_id");
  });
});

describe("validateSessionRegistrationResult", () => {
  const record = {
    session_id: "s-51d0",
    session_name: "billing-svc",
    principal_ref: "p-41c9",
    state: "active",
    activity: "busy",
    inbound: "accept",
    last_seen_at: "2026-10-02T09:15:42Z",
    lease_until: "2026-10-02T09:17:12Z",
    created_at: "2026-10-02T09:15:42Z",
    is_self: false,
  };

  test("accepts a record plus resumed, lease_seconds and server_time", () => {
    const result = {
      ...record,
      resumed: false,
      lease_seconds: 90,
      server_time: "2026-10-02T09:15:42.123Z",
    };
    expect(validateSessionRegistrationResult({ ...result, noise: 1 })).toEqual({
      ok: true,
      value: result,
    });
  });

  test("requires the three extra members", () => {
    const r = validateSessionRegistrationResult({
      ...record,
      lease_seconds: 90,
      server_time: "2026-10-02T09:15:42Z",
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.details).toEqual({ field: "resumed", reason: "required" });
  });
});
