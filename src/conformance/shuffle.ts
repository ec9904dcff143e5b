/**
 * A splitmix64 generator over unsigned 64-bit integers (BigInt arithmetic, wrapping mod 2^64).
 * Deterministic: the same seed always yields the same sequence, on every platform.
 *
 * @example const next = splitmix64(1n); next(); // 0x910a2dec89025cc1n
 */
export function splitmix64(seed: bigint): () => bigint {
  const mask = (1n << 64n) - 1n;
  let state = BigInt.asUintN(64, seed);
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    return z ^ (z >> 31n);
  };
}

/**
 * A Fisher–Yates shuffle driven by {@link splitmix64}: for `i` from the last index down to 1,
 * swap `i` with `j = next() mod (i + 1)`. Returns a new array; the input is left untouched.
 *
 * @example shuffleWithSeed(["C-01", "C-02", "C-03"], 42n) // same order on every run
 */
export function shuffleWithSeed<T>(items: readonly T[], seed: bigint): T[] {
  const out = [...items];
  const next = splitmix64(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Number(next() % BigInt(i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

/**
 * Parses a `--shuffle` seed: a decimal or `0x` hexadecimal unsigned 64-bit integer.
 * Never throws; returns `undefined` for anything else.
 *
 * @example parseSeed("0x2a") // 42n
 */
export function parseSeed(text: string): bigint | undefined {
  if (!/^(?:[0-9]{1,20}|0x[0-9a-fA-F]{1,16})$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < 1n << 64n ? value : undefined;
}
