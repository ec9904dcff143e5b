/** How many hop tokens a CC wire frame carries at most; older tokens are dropped first. */
export const PEER_HOP_CHAIN_CARRY_WINDOW = 32;

const HOP_TOKEN = /^[0-9a-f]{24}$/;

/**
 * True iff `value` is a hop token: exactly 24 lower-case hex characters.
 * Example: `isHopToken("0123456789abcdef01234567")` is `true`; upper-case hex is `false`.
 */
export function isHopToken(value: unknown): value is string {
  return typeof value === "string" && HOP_TOKEN.test(value);
}

/**
 * The carry window: a new array holding the last {@link PEER_HOP_CHAIN_CARRY_WINDOW} (32) elements
 * when `chain` is longer, else a copy. No validation; never mutates `chain`.
 * Example: `clampHopChain(t1…t40)` is `t9…t40`.
 */
export function clampHopChain(chain: readonly string[]): string[] {
  return chain.length > PEER_HOP_CHAIN_CARRY_WINDOW
    ? chain.slice(chain.length - PEER_HOP_CHAIN_CARRY_WINDOW)
    : chain.slice();
}
