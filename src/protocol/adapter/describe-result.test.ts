import { describe, expect, test } from "vitest";
import { DEFAULT_LEASE, PROTOCOL_LIMITS, RETENTION_FLOORS } from "../limits.ts";
import { validateDescribeResult } from "./describe-result.ts";

// The docs/spec/protocol.md §4.2 example, verbatim.
const example = {
  protocol_version: "1",
  adapter: { name: "brigade-adapter-http", version: "0.3.0" },
  delivery: { guarantee: "at_least_once", ordering: "none", ack_state: "injected" },
  capabilities: [
    "team.create",
    "team.join",
    "team.roster",
    "message.receive",
    "message.watch.push",
    "message.watch.stdin_commands",
    "session.description",
    "session.resume",
    "session.workspace_label",
    "session.inbound",
    "session.model",
    "session.context_used_tokens",
    "session.human_label",
    "session.brigade_version",
    "session.sync_peer",
  ],
  limits: {
    max_body_bytes: 16384,
    max_summary_chars: 200,
    max_session_name_codepoints: 64,
    max_team_name_codepoints: 64,
    max_description_chars: 256,
    max_human_label_chars: 128,
    max_workspace_label_chars: 128,
    max_model_chars: 128,
    max_idempotency_key_chars: 128,
    send_rate: { per_minute: 20, per_hour: 200 },
    principal_send_rate: { per_minute: 60, per_hour: 600 },
    max_unacked_per_recipient: 60,
    max_unacked_per_sender_recipient: 15,
    max_hop_count: 32,
    implicit_reply_window_seconds: 600,
  },
  lease: { default_seconds: 90, min_seconds: 30, max_seconds: 600 },
  retention: {
    unacked_message_seconds: 604800,
    acked_message_seconds: 86400,
    closed_session_seconds: 604800,
  },
  profile: {
    name: "default",
    state: "joined",
    team_ref: "t-9c1e",
    team_name: "core",
    principal_ref: "p-41c9",
    human_label: "dana@example.org",
  },
};

function errorOf(value: unknown) {
  const r = validateDescribeResult(value);
  expect(r.ok).toBe(false);
  return r.ok ? undefined : r.error;
}

describe("validateDescribeResult (docs/spec/protocol.md §4.2)", () => {
  test("accepts the spec example unchanged", () => {
    expect(validateDescribeResult(example)).toEqual({ ok: true, value: example });
  });

  test("our constants equal the example's limits, lease and retention", () => {
    expect(PROTOCOL_LIMITS).toEqual(example.limits);
    expect(DEFAULT_LEASE).toEqual(example.lease);
    expect(RETENTION_FLOORS).toEqual(example.retention);
  });

  test("unknown members are dropped at every level; unknown capabilities are kept", () => {
    const noisy = {
      ...example,
      extra: 1,
      limits: { ...example.limits, max_fun: 3 },
      capabilities: [...example.capabilities, "future.thing"],
    };
    const r = validateDescribeResult(noisy);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).not.toHaveProperty("extra");
    expect(r.value.limits).toEqual(example.limits);
    expect(r.value.capabilities).toContain("future.thing");
  });

  test("another protocol_version is protocol_mismatch", () => {
    expect(errorOf({ ...example, protocol_version: "2" })?.code).toBe("protocol_mismatch");
    expect(errorOf({ ...example, protocol_version: 1 })?.details).toEqual({
      field: "protocol_version",
      reason: "invalid_value",
    });
  });

  test("capabilities must include message.receive", () => {
    expect(errorOf({ ...example, capabilities: ["team.join"] })?.details).toEqual({
      field: "capabilities",
      reason: "invalid_value",
    });
  });

  test("every limits/lease/retention member is required and a positive integer", () => {
    const { max_hop_count: _drop, ...limits } = example.limits;
    expect(errorOf({ ...example, limits })?.details).toEqual({
      field: "limits.max_hop_count",
      reason: "required",
    });
    expect(
      errorOf({
        ...example,
        limits: { ...example.limits, send_rate: { per_minute: 0, per_hour: 1 } },
      })?.details?.field,
    ).toBe("limits.send_rate.per_minute");
    expect(
      errorOf({ ...example, retention: { ...example.retention, acked_message_seconds: "1" } })
        ?.details?.field,
    ).toBe("retention.acked_message_seconds");
  });

  test("lease must satisfy min ≤ default ≤ max", () => {
    expect(
      errorOf({ ...example, lease: { default_seconds: 20, min_seconds: 30, max_seconds: 600 } })
        ?.details?.field,
    ).toBe("lease.min_seconds");
    expect(
      errorOf({ ...example, lease: { default_seconds: 700, min_seconds: 30, max_seconds: 600 } })
        ?.details?.field,
    ).toBe("lease.max_seconds");
  });

  test("delivery values are fixed", () => {
    expect(
      errorOf({ ...example, delivery: { ...example.delivery, guarantee: "exactly_once" } })?.details
        ?.field,
    ).toBe("delivery.guarantee");
  });

  test("team members of profile are read only when joined", () => {
    const unbound = { ...example, profile: { ...example.profile, state: "not_member" } };
    const r = validateDescribeResult(unbound);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.profile).toEqual({ name: "default", state: "not_member" });
    const { team_ref: _t, ...missing } = example.profile;
    expect(errorOf({ ...example, profile: missing })?.details?.field).toBe("profile.team_ref");
    expect(
      errorOf({ ...example, profile: { name: "default", state: "gone" } })?.details?.field,
    ).toBe("profile.state");
  });
});
