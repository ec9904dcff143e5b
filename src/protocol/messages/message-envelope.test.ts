import { describe, expect, test } from "vitest";
import { validateAckRequest, validateAckResult } from "./ack.ts";
import { validateMessageEnvelope } from "./message-envelope.ts";
import { validateReceiveResult } from "./receive-result.ts";
import { validateSendResponse } from "./send-response.ts";

// The docs/spec/protocol.md §4.6 example, verbatim.
const message = {
  protocol_version: "1",
  kind: "text",
  message_id: "m-7f3a",
  team_ref: "t-9c1e",
  sender: {
    principal_ref: "p-41c9",
    human_label: "dana@example.org",
    session_id: "s-2b8e",
    session_name: "billing-svc",
  },
  recipient_session_id: "s-51d0",
  summary: "Schema bumped",
  body: "Column plan_tier is now NOT NULL.",
  reply_to: null,
  hop_count: 0,
  created_at: "2026-10-02T09:15:42Z",
  delivery_state: "accepted",
};

function fieldOf(value: unknown): string | undefined {
  const r = validateMessageEnvelope(value);
  expect(r.ok).toBe(false);
  return r.ok ? undefined : r.error.details?.field;
}

describe("validateMessageEnvelope (docs/spec/protocol.md §4.6)", () => {
  test("accepts the spec example and serialises it in wire order", () => {
    const r = validateMessageEnvelope(message);
    expect(r).toEqual({ ok: true, value: message });
    if (r.ok) expect(JSON.stringify(r.value)).toBe(JSON.stringify(message));
  });

  test("optional members may be absent; unknown members dropped at every level", () => {
    const { summary: _s, reply_to: _r, ...bare } = message;
    const { human_label: _h, ...sender } = message.sender;
    const minimal = { ...bare, sender };
    const r = validateMessageEnvelope({ ...minimal, x: 1, sender: { ...sender, token: "t" } });
    expect(r).toEqual({ ok: true, value: minimal });
  });

  test.each([
    [{ kind: "image" }, "kind"],
    [{ body: "" }, "body"],
    [{ body: "x".repeat(16385) }, "body"],
    [{ summary: "s".repeat(201) }, "summary"],
    [{ reply_to: "" }, "reply_to"],
    [{ hop_count: 33 }, "hop_count"],
    [{ hop_count: -1 }, "hop_count"],
    [{ created_at: "2026-13-01T00:00:00Z" }, "created_at"],
    [{ delivery_state: "read" }, "delivery_state"],
    [{ message_id: "" }, "message_id"],
    [{ sender: { ...message.sender, session_name: "é".repeat(65) } }, "sender.session_name"],
    [{ sender: { ...message.sender, principal_ref: undefined } }, "sender.principal_ref"],
    [{ sender: { ...message.sender, human_label: "é".repeat(129) } }, "sender.human_label"],
  ])("%j fails on %s", (patch, field) => {
    expect(fieldOf({ ...message, ...patch })).toBe(field);
  });

  test("hop_count 32 is allowed", () => {
    expect(validateMessageEnvelope({ ...message, hop_count: 32 }).ok).toBe(true);
  });

  test("another protocol_version is protocol_mismatch", () => {
    const r = validateMessageEnvelope({ ...message, protocol_version: "2" });
    expect(r.ok ? undefined : r.error.code).toBe("protocol_mismatch");
  });
});

describe("receive, send response, ack", () => {
  test("receive: messages default to []; element errors are indexed", () => {
    expect(validateReceiveResult({})).toEqual({ ok: true, value: { messages: [] } });
    expect(validateReceiveResult({ messages: [message] })).toEqual({
      ok: true,
      value: { messages: [message] },
    });
    const r = validateReceiveResult({ messages: [message, { ...message, body: "" }] });
    expect(r.ok ? undefined : r.error.details?.field).toBe("messages.1.body");
  });

  test("send response: all six required, status accepted only", () => {
    const response = {
      status: "accepted",
      message_id: "m-7f3a",
      recipient_session_id: "s-51d0",
      created_at: "2026-10-02T09:15:42Z",
      duplicate: false,
      hop_count: 0,
    };
    expect(validateSendResponse({ ...response, delivered: true })).toEqual({
      ok: true,
      value: response,
    });
    expect(validateSendResponse({ ...response, status: "delivered" }).ok).toBe(false);
    const { duplicate: _d, ...missing } = response;
    const r = validateSendResponse(missing);
    expect(r.ok ? undefined : r.error.details).toEqual({ field: "duplicate", reason: "required" });
  });

  test("ack request: message_ids required, non-empty, elements non-empty strings", () => {
    expect(validateAckRequest({ message_ids: ["m-7f3a", "m-0000"], x: 1 })).toEqual({
      ok: true,
      value: { message_ids: ["m-7f3a", "m-0000"] },
    });
    for (const [value, field] of [
      [{}, "message_ids"],
      [{ message_ids: [] }, "message_ids"],
      [{ message_ids: "m-1" }, "message_ids"],
      [{ message_ids: ["m-1", ""] }, "message_ids.1"],
      [{ message_ids: ["m-1", 7] }, "message_ids.1"],
    ] as const) {
      const r = validateAckRequest(value);
      expect(r.ok ? undefined : r.error.details?.field).toBe(field);
    }
  });

  test("ack result: both arrays, absent read as []", () => {
    expect(validateAckResult({ acked: ["m-7f3a"], unknown: ["m-0000"] })).toEqual({
      ok: true,
      value: { acked: ["m-7f3a"], unknown: ["m-0000"] },
    });
    expect(validateAckResult({})).toEqual({ ok: true, value: { acked: [], unknown: [] } });
  });
});
