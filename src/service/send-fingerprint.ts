import type { MessageAttachment } from "../protocol/index.ts";

/**
 * The idempotency fingerprint of a send (docs/spec/protocol.md §6.4): recipient ␀ body ␀ summary
 * ␀ reply_to, an absent summary or reply_to read as empty; **[ours]** a send that names
 * attachments adds ␀ and the JSON of their `[sha256, size, name]` triples in order, so the same
 * key with other files is another send, and one without attachments keeps the protocol's exact
 * fingerprint. Two sends under one idempotency key are the same send exactly when their
 * fingerprints are equal. PostgreSQL's `brigade_fingerprint` (src/store/postgres/schema-functions.ts)
 * builds the escaped equivalent of the protocol's part in SQL; a send with attachments never
 * takes that path.
 *
 * @example sendFingerprint("s-1", "hi", null, null) === "s-1\u0000hi\u0000\u0000"
 */
export function sendFingerprint(
  recipient: string,
  body: string,
  summary: string | null,
  replyTo: string | null,
  attachments: readonly MessageAttachment[] = [],
): string {
  const base = `${recipient}\u0000${body}\u0000${summary ?? ""}\u0000${replyTo ?? ""}`;
  if (attachments.length === 0) return base;
  const files = attachments.map((a) => [a.sha256, a.size, a.name]);
  return `${base}\u0000${JSON.stringify(files)}`;
}
