import { randomBytes as nodeRandomBytes } from "node:crypto";

/** The kinds of ids the service mints; each id is `<kind>-<20 lowercase hex>` (1–64 bytes of `[A-Za-z0-9_-]`). */
export const ID_KINDS = ["p", "t", "s", "m"] as const;
/** One of {@link ID_KINDS}: principal, team, session, message. */
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
  return (kind) => `${kind}-${Buffer.from(random(10)).toString("hex")}`;
}

/**
 * The production dependencies: wall clock, `node:crypto` random bytes.
 *
 * @example
 * new BrigadeService(store, systemDeps());
 */
export function systemDeps(): ServiceDeps {
  const randomBytes = (length: number): Uint8Array => nodeRandomBytes(length);
  return { now: () => Date.now(), newId: randomIdGenerator(randomBytes), randomBytes };
}
