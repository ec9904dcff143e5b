import { createHash } from "node:crypto";

/**
 * SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex digits. The edge implementation of the
 * inbound pipeline's injected `hashBody` and of the `<stem>` rule.
 *
 * @example sha256Hex("") === "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
 */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
