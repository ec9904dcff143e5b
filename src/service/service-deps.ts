import { randomBytes as nodeRandomBytes } from "node:crypto";

/** The kinds of ids the service mints; each id is `<kind>-<20 lowercase hex>` (1–64 bytes of `[A-Za-z0-9_-]`). */
export const ID_KINDS = ["p", "t", "s", "m", "i", "c"] as const;
/** One of {@link ID_KINDS}: principal, team, session, message, invitation, blob content. */
export type IdKind = (typeof ID_KINDS)[number];

/**
 * What the service takes from the outside world besides its {@link Store}: a clock in integer
 * milliseconds since the Unix epoch, an id minter, and a source of cryptographic random bytes
 * (tokens and join secrets).
 *
 * @example
 * const deps: ServiceDeps = { now: () => Date.now(), newId: randomIdGenerator(randomBytes), randomBytes };
 */
export interface ServiceDeps {
  now: () => number;
  newId: (kind: IdKind) => string;
  randomBytes: (length: number) => Uint8Array;
}

/**
 * An id minter over `random`: `<kind>-` followed by 10 random bytes in lowercase hex (22 bytes in
 * all), e.g. `s-3f09a1c27be4d5e60a1b`.
 *
 * @example
 * randomIdGenerator(randomBytes)("m"); // "m-…"
 */
export function randomIdGenerator(
  random: (length: number) => Uint8Array,
): (kind: IdKind) => string {
  return (kind) => {
    const bytes = random(10);
    return `${kind}-${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
  };
}

/** Bytes drawn from the CSPRNG at once by {@link pooledRandomBytes}. */
export const RANDOM_POOL_BYTES = 4096;

/**
 * `node:crypto` random bytes served from a pool refilled {@link RANDOM_POOL_BYTES} at a time, so
 * minting an id costs a slice instead of a CSPRNG call. Every byte is handed out once; each refill
 * is a fresh buffer, so a returned view is never overwritten. Requests larger than the pool get
 * their own draw.
 *
 * @example
 * const random = pooledRandomBytes();
 * random(32).length === 32;
 */
export function pooledRandomBytes(
  poolBytes: number = RANDOM_POOL_BYTES,
): (length: number) => Uint8Array {
  let pool = new Uint8Array(0);
  let offset = 0;
  return (length) => {
    if (length > poolBytes) return nodeRandomBytes(length);
    if (offset + length > pool.length) {
      pool = nodeRandomBytes(poolBytes);
      offset = 0;
    }
    const out = pool.subarray(offset, offset + length);
    offset += length;
    return out;
  };
}

/**
 * The production dependencies: wall clock, `node:crypto` random bytes (pooled, see
 * {@link pooledRandomBytes}).
 *
 * @example
 * new BrigadeService(store, systemDeps());
 */
export function systemDeps(): ServiceDeps {
  const randomBytes = pooledRandomBytes();
  return { now: () => Date.now(), newId: randomIdGenerator(randomBytes), randomBytes };
}
