import { createHash } from "node:crypto";

/**
 * Hex SHA-256 of the UTF-8 text: the only form in which tokens and join secrets are stored.
 *
 * @example
 * sha256Hex("abc").length === 64;
 */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Unpadded base64url of the bytes (43 characters for 32 bytes): the shape of bearer tokens and of
 * the secret half of a join secret.
 *
 * @example
 * base64url(new Uint8Array(32)).length === 43;
 */
export function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}
