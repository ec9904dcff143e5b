import { createHash, timingSafeEqual } from "node:crypto";
import type { JoinSecret } from "./join-secret.ts";

/** Prefix naming the digest algorithm, so a stored digest can be migrated later. */
export const JOIN_SECRET_DIGEST_PREFIX = "sha256:";

/**
 * The digest a backend stores instead of a join secret (docs/spec/protocol.md §9, §11: "store only
 * a digest"): `sha256:` + lowercase hex of SHA-256 over the UTF-8 of the full secret
 * `brg1.<team_ref>.<secret>` (binding the digest to its team). A high-entropy secret needs no salt
 * or slow hash.
 *
 * @example
 * digestJoinSecret(parsed); // "sha256:3b1f…" (71 characters)
 */
export function digestJoinSecret(secret: JoinSecret): string {
  return (
    JOIN_SECRET_DIGEST_PREFIX + createHash("sha256").update(secret.reveal(), "utf8").digest("hex")
  );
}

/**
 * True when `secret` matches the stored `digest`, compared in constant time.
 *
 * @example
 * verifyJoinSecretDigest(parsed, storedDigest);
 */
export function verifyJoinSecretDigest(secret: JoinSecret, digest: string): boolean {
  const expected = Buffer.from(digestJoinSecret(secret), "utf8");
  const actual = Buffer.from(digest, "utf8");
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
