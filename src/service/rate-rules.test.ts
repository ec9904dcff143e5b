import { describe, expect, test } from "vitest";
import { PROTOCOL_LIMITS } from "../protocol/index.ts";
import { RATE_RULES } from "./rate-rules.ts";
import { JOIN_ATTEMPT_LIMIT, REGISTER_RATE, TEAM_CREATE_RATE } from "./service-config.ts";

const row = (rule: { reason: string; limit: number; windowMs: number | null }) => [
  rule.reason,
  rule.limit,
  rule.windowMs,
];

describe("RATE_RULES", () => {
  test("message send checks steps (h) then (i) of docs/spec/protocol.md §6.16, in order", () => {
    expect(RATE_RULES.message_send.map(row)).toEqual([
      ["send_per_minute", PROTOCOL_LIMITS.send_rate.per_minute, 60_000],
      ["send_per_hour", PROTOCOL_LIMITS.send_rate.per_hour, 3_600_000],
      ["principal_per_minute", PROTOCOL_LIMITS.principal_send_rate.per_minute, 60_000],
      ["principal_per_hour", PROTOCOL_LIMITS.principal_send_rate.per_hour, 3_600_000],
      ["sender_quota_for_recipient", PROTOCOL_LIMITS.max_unacked_per_sender_recipient, null],
      ["recipient_inbox_full", PROTOCOL_LIMITS.max_unacked_per_recipient, null],
    ]);
  });

  test("the principal-level verbs keep their limits and windows", () => {
    expect(RATE_RULES.team_create.map(row)).toEqual([
      ["create_team", TEAM_CREATE_RATE.per_hour, 3_600_000],
      ["create_team", TEAM_CREATE_RATE.per_day, 86_400_000],
    ]);
    expect(RATE_RULES.team_join.map(row)).toEqual([["join_attempts", JOIN_ATTEMPT_LIMIT, 600_000]]);
    expect(RATE_RULES.session_register.map(row)).toEqual([
      ["register_session", REGISTER_RATE.per_minute, 60_000],
      ["register_session", REGISTER_RATE.per_hour, 3_600_000],
    ]);
  });
});
