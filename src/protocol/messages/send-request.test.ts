import { describe, expect, test } from "vitest";
import { parseJsonDocument } from "../encoding/json-document.ts";
import { SEND_REQUEST_FORBIDDEN_MEMBERS, validateSendRequest } from "./send-request.ts";

const valid = {
  sender_session_id: "s-2b8e",
  recipient_session_id: "s-51d0",
  body: "Column plan_tier is now NOT NULL.",
};

function detailsOf(value: unknown): Record<string, string> | undefined {
  const r = validateSendRequest(value);
  expect(r.ok).toBe(false);
  return r.ok ? undefined : r.error.details;
}

describe("validateSendRequest (docs/spec/protocol.md §4.7)", () => {
  test("accepts the minimal request and every optional member", () => {
    expect(validateSendRequest(valid)).toEqual({ ok: true, value: valid });
    const full = { ...valid, summary: "Schema bumped", reply_to: "m-7f3a", idempotency_key: "k1" };
    expect(validateSendRequest(full)).toEqual({ ok: true, value: full });
  });

  test("unknown members are ignored and not echoed", () => {
    const r = validateSendRequest({ ...valid, priority: "high", Sender: "x" });
    expect(r).toEqual({ ok: true, value: valid });
  });

  test.each(SEND_REQUEST_FORBIDDEN_MEMBERS.map((m) => [m]))(
    "forbidden member %s is refused with any value, null included",
    (name) => {
      for (const v of [null, "x", 0, {}]) {
        expect(detailsOf({ ...valid, [name]: v })).toEqual({
          field: name,
          reason: "forbidden_member",
        });
      }
    },
  );

  test("forbidden members are refused before every other rule", () => {
    expect(detailsOf({ body: "", created_at: "2026-10-02T09:15:42Z" })).toEqual({
      field: "created_at",
      reason: "forbidden_member",
    });
    // The first in the spec's list wins when several are present.
    expect(detailsOf({ hop_count: 1, sender: {} })?.field).toBe("sender");
  });

  test("body: required, non-empty, ≤ 16,384 UTF-8 bytes", () => {
    expect(detailsOf({ ...valid, body: undefined })).toEqual({ field: "body", reason: "required" });
    expect(detailsOf({ ...valid, body: "" })).toEqual({ field: "body", reason: "invalid_value" });
    expect(validateSendRequest({ ...valid, body: "x".repeat(16384) }).ok).toBe(true);
    expect(detailsOf({ ...valid, body: "x".repeat(16385) })).toEqual({
      field: "body",
      reason: "too_long",
      limit: "16384",
      actual: "16385",
      unit: "bytes",
    });
    // Two-byte code points: 8,192 pass, 8,193 are 16,386 bytes.
    expect(validateSendRequest({ ...valid, body: "é".repeat(8192) }).ok).toBe(true);
    expect(detailsOf({ ...valid, body: "é".repeat(8193) })?.actual).toBe("16386");
  });

  test("summary ≤ 200 code points; idempotency_key ≤ 128 code points", () => {
    expect(validateSendRequest({ ...valid, summary: "😀".repeat(200) }).ok).toBe(true);
    expect(detailsOf({ ...valid, summary: "a".repeat(201) })).toMatchObject({
      field: "summary",
      reason: "too_long",
      unit: "codepoints",
    });
    expect(validateSendRequest({ ...valid, idempotency_key: "é".repeat(128) }).ok).toBe(true);
    expect(detailsOf({ ...valid, idempotency_key: "k".repeat(129) })?.field).toBe(
      "idempotency_key",
    );
  });

  test("an empty idempotency_key reads as no key", () => {
    expect(validateSendRequest({ ...valid, idempotency_key: "" })).toEqual({
      ok: true,
      value: valid,
    });
  });

  test("reply_to is not nullable in a SendRequest and must be non-empty", () => {
    expect(detailsOf({ ...valid, reply_to: null })).toEqual({
      field: "reply_to",
      reason: "invalid_value",
    });
    expect(detailsOf({ ...valid, reply_to: "" })?.field).toBe("reply_to");
  });

  test("ids must be non-empty strings; wrong types are invalid_value", () => {
    expect(detailsOf({ ...valid, sender_session_id: "" })?.field).toBe("sender_session_id");
    expect(detailsOf({ ...valid, recipient_session_id: 5 })).toEqual({
      field: "recipient_session_id",
      reason: "invalid_value",
    });
    expect(detailsOf({ ...valid, summary: null })?.field).toBe("summary");
    expect(detailsOf([])).toEqual({ reason: "invalid_value" });
  });

  test("a lone surrogate in a string is not_utf8", () => {
    expect(detailsOf({ ...valid, body: "a\uD800" })).toEqual({ field: "body", reason: "not_utf8" });
  });

  test("never echoes the offending value", () => {
    const secret = "brg1.t-9c1e.TOPSECRET";
    const r = validateSendRequest({ ...valid, summary: secret.repeat(20) });
    expect(JSON.stringify(r)).not.toContain("TOPSECRET");
  });

  test("with the document reader: a duplicate member never reaches the validator", () => {
    const r = parseJsonDocument(
      new TextEncoder().encode('{"sender_session_id":"a","sender_session_id":"b"}'),
    );
    expect(r.ok).toBe(false);
  });
});
