import { looseValidate } from "./loose-validation.ts";
import type { FetchedMessage } from "./sender-wait-lists.ts";

/**
 * The ids and senders of envelopes one `message receive` answered, in the order given, for
 * `InboundPipeline.refetched`; anything malformed is left out (offering it rejects it). Pure;
 * never throws.
 *
 * @example pipeline.refetched(fetchedMessages(result.messages), result.messages.length < limit);
 */
export function fetchedMessages(messages: readonly unknown[]): FetchedMessage[] {
  const fetched: FetchedMessage[] = [];
  for (const message of messages) {
    const parsed = looseValidate(message);
    if (parsed.ok) {
      fetched.push({
        messageId: parsed.message.message_id,
        senderId: parsed.message.sender.session_id,
      });
    }
  }
  return fetched;
}
