import { describe, expect, test } from "vitest";
import { validateHeartbeatRequest, validateHeartbeatResult } from "./heartbeat.ts";

describe("validateHeartbeatRequest (docs/spec/protocol.md §4.5)", () => {
  test("every member is optional; {} is valid", () => {
    expect(validateHeartbeatRequest({})).toEqual({ ok: true, value: {} });
  });

  test("keeps present values and explicit nulls; drops unknown members", () => {
    const beat = {
      activity: "idle",
      session_name: "renamed",
      session_description: "",
      inbound: "refuse",
      lease_seconds: 120,
      model: null,
      context_used_tokens: 10,
      brigade_version: null,
      sync_peer: "p:x",
    };
    const r = validateHeartbeatRequest({ ...beat, workspace_label: "dropped", resume: {} });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value).toEqual(beat);
  });

  test("session_name must be non-empty and ≤ 64 cp; description ≤ 256 cp", () => {
    const empty = validateHeartbeatRequest({ session_name: "" });
    expect(empty.ok ? undefined : empty.error.details).toEqual({
      field: "session_name",
      reason: "invalid_value",
    });
    const long = validateHeartbeatRequest({ session_description: "é".repeat(257) });
    expect(long.ok ? undefined : long.error.details?.reason).toBe("too_long");
  });

  test("lease_seconds is range-checked against the adapter lease", () => {
    expect(validateHeartbeatRequest({ lease_seconds: 601 }).ok).toBe(false);
    expect(
      validateHeartbeatRequest(
        { lease_seconds: 601 },
        { lease: { min_seconds: 1, max_seconds: 900 } },
      ).ok,
    ).toBe(true);
  });
});

describe("validateHeartbeatResult", () => {
  test("all four members required", () => {
    const result = {
      session_id: "s-51d0",
      state: "active",
      lease_until: "2026-10-02T09:17:12Z",
      server_time: "2026-10-02T09:15:42Z",
    };
    expect(validateHeartbeatResult(result)).toEqual({ ok: true, value: result });
    const { server_time: _s, ...rest } = result;
    const r = validateHeartbeatResult(rest);
    expect(r.ok ? undefined : r.error.details).toEqual({
      field: "server_time",
      reason: "required",
    });
  });

  test("released_message_ids [ours]: kept when it names ids, dropped when empty, refused when bad", () => {
    const base = {
      session_id: "s-51d0",
      state: "idle",
      lease_until: "2026-10-02T09:17:12Z",
      server_time: "2026-10-02T09:15:42Z",
    };
    const named = { ...base, released_message_ids: ["m-1", "m-2"] };
    expect(validateHeartbeatResult(named)).toEqual({ ok: true, value: named });
    expect(validateHeartbeatResult({ ...base, released_message_ids: [] })).toEqual({
      ok: true,
      value: base,
    });
    for (const [bad, field] of [
      ["m-1", "released_message_ids"],
      [["m-1", ""], "released_message_ids.1"],
      [[7], "released_message_ids.0"],
      [Array.from({ length: 201 }, (_, i) => `m-${i}`), "released_message_ids"],
    ] as const) {
      const r = validateHeartbeatResult({ ...base, released_message_ids: bad });
      expect(r.ok ? undefined : r.error.details?.field).toBe(field);
    }
  });
});
