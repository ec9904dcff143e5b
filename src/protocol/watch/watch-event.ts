import { readProtocolVersion } from "../adapter/describe-result.ts";
import type { ProtocolError } from "../errors/protocol-error.ts";
import { readProtocolError } from "../errors/protocol-error-reader.ts";
import type { ProtocolVersion } from "../limits.ts";
import { readAckArrays } from "../messages/ack.ts";
import { type MessageEnvelope, readMessageEnvelope } from "../messages/message-envelope.ts";
import { type HeartbeatResult, readHeartbeatResult } from "../sessions/heartbeat.ts";
import {
  expectObject,
  failField,
  member,
  optionalString,
  requiredEnum,
  requiredObject,
  requiredString,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The `event` discriminators of `message watch` stdout (docs/spec/protocol.md §5). A consumer
 * ignores any other kind (logged, never fatal).
 */
export const WATCH_EVENT_KINDS = [
  "ready",
  "message",
  "status",
  "acked",
  "heartbeat_ok",
  "error",
] as const;

/** A known watch event kind. */
export type WatchEventKind = (typeof WATCH_EVENT_KINDS)[number];

/** `ready.mode` values: `push` requires the `message.watch.push` capability. */
export const WATCH_MODES = ["push", "polling"] as const;

/** How a watch learns of new messages. */
export type WatchMode = (typeof WATCH_MODES)[number];

/** The `status.state` values we know; the set is open (receivers ignore unknown states). */
export const WATCH_STATUS_STATES = ["live", "polling"] as const;

/** A `status.state`: a known value or any other string. */
export type WatchStatusState = (typeof WATCH_STATUS_STATES)[number] | (string & {});

/** Exactly once, first, when the initial catch-up starts. */
export interface WatchReadyEvent {
  event: "ready";
  protocol_version: ProtocolVersion;
  session_id: string;
  mode: WatchMode;
}

/** One accepted unacknowledged message (at least once). */
export interface WatchMessageEvent {
  event: "message";
  message: MessageEnvelope;
}

/** Informational connection status. */
export interface WatchStatusEvent {
  event: "status";
  state: WatchStatusState;
  detail?: string;
}

/** Answer to an `ack` command; both arrays always present. */
export interface WatchAckedEvent {
  event: "acked";
  message_ids: string[];
  unknown: string[];
}

/** Answer to a `heartbeat` command. */
export interface WatchHeartbeatOkEvent extends HeartbeatResult {
  event: "heartbeat_ok";
}

/**
 * An error; `retryable: false` means the adapter exits with the code's status within 10 s,
 * `true` is informational.
 */
export interface WatchErrorEvent {
  event: "error";
  error: ProtocolError;
}

/**
 * One `message watch` NDJSON event (docs/spec/protocol.md §5), discriminated by `event`.
 *
 * @example
 * const e: WatchEvent = { event: "ready", protocol_version: "1", session_id: "s-51d0", mode: "push" };
 */
export type WatchEvent =
  | WatchReadyEvent
  | WatchMessageEvent
  | WatchStatusEvent
  | WatchAckedEvent
  | WatchHeartbeatOkEvent
  | WatchErrorEvent;

/**
 * Validates one watch event. An object whose `event` is a string this version does not know
 * validates to `null` (ignore it, docs/spec/protocol.md §5); a missing or non-string `event` is
 * `invalid_input` with `field = "event"`. Unknown members are dropped.
 *
 * @example
 * validateWatchEvent({ event: "typing" }); // { ok: true, value: null }
 * validateWatchEvent({ event: "acked", message_ids: ["m-1"] });
 * // { ok: true, value: { event: "acked", message_ids: ["m-1"], unknown: [] } }
 */
export function validateWatchEvent(value: unknown): ValidationResult<WatchEvent | null> {
  return runValidation((): WatchEvent | null => {
    const o = expectObject(value, "");
    const kind = member(o, "event");
    if (kind === undefined) failField("event", "required");
    if (typeof kind !== "string") failField("event", "invalid_value");
    switch (kind) {
      case "ready":
        return {
          event: "ready",
          protocol_version: readProtocolVersion(o, ""),
          session_id: requiredString(o, "session_id", "", { nonEmpty: true }),
          mode: requiredEnum(o, "mode", "", WATCH_MODES),
        };
      case "message":
        return {
          event: "message",
          message: readMessageEnvelope(requiredObject(o, "message", ""), "message"),
        };
      case "status": {
        const status: WatchStatusEvent = { event: "status", state: requiredString(o, "state", "") };
        const detail = optionalString(o, "detail", "");
        if (detail !== undefined) status.detail = detail;
        return status;
      }
      case "acked": {
        const arrays = readAckArrays(o, "", "message_ids");
        return { event: "acked", message_ids: arrays.acked, unknown: arrays.unknown };
      }
      case "heartbeat_ok":
        return { event: "heartbeat_ok", ...readHeartbeatResult(o, "") };
      case "error":
        return {
          event: "error",
          error: readProtocolError(requiredObject(o, "error", ""), "error"),
        };
      default:
        return null;
    }
  });
}
