import { describe, expect, test } from "vitest";
import { validateWatchCommand } from "./watch-command.ts";
import { validateWatchEvent } from "./watch-event.ts";

describe("validateWatchEvent (docs/spec/protocol.md §5)", () => {
  test("the spec's example lines", () => {
    expect(
      validateWatchEvent(
        JSON.parse('{"event":"ready","protocol_version":"1","session_id":"s-51d0","mode":"push"}'),
      ),
    ).toEqual({
      ok: true,
      value: { event: "ready", protocol_version: "1", session_id: "s-51d0", mode: "push" },
    });
    expect(
      validateWatchEvent(JSON.parse('{"event":"acked","message_ids":["m-7f3a"],"unknown":[]}')),
    ).toEqual({ ok: true, value: { event: "acked", message_ids: ["m-7f3a"], unknown: [] } });
    expect(
      validateWatchEvent(
        JSON.parse(
          '{"event":"error","error":{"code":"not_found","message":"session or message not found","retryable":false}}',
        ),
      ),
    ).toEqual({
      ok: true,
      value: {
        event: "error",
        error: { code: "not_found", message: "session or message not found", retryable: false },
      },
    });
  });

  test("status: open set of states, optional detail", () => {
    expect(validateWatchEvent({ event: "status", state: "reconnecting", detail: "d" })).toEqual({
      ok: true,
      value: { event: "status", state: "reconnecting", detail: "d" },
    });
  });

  test("heartbeat_ok carries the heartbeat result", () => {
    const event = {
      event: "heartbeat_ok",
      session_id: "s-51d0",
      state: "active",
      lease_until: "2026-10-02T09:17:12Z",
      server_time: "2026-10-02T09:15:42Z",
    };
    expect(validateWatchEvent({ ...event, x: 1 })).toEqual({ ok: true, value: event });
  });

  test("message events validate the envelope under message.*", () => {
    const r = validateWatchEvent({ event: "message", message: { protocol_version: "1" } });
    expect(r.ok ? undefined : r.error.details?.field).toBe("message.kind");
  });

  test("unknown event kinds validate to null (ignored); a missing event is an error", () => {
    expect(validateWatchEvent({ event: "typing" })).toEqual({ ok: true, value: null });
    const r = validateWatchEvent({ type: "ready" });
    expect(r.ok ? undefined : r.error.details).toEqual({ field: "event", reason: "required" });
  });

  test("ready: mode must be push or polling", () => {
    const r = validateWatchEvent({
      event: "ready",
      protocol_version: "1",
      session_id: "s",
      mode: "sse",
    });
    expect(r.ok ? undefined : r.error.details?.field).toBe("mode");
  });

  test("error events read the error leniently (absent retryable → false, unknown code → internal)", () => {
    expect(validateWatchEvent({ event: "error", error: { code: "boom", message: "m" } })).toEqual({
      ok: true,
      value: { event: "error", error: { code: "internal", message: "m", retryable: false } },
    });
  });
});

describe("validateWatchCommand (docs/spec/protocol.md §5)", () => {
  test("ack, heartbeat and close", () => {
    expect(validateWatchCommand({ type: "ack", message_ids: ["m-1"] })).toEqual({
      ok: true,
      value: { type: "ack", message_ids: ["m-1"] },
    });
    expect(validateWatchCommand({ type: "heartbeat", activity: "busy", sync_peer: null })).toEqual({
      ok: true,
      value: { type: "heartbeat", activity: "busy", sync_peer: null },
    });
    expect(validateWatchCommand({ type: "close", reason: "x" })).toEqual({
      ok: true,
      value: { type: "close" },
    });
  });

  test("heartbeat drops session_description (not on this command) and checks caps", () => {
    expect(validateWatchCommand({ type: "heartbeat", session_description: "d" })).toEqual({
      ok: true,
      value: { type: "heartbeat" },
    });
    const r = validateWatchCommand({ type: "heartbeat", model: "é".repeat(129) });
    expect(r.ok ? undefined : r.error.details?.field).toBe("model");
  });

  test("unknown types validate to null; ack needs ids", () => {
    expect(validateWatchCommand({ type: "pause" })).toEqual({ ok: true, value: null });
    expect(validateWatchCommand({ type: "ack", message_ids: [] }).ok).toBe(false);
    expect(validateWatchCommand({ type: 3 }).ok).toBe(false);
  });
});
