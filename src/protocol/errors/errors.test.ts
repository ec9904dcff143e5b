import { describe, expect, test } from "vitest";
import { BapError, isBapError } from "./bap-error.ts";
import {
  invalidInputError,
  joinRejectedError,
  notFoundError,
  notMemberError,
  rateLimitedError,
  usageError,
} from "./error-builders.ts";
import {
  codeForExitStatus,
  ERROR_CODES,
  ERROR_EXIT_STATUS,
  exitStatusForCode,
  isErrorCode,
  isRetryableCode,
} from "./error-codes.ts";
import { ERROR_MESSAGES } from "./error-messages.ts";

describe("exit statuses (docs/spec/protocol.md §3.3)", () => {
  const table: ReadonlyArray<[string, number, boolean]> = [
    ["internal", 1, false],
    ["usage", 2, false],
    ["invalid_input", 3, false],
    ["unauthenticated", 4, false],
    ["unauthorized", 5, false],
    ["not_found", 6, false],
    ["conflict", 7, false],
    ["rate_limited", 8, true],
    ["unavailable", 9, true],
    ["protocol_mismatch", 10, false],
    ["config", 11, false],
    ["loop_detected", 12, false],
  ];

  test("the twelve codes, in order, with the spec's exit status and retryability", () => {
    expect([...ERROR_CODES]).toEqual(table.map(([code]) => code));
    for (const [code, status, retryable] of table) {
      expect(isErrorCode(code)).toBe(true);
      if (!isErrorCode(code)) continue;
      expect(ERROR_EXIT_STATUS[code]).toBe(status);
      expect(exitStatusForCode(code)).toBe(status);
      expect(codeForExitStatus(status)).toBe(code);
      expect(isRetryableCode(code)).toBe(retryable);
    }
  });

  test("an unrecognised code exits 1; no status is 0, 126, 127 or ≥ 128", () => {
    expect(exitStatusForCode("teapot")).toBe(1);
    expect(exitStatusForCode("NOT_FOUND")).toBe(1);
    for (const status of Object.values(ERROR_EXIT_STATUS)) {
      expect(status).toBeGreaterThanOrEqual(1);
      expect(status).toBeLessThanOrEqual(12);
    }
    expect(codeForExitStatus(0)).toBeUndefined();
    expect(codeForExitStatus(13)).toBeUndefined();
    expect(codeForExitStatus(1.5)).toBeUndefined();
  });
});

describe("error builders", () => {
  test("the uniform errors carry no details and are byte-identical per call", () => {
    expect(JSON.stringify(notFoundError())).toBe(
      '{"code":"not_found","message":"session or message not found","retryable":false}',
    );
    expect(JSON.stringify(notFoundError())).toBe(JSON.stringify(notFoundError()));
    expect(notMemberError()).toEqual({
      code: "unauthorized",
      message: "not an active member of this team",
      retryable: false,
    });
    expect(joinRejectedError().code).toBe("unauthorized");
    expect(joinRejectedError().details).toBeUndefined();
  });

  test("rate_limited matches the spec's example envelope error", () => {
    expect(JSON.stringify(rateLimitedError("send_per_minute", 41250))).toBe(
      '{"code":"rate_limited","message":"the send rate limit for this session is exhausted","retryable":true,"retry_after_ms":41250,"details":{"reason":"send_per_minute"}}',
    );
  });

  test("retry_after_ms is a whole number > 0", () => {
    expect(rateLimitedError("recipient_inbox_full", 0).retry_after_ms).toBe(1);
    expect(rateLimitedError("send_per_hour", 10.2).retry_after_ms).toBe(11);
    expect(rateLimitedError("send_per_hour", Number.NaN).retry_after_ms).toBe(1);
  });

  test("invalid_input details keep the spec's key order", () => {
    const e = invalidInputError("sender.session_name", "too_long", {
      unit: "codepoints",
      actual: "65",
      limit: "64",
    });
    expect(JSON.stringify(e.details)).toBe(
      '{"field":"sender.session_name","reason":"too_long","limit":"64","actual":"65","unit":"codepoints"}',
    );
    expect(e.retryable).toBe(false);
  });

  test("every message is fixed text without interpolation", () => {
    for (const code of ERROR_CODES) expect(ERROR_MESSAGES[code]).toMatch(/^[a-z][a-z0-9 '-]+$/);
    expect(usageError("unknown_flag").message).toBe("unknown flag for this command");
  });
});

describe("BapError", () => {
  test("wraps and gives back the wire object", () => {
    const wire = rateLimitedError("join_attempts", 5000);
    const error = new BapError(wire);
    expect(error).toBeInstanceOf(Error);
    expect(isBapError(error)).toBe(true);
    expect(error.code).toBe("rate_limited");
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(5000);
    expect(error.details).toEqual({ reason: "join_attempts" });
    expect(error.exitStatus).toBe(8);
    expect(error.toProtocolError()).toEqual(wire);
    expect(JSON.parse(JSON.stringify(error))).toEqual(wire);
  });

  test("details are copied, so mutating the source does not change the error", () => {
    const wire = invalidInputError("body", "required");
    const error = new BapError(wire);
    (wire.details as Record<string, string>).field = "other";
    expect(error.details?.field).toBe("body");
    expect(new BapError(notFoundError()).toProtocolError()).toEqual(notFoundError());
  });
});
