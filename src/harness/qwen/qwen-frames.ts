import {
  QWEN_CONTENT_ESCAPE,
  QWEN_DELIVERY_STATUSES,
  QWEN_FRAME_VERSION,
  type QwenDeliveryStatus,
} from "./qwen-facts.ts";

/** What one user frame carries (Qwen Code 0.24.4's cross-session-protocol.md, section 4). */
export interface QwenUserFrame {
  /** `^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`, fresh per message. */
  readonly msgId: string;
  /** Our own inbox socket: where receipts go. */
  readonly from: string;
  /** Our own inbox token: what the receipts present to us. */
  readonly replyToken: string;
  /** Display name, one line. */
  readonly fromName: string;
  /** The session id read from the target's record just before the send. */
  readonly toSessionId: string;
  /** The text the model reads: the sentinel + frame, non-empty. */
  readonly content: string;
}

/** A message id Qwen Code accepts (and one that does not canonicalize to `all`). */
export const QWEN_MSG_ID: RegExp = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * The bytes of one post: the auth line (`token`: the record's `ipcToken` or the person's
 * controller token; no auth line when `undefined`), then the user frame, each line
 * newline-terminated. **[ours]** No `fromMode`: Brigade is not a session with a review class and
 * never claims one, so without a controller token Qwen Code holds the message (its section 6,
 * "Policy").
 * `priority` is `next` (both values queue for the next turn at 0.24.4).
 *
 * @example encodeQwenPost(token, { msgId: "m-7f3a", … }).endsWith("\n")
 */
export function encodeQwenPost(token: string | undefined, frame: QwenUserFrame): string {
  const auth =
    token === undefined
      ? ""
      : `${JSON.stringify({ msgV: QWEN_FRAME_VERSION, type: "auth", token })}\n`;
  const user = {
    msgV: QWEN_FRAME_VERSION,
    msgId: frame.msgId,
    type: "user",
    from: frame.from,
    replyToken: frame.replyToken,
    fromName: frame.fromName,
    toSessionId: frame.toSessionId,
    priority: "next",
    message: { role: "user", content: frame.content },
  };
  return `${auth}${JSON.stringify(user)}\n`;
}

/** One `delivery_status` receipt (the protocol's section 5). */
export interface QwenReceipt {
  readonly status: QwenDeliveryStatus;
  /** The `msgId` of the message it settles. */
  readonly origMsgId: string;
  /** Further ids a `dropped` receipt settles (at most 256); empty otherwise. */
  readonly droppedMsgIds: readonly string[];
  /** `rate-limited`, `duplicate`, `queue-full` on a `dropped` receipt; else `undefined`. */
  readonly dropReason?: string;
}

const DROP_REASONS = new Set(["rate-limited", "duplicate", "queue-full"]);

/**
 * One line of a receipt connection read as a receipt, or `undefined` for anything else (an auth
 * line, another frame, a version above 1, an unknown status — section 7: "no transition", malformed
 * JSON). The free-text `reason` is not kept: it is the receiver's text, never shown as ours.
 * Never throws.
 *
 * @example parseQwenReceipt('{"msgV":1,"type":"control","action":"delivery_status","status":"held","origMsgId":"m-1"}')?.status === "held"
 */
export function parseQwenReceipt(line: string): QwenReceipt | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.msgV !== "number" || v.msgV > QWEN_FRAME_VERSION) return undefined;
  if (v.type !== "control" || v.action !== "delivery_status") return undefined;
  const status = QWEN_DELIVERY_STATUSES.find((s) => s === v.status);
  if (status === undefined) return undefined;
  if (typeof v.origMsgId !== "string" || !QWEN_MSG_ID.test(v.origMsgId)) return undefined;
  if (status !== "dropped") return { status, origMsgId: v.origMsgId, droppedMsgIds: [] };
  const ids = Array.isArray(v.droppedMsgIds)
    ? v.droppedMsgIds
        .slice(0, 256)
        .filter((id): id is string => typeof id === "string" && QWEN_MSG_ID.test(id))
    : [];
  return {
    status,
    origMsgId: v.origMsgId,
    droppedMsgIds: ids,
    ...(typeof v.dropReason === "string" && DROP_REASONS.has(v.dropReason)
      ? { dropReason: v.dropReason }
      : {}),
  };
}

/**
 * The content as the model reads it inside Qwen Code's `<cross_session_message>` envelope
 * (0.24.4, `QWEN_CONTENT_ESCAPE`): every `<` written `&lt;`, nothing else changed.
 *
 * @example qwenEscapedContent("<brigade-message>") === "&lt;brigade-message>"
 */
export function qwenEscapedContent(content: string): string {
  return content.replaceAll(QWEN_CONTENT_ESCAPE.from, QWEN_CONTENT_ESCAPE.to);
}
