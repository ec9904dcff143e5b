import { describe, expect, test } from "vitest";
import { pooledRandomBytes, randomIdGenerator } from "./service-deps.ts";

describe("pooledRandomBytes", () => {
  test("hands out each byte once: views never overlap and survive refills unchanged", () => {
    const random = pooledRandomBytes(32);
    const first = random(10);
    const copy = Uint8Array.from(first);
    const second = random(10);
    expect(second.buffer === first.buffer && second.byteOffset < first.byteOffset + 10).toBe(false);
    for (let i = 0; i < 20; i += 1) random(10); // several refills
    expect([...first]).toEqual([...copy]);
    expect(random(32)).toHaveLength(32);
    expect(random(100)).toHaveLength(100); // larger than the pool: its own draw
  });

  test("ids from the pool keep the <kind>-<20 hex> shape and differ", () => {
    const newId = randomIdGenerator(pooledRandomBytes());
    const ids = new Set(Array.from({ length: 1000 }, () => newId("m")));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^m-[0-9a-f]{20}$/);
  });
});
