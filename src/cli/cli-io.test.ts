import { describe, expect, test } from "vitest";
import { CliUsageError, readAll, readUpTo } from "./cli-io.ts";

/** A stdin yielding the given chunks and counting how many were pulled. */
function chunks(...sizes: number[]): { stdin: AsyncIterable<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  return {
    stdin: (async function* () {
      for (const [i, size] of sizes.entries()) {
        pulled += 1;
        yield new Uint8Array(size).fill(i + 1);
      }
    })(),
    pulled: () => pulled,
  };
}

describe("readUpTo", () => {
  test("reads to EOF below the cap, bytes in order", async () => {
    const got = await readUpTo(chunks(2, 1).stdin, 10);
    expect([...got]).toEqual([1, 1, 2]);
  });

  test("stops at the chunk that reaches the cap (that chunk kept whole)", async () => {
    const input = chunks(3, 4, 5);
    const got = await readUpTo(input.stdin, 6);
    expect(got.byteLength).toBe(7);
    expect(input.pulled()).toBe(2);
  });
});

describe("readAll", () => {
  test("exactly the limit is accepted; one byte more is a usage error", async () => {
    expect((await readAll(chunks(2, 2).stdin, 4)).byteLength).toBe(4);
    await expect(readAll(chunks(2, 3).stdin, 4)).rejects.toBeInstanceOf(CliUsageError);
    await expect(readAll(chunks(5).stdin, 4)).rejects.toThrow("input is larger than 4 bytes");
  });

  test("empty stdin reads as no bytes", async () => {
    expect((await readAll(chunks().stdin, 4)).byteLength).toBe(0);
  });
});
