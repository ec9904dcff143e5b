import { describe, expect, test } from "vitest";
import { PrincipalCache } from "./principal-cache.ts";

describe("PrincipalCache", () => {
  test("answers remembered digests, misses others", () => {
    const cache = new PrincipalCache({ maxEntries: 4 });
    cache.remember("d1", "p-1");
    expect(cache.lookup("d1")).toBe("p-1");
    expect(cache.lookup("d2")).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  test("evicts the least recently used entry beyond its bound", () => {
    const cache = new PrincipalCache({ maxEntries: 2 });
    cache.remember("d1", "p-1");
    cache.remember("d2", "p-2");
    expect(cache.lookup("d1")).toBe("p-1"); // d2 is now the least recently used
    cache.remember("d3", "p-3");
    expect(cache.size).toBe(2);
    expect(cache.lookup("d2")).toBeUndefined();
    expect(cache.lookup("d1")).toBe("p-1");
    expect(cache.lookup("d3")).toBe("p-3");
  });

  test("forget drops an entry", () => {
    const cache = new PrincipalCache();
    cache.remember("d1", "p-1");
    cache.forget("d1");
    expect(cache.lookup("d1")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test("on a shared store an answer stands for maxAgeMs only, then the store is asked again", () => {
    let now = 1000;
    const cache = new PrincipalCache({ maxAgeMs: 2000, now: () => now });
    cache.remember("d1", "p-1");
    now += 2000;
    expect(cache.lookup("d1")).toBe("p-1");
    now += 1;
    expect(cache.lookup("d1")).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.remember("d1", "p-1");
    expect(cache.lookup("d1")).toBe("p-1");
  });
});
