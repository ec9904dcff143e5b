import { noticeName } from "../../formats/sanitize/index.ts";
import { INBOUND_LIMITS } from "./inbound-limits.ts";

/** Every notice line starts with this, so it cannot pass for text the user typed. */
export const NOTICE_PREFIX = "Brigade: ";

function messages(count: number): string {
  return count === 1 ? "1 message" : `${count} messages`;
}

/**
 * The step-4 notice (one per sender per 5 min): a sender went over 10 messages per minute. The
 * name goes through `noticeName` (sanitised, one line, never empty); `count` is how many of its
 * messages were left on the server since the notice was raised.
 *
 * @example rateNotice("api", 3) === "Brigade: api sent more than 10 messages within one minute; 3 messages were left on the server and will be delivered later."
 */
export function rateNotice(senderName: string, count: number): string {
  return (
    `${NOTICE_PREFIX}${noticeName(senderName)} sent more than ${INBOUND_LIMITS.senderLimit} ` +
    `messages within one minute; ${messages(count)} ${count === 1 ? "was" : "were"} left on ` +
    "the server and will be delivered later."
  );
}

/**
 * The step-6 notice (one per 5 min): the queue of 50 was full and its oldest messages were set
 * aside, unacknowledged, for the server to deliver again.
 *
 * @example dropNotice(2) === "Brigade: 2 messages were set aside because more than 50 were waiting; the server will deliver them again later."
 */
export function dropNotice(count: number): string {
  return (
    `${NOTICE_PREFIX}${messages(count)} ${count === 1 ? "was" : "were"} set aside because more ` +
    `than ${INBOUND_LIMITS.queueCap} were waiting; the server will deliver ` +
    `${count === 1 ? "it" : "them"} again later.`
  );
}
