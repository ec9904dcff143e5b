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
    /** `"person"` when a person wrote it from their own terminal (capability `message.person`). */
    readonly kind?: "person";
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

/**
 * The name a notice or the wrapper shows for a message's sender: the session's name, or for a
 * person's message (which comes from no session) their label followed by `(a person)` — the
 * label is theirs and unverified, the mark is the server's. Unsanitised: callers sanitise as for
 * any name.
 *
 * @example senderDisplayName({ sender: { principal_ref: "p-1", session_id: "p-1", session_name: "", human_label: "dana", kind: "person" } }) === "dana (a person)"
 */
export function senderDisplayName(message: Pick<InboundMessage, "sender">): string {
  const { sender } = message;
  if (sender.kind !== "person") return sender.session_name;
  const label = sender.human_label ?? "";
  return label === "" ? "(a person)" : `${label} (a person)`;
}
