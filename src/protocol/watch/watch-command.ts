import { DEFAULT_LEASE } from "../limits.ts";
import { readMessageIds } from "../messages/ack.ts";
import { type HeartbeatChanges, readHeartbeatChanges } from "../sessions/heartbeat.ts";
import type { LeaseBounds } from "../sessions/session-registration.ts";
import { expectObject, failField, member, runValidation } from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The `type` discriminators of `message watch` stdin commands (docs/spec/protocol.md §5), honoured
 * only when the adapter advertises `message.watch.stdin_commands`. Unknown types are ignored.
 */
export const WATCH_COMMAND_TYPES = ["ack", "heartbeat", "close"] as const;

/** A known watch command type. */
export type WatchCommandType = (typeof WATCH_COMMAND_TYPES)[number];

/** Acknowledge messages; answered by an `acked` event. */
export interface WatchAckCommand {
  type: "ack";
  message_ids: string[];
}

/**
 * Heartbeat the watched session (docs/spec/protocol.md §4.5 rules; no `session_description` on this
 * command; `brigade_version` and `sync_peer` are **[ours]**); answered by `heartbeat_ok`. The
 * harness keeps at most one outstanding.
 */
export interface WatchHeartbeatCommand extends HeartbeatChanges {
  type: "heartbeat";
}

/** Close the session as `session close`, then exit 0. */
export interface WatchCloseCommand {
  type: "close";
}

/**
 * One NDJSON command on `message watch` stdin (docs/spec/protocol.md §5), discriminated by `type`.
 *
 * @example
 * const c: WatchCommand = { type: "ack", message_ids: ["m-7f3a"] };
 */
export type WatchCommand = WatchAckCommand | WatchHeartbeatCommand | WatchCloseCommand;

/** Options of {@link validateWatchCommand}. */
export interface WatchCommandOptions {
  /** The adapter's accepted lease range for `heartbeat.lease_seconds`; defaults to 30..600 s. */
  readonly lease?: LeaseBounds;
}

/**
 * Validates one watch stdin command. A string `type` this version does not know validates to
 * `null` (ignore it); a missing or non-string `type` is `invalid_input`, `field = "type"`.
 * Unknown members are dropped.
 *
 * @example
 * validateWatchCommand({ type: "close", reason: "bye" }); // { ok: true, value: { type: "close" } }
 * validateWatchCommand({ type: "pause" });                // { ok: true, value: null }
 */
export function validateWatchCommand(
  value: unknown,
  options?: WatchCommandOptions,
): ValidationResult<WatchCommand | null> {
  const lease = options?.lease ?? DEFAULT_LEASE;
  return runValidation((): WatchCommand | null => {
    const o = expectObject(value, "");
    const type = member(o, "type");
    if (type === undefined) failField("type", "required");
    if (typeof type !== "string") failField("type", "invalid_value");
    switch (type) {
      case "ack":
        return { type: "ack", message_ids: readMessageIds(o, "") };
      case "heartbeat": {
        const command: WatchHeartbeatCommand = { type: "heartbeat" };
        readHeartbeatChanges(o, "", lease, command);
        return command;
      }
      case "close":
        return { type: "close" };
      default:
        return null;
    }
  });
}
