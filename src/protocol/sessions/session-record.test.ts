import { describe, expect, test } from "vitest";
import { validateSessionCloseResult } from "./session-close-result.ts";
import { validateSessionListResult } from "./session-list-result.ts";
import { validateSessionRecord } from "./session-record.ts";

const record = {
  session_id: "s-51d0",
  session_name: "billing-svc",
  principal_ref: "p-41c9",
  state: "idle",
  activity: "idle",
  inbound: "hold",
  last_seen_at: "2026-10-02T09:15:42Z",
  lease_until: "2026-10-02T09:17:12+02:00",
  created_at: "2026-10-02T09:00:00.5Z",
  is_self: true,
};

describe("validateSessionRecord (docs/spec/protocol.md §4.4)", () => {
  test("live delivery is read when known and dropped, never refused, when not", () => {
    const read = (extra: Record<string, unknown>) => {
      const r = validateSessionRecord({ ...record, ...extra });
      expect(r.ok).toBe(true);
      return r.ok ? [r.value.live_delivery, r.value.live_delivery_reason] : [];
    };
    expect(read({ live_delivery: "no", live_delivery_reason: "inbound_gate" })).toEqual([
      "no",
      "inbound_gate",
    ]);
    expect(read({ live_delivery: "yes", live_delivery_reason: "inbound_gate" })).toEqual([
      "yes",
      undefined,
    ]);
    for (const extra of [
      { live_delivery: "no" },
      { live_delivery: "no", live_delivery_reason: "a_newer_reason" },
      { live_delivery: true },
      { live_delivery: "x".repeat(100_000) },
    ]) {
      expect(read(extra)).toEqual([undefined, undefined]);
    }
  });

  test("accepts required members and every optional one", () => {
    const full = {
      ...record,
      session_description: "",
      human_label: "dana@example.org",
      harness: "claude-code",
      harness_version: "2.1.270",
      workspace_label: null,
      model: null,
      context_used_tokens: 0,
      brigade_version: "0.1.0",
      sync_peer: "git:x",
    };
    expect(validateSessionRecord({ ...full, hostname: "h" })).toEqual({ ok: true, value: full });
  });

  test.each([
    ["state", "sleeping"],
    ["last_seen_at", "yesterday"],
    ["lease_until", "2026-10-02 09:17:12"],
    ["is_self", "true"],
    ["session_id", ""],
    ["human_label", null],
  ])("%s = %j is invalid", (name, value) => {
    const r = validateSessionRecord({ ...record, [name]: value });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.details?.field).toBe(name);
  });

  test("is_self is required", () => {
    const { is_self: _x, ...rest } = record;
    const r = validateSessionRecord(rest);
    expect(r.ok ? undefined : r.error.details).toEqual({ field: "is_self", reason: "required" });
  });
});

describe("session list and close results", () => {
  test("list: sessions default to [] when absent; element errors are indexed", () => {
    const base = {
      team_ref: "t-9c1e",
      team_name: "core",
      server_time: "2026-10-02T09:15:42Z",
      truncated: false,
    };
    expect(validateSessionListResult(base)).toEqual({ ok: true, value: { ...base, sessions: [] } });
    expect(validateSessionListResult({ ...base, sessions: [record] })).toEqual({
      ok: true,
      value: { ...base, sessions: [record] },
    });
    const bad = validateSessionListResult({
      ...base,
      sessions: [record, { ...record, inbound: "x" }],
    });
    expect(bad.ok ? undefined : bad.error.details?.field).toBe("sessions.1.inbound");
    const notArray = validateSessionListResult({ ...base, sessions: {} });
    expect(notArray.ok ? undefined : notArray.error.details?.field).toBe("sessions");
    const noTruncated = validateSessionListResult({ ...base, truncated: undefined });
    expect(noTruncated.ok).toBe(false);
  });

  test("close: state must be offline", () => {
    expect(validateSessionCloseResult({ session_id: "s-51d0", state: "offline", x: 1 })).toEqual({
      ok: true,
      value: { session_id: "s-51d0", state: "offline" },
    });
    expect(validateSessionCloseResult({ session_id: "s-51d0", state: "idle" }).ok).toBe(false);
  });
});
