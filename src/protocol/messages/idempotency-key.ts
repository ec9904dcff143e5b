import { createHash } from "node:crypto";

/**
 * The harness key rule of `brigade send` (docs/spec/protocol.md §6.4):
 * `base64url_unpadded(sha256(sender ␀ recipient ␀ body ␀ decimal(floor(unixSeconds / 60))))`,
 * UTF-8 throughout, 43 characters; stable within one clock minute, so a retry inside the minute is
 * one message. `unixSeconds` comes from the injected clock.
 *
 * @example
 * harnessIdempotencyKey("s-2b8e", "s-51d0", "hello", 1_790_000_000).length === 43;
 */
export function harnessIdempotencyKey(
  senderSessionId: string,
  recipientSessionId: string,
  body: string,
  unixSeconds: number,
): string {
  const minute = Math.floor(unixSeconds / 60);
  return createHash("sha256")
    .update(`${senderSessionId}\u0000${recipientSessionId}\u0000${body}\u0000${minute}`, "utf8")
    .digest("base64url");
}
