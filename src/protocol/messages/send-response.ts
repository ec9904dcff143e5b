import { PROTOCOL_LIMITS } from "../limits.ts";
import {
  expectObject,
  requiredBoolean,
  requiredEnum,
  requiredInteger,
  requiredString,
  requiredTimestamp,
  runValidation,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";

/**
 * The `message send` result (docs/spec/protocol.md §4.8), all six members required. `status` is
 * always `accepted` (nothing ever claims delivery); `duplicate: true` marks an idempotency replay
 * whose `message_id`, `created_at` and `hop_count` are the original's.
 *
 * @example
 * { status: "accepted", message_id: "m-7f3a", recipient_session_id: "s-51d0",
 *   created_at: "2026-10-02T09:15:42Z", duplicate: false, hop_count: 0 }
 */
export interface SendResponse {
  status: "accepted";
  message_id: string;
  recipient_session_id: string;
  created_at: string;
  duplicate: boolean;
  /** 0..32. */
  hop_count: number;
}

/**
 * Validates a `message send` result (docs/spec/protocol.md §4.8).
 *
 * @example
 * validateSendResponse({ status: "delivered" }).ok === false; // field "status"
 */
export function validateSendResponse(value: unknown): ValidationResult<SendResponse> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const id = { nonEmpty: true } as const;
    return {
      status: requiredEnum(o, "status", "", ["accepted"] as const),
      message_id: requiredString(o, "message_id", "", id),
      recipient_session_id: requiredString(o, "recipient_session_id", "", id),
      created_at: requiredTimestamp(o, "created_at", ""),
      duplicate: requiredBoolean(o, "duplicate", ""),
      hop_count: requiredInteger(o, "hop_count", "", 0, PROTOCOL_LIMITS.max_hop_count),
    };
  });
}
