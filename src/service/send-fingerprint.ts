/**
 * The idempotency fingerprint of a send (docs/spec/protocol.md §6.4): recipient ␀ body ␀ summary
 * ␀ reply_to, an absent summary or reply_to read as empty. Two sends under one idempotency key are
 * the same send exactly when their fingerprints are equal. PostgreSQL's `brigade_fingerprint`
 * (src/store/postgres/schema-functions.ts) builds the escaped equivalent in SQL.
 *
 * @example sendFingerprint("s-1", "hi", null, null) === "s-1\u0000hi\u0000\u0000"
 */
export function sendFingerprint(
  recipient: string,
  body: string,
  summary: string | null,
  replyTo: string | null,
): string {
  return `${recipient}\u0000${body}\u0000${summary ?? ""}\u0000${replyTo ?? ""}`;
}
