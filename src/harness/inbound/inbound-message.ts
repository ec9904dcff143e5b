import type { MessageAttachment } from "../../protocol/index.ts";

/**
 * A message that passed step 1 (loose validation) of the inbound pipeline: the members of a
 * protocol `MessageEnvelope` (docs/spec/protocol.md §4.6) the frame reads, coerced to safe types.
 * All text is still untrusted and unsanitised; `message_id` and `sender.session_id` are safe ids
 * (`[A-Za-z0-9_-]{1,64}`).
 *
 * @example const m: InboundMessage = { message_id: "m-1", sender: { principal_ref: "p-1", session_id: "s-1", session_name: "api" }, body: "hi", reply_to: null, hop_count: 0, created_at: "2026-10-02T09:15:42Z" };
 */
export interface InboundMessage {
  readonly message_id: string;
  readonly sender: {
    readonly principal_ref: string;
    readonly human_label?: string;
    readonly session_id: string;
    readonly session_name: string;
  };
  readonly summary?: string;
  readonly body: string;
  readonly reply_to: string | null;
  readonly hop_count: number;
  readonly created_at: string;
  /**
   * The files the message names (capability `message.attachments`), 1..10, when it names any.
   * The receiver downloads and verifies them before the message is delivered.
   */
  readonly attachments?: readonly MessageAttachment[];
}
