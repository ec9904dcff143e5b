import { describe, expect, test } from "vitest";
import { bapErrorLine } from "../harness/session-context/index.ts";
import {
  BapError,
  notFoundError,
  rateLimitedError,
  type SessionRecord,
  unavailableError,
} from "../protocol/index.ts";
import { bodyFromInput, resolveRecipient, SEND_MAX_BODY_BYTES } from "./send-command.ts";

const record = (session_id: string, session_name = "x"): SessionRecord => ({
  session_id,
  session_name,
  principal_ref: "p-1",
  state: "idle",
  activity: "idle",
  inbound: "accept",
  last_seen_at: "2026-10-02T09:15:42Z",
  lease_until: "2026-10-02T09:17:12Z",
  created_at: "2026-10-02T09:00:00Z",
  is_self: false,
});

const SELF = "s-aaaa00000000";
const team = [
  record(SELF, "me"),
  record("s-aaaa11111111", "one"),
  record("s-bbbb22222222", "two"),
  record("s-bbbb33333333", "three"),
  record("s-1", "tiny"),
];

describe("resolveRecipient", () => {
  test("an exact id wins, even a short one or our own", () => {
    expect(resolveRecipient("s-1", team, SELF)).toMatchObject({ ok: true, sessionId: "s-1" });
    expect(resolveRecipient(SELF, team, SELF)).toMatchObject({ ok: true, sessionId: SELF });
  });

  test("a unique prefix of 5+ characters among the others; ours is not a candidate", () => {
    expect(resolveRecipient("s-aaaa", team, SELF)).toMatchObject({
      ok: true,
      sessionId: "s-aaaa11111111",
    });
  });

  test("ambiguous, too short, only ourselves, none", () => {
    const ambiguous = resolveRecipient("s-bbbb", team, SELF);
    expect(ambiguous.ok).toBe(false);
    if (!ambiguous.ok) {
      expect(ambiguous.refusal).toBe("prefix_ambiguous");
      expect(ambiguous.matches.map((m) => m.session_name)).toEqual(["two", "three"]);
    }
    expect(resolveRecipient("s-bb", team, SELF)).toMatchObject({ refusal: "prefix_too_short" });
    expect(resolveRecipient("s-aaaa0", team, SELF)).toMatchObject({
      refusal: "prefix_only_self",
    });
    expect(resolveRecipient("s-cccc", team, SELF)).toEqual({ ok: true, sessionId: "s-cccc" });
  });

  test("the 5-character minimum counts code points", () => {
    expect(resolveRecipient("s-é1", team, SELF)).toMatchObject({ refusal: "prefix_too_short" });
  });
});

describe("bodyFromInput", () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  test("exactly one final newline is removed; everything else is kept", () => {
    expect(bodyFromInput(enc("a\n"))).toEqual({ ok: true, body: "a" });
    expect(bodyFromInput(enc("a\n\n"))).toEqual({ ok: true, body: "a\n" });
    expect(bodyFromInput(enc("a\r\n"))).toEqual({ ok: true, body: "a\r" });
    expect(bodyFromInput(enc("\ufeffa"))).toEqual({ ok: true, body: "\ufeffa" });
    expect(bodyFromInput(enc(" $x `y`\t"))).toEqual({ ok: true, body: " $x `y`\t" });
  });

  test("empty, too large (after the newline), not UTF-8", () => {
    expect(bodyFromInput(enc(""))).toEqual({ ok: false, refusal: "body_empty" });
    expect(bodyFromInput(enc("\n"))).toEqual({ ok: false, refusal: "body_empty" });
    const max = "é".repeat(SEND_MAX_BODY_BYTES / 2);
    expect(bodyFromInput(enc(`${max}\n`))).toEqual({ ok: true, body: max });
    expect(bodyFromInput(enc(`${max}x`))).toEqual({ ok: false, refusal: "body_too_large" });
    expect(bodyFromInput(new Uint8Array([0xed, 0xa0, 0x80]))).toEqual({
      ok: false,
      refusal: "body_not_utf8",
    });
  });
});

describe("bapErrorLine", () => {
  test("fixed sentences; rate_limited names its reason and the wait", () => {
    expect(bapErrorLine(new BapError(notFoundError()))).toBe(
      "not_found: no such session or message in your team",
    );
    expect(bapErrorLine(new BapError(notFoundError()), { not_found: "custom" })).toBe(
      "not_found: custom",
    );
    expect(bapErrorLine(new BapError(rateLimitedError("send_per_minute", 41_250)))).toBe(
      "rate_limited: this session sent too many messages in the last minute; retry after 41250 ms",
    );
    expect(bapErrorLine(new BapError(unavailableError("timeout")))).toBe(
      "unavailable: the Brigade server is unreachable or failing; try again later",
    );
  });
});
