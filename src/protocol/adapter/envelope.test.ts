import { describe, expect, test } from "vitest";
import { BapError } from "../errors/bap-error.ts";
import { notFoundError } from "../errors/error-builders.ts";
import {
  decodeEnvelopeOutput,
  envelopeLine,
  errorEnvelope,
  okEnvelope,
  validateEnvelope,
} from "./envelope.ts";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// The docs/spec/protocol.md §3.1 examples, verbatim.
const okExample =
  '{"ok": true, "protocol_version": "1", "result": {"session_id": "s-51d0", "state": "offline"}}';
const errorExample =
  '{"ok": false, "protocol_version": "1", "error": {"code": "rate_limited", "message": "the send rate limit for this session is exhausted", "retryable": true, "retry_after_ms": 41250, "details": {"reason": "send_per_minute"}}}';

describe("envelopes (docs/spec/protocol.md §3.1)", () => {
  test("builders produce the spec's shapes, one line each", () => {
    expect(envelopeLine(okEnvelope({ session_id: "s-51d0", state: "offline" }))).toBe(
      `${JSON.stringify(JSON.parse(okExample))}\n`,
    );
    const err = errorEnvelope(notFoundError());
    expect(err).toEqual({ ok: false, protocol_version: "1", error: notFoundError() });
    expect(errorEnvelope(new BapError(notFoundError()))).toEqual(err);
  });

  test("validateEnvelope accepts both spec examples", () => {
    expect(validateEnvelope(JSON.parse(okExample))).toEqual({
      ok: true,
      value: JSON.parse(okExample),
    });
    expect(validateEnvelope(JSON.parse(errorExample))).toEqual({
      ok: true,
      value: JSON.parse(errorExample),
    });
  });

  test("result iff ok, error iff not", () => {
    const bad = [
      { ok: true, protocol_version: "1" },
      { ok: true, protocol_version: "1", result: {}, error: notFoundError() },
      { ok: false, protocol_version: "1" },
      { ok: false, protocol_version: "1", error: notFoundError(), result: {} },
      { ok: "true", protocol_version: "1", result: {} },
      { protocol_version: "1", result: {} },
      { ok: true, result: {} },
    ];
    for (const value of bad) expect(validateEnvelope(value).ok).toBe(false);
  });

  test("consumer leniency: absent retryable reads false, unknown code internal, non-string details dropped", () => {
    const r = validateEnvelope({
      ok: false,
      protocol_version: "1",
      error: { code: "teapot", message: "m", details: { reason: "x", n: 1 } },
      extra: 1,
    });
    expect(r).toEqual({
      ok: true,
      value: {
        ok: false,
        protocol_version: "1",
        error: { code: "internal", message: "m", retryable: false, details: { reason: "x" } },
      },
    });
  });

  test("decodeEnvelopeOutput maps harness failures to internal reasons", () => {
    expect(decodeEnvelopeOutput(utf8(`${okExample}\n`)).ok).toBe(true);
    const reasonOf = (bytes: Uint8Array) => {
      const r = decodeEnvelopeOutput(bytes);
      return r.ok ? undefined : [r.error.code, r.error.details?.reason];
    };
    expect(reasonOf(utf8("not json"))).toEqual(["internal", "stdout_not_json"]);
    expect(reasonOf(utf8(""))).toEqual(["internal", "stdout_not_json"]);
    expect(reasonOf(utf8('{"ok":true}'))).toEqual(["internal", "stdout_invalid_envelope"]);
    expect(reasonOf(new Uint8Array(4 * 1024 * 1024 + 1))).toEqual(["internal", "stdout_overflow"]);
    expect(reasonOf(utf8('{"ok":true,"protocol_version":"2","result":{}}'))).toEqual([
      "protocol_mismatch",
      undefined,
    ]);
  });
});
