import { describe, expect, test } from "vitest";
import { RedeliverySchedule, SET_ASIDE_REFETCH_MS } from "./redelivery-schedule.ts";

describe("RedeliverySchedule", () => {
  test("a rate-limited or identical-body deferral is fetched again after the 60 s window", () => {
    for (const outcome of ["rate_limited", "deferred_identical"]) {
      const s = new RedeliverySchedule(100);
      s.afterOffer({ outcome }, 1_000);
      expect(s.takeDue(1_000 + SET_ASIDE_REFETCH_MS - 1, 0)).toBe(false);
      expect(s.takeDue(1_000 + SET_ASIDE_REFETCH_MS, 0)).toBe(true);
      expect(s.plannedAt).toBeUndefined();
    }
  });

  test("an eviction from a full queue is fetched at once; other offers plan nothing", () => {
    const s = new RedeliverySchedule(100);
    for (const outcome of ["queued", "duplicate", "rejected", "refused", "held"]) {
      s.afterOffer({ outcome }, 0);
    }
    expect(s.plannedAt).toBeUndefined();
    s.afterOffer({ outcome: "queued", evicted: "m-1" }, 500);
    expect(s.plannedAt).toBe(500);
  });

  test("a due fetch waits for an empty queue", () => {
    const s = new RedeliverySchedule(100);
    s.at(0);
    expect(s.takeDue(10, 3)).toBe(false);
    expect(s.plannedAt).toBe(0);
    expect(s.takeDue(20, 0)).toBe(true);
  });

  test("one fetch at a time: a plan made during a fetch waits for fetchDone", () => {
    const s = new RedeliverySchedule(100);
    s.at(0);
    expect(s.takeDue(0, 0)).toBe(true);
    expect(s.fetching).toBe(true);
    s.at(5);
    expect(s.takeDue(10, 0)).toBe(false);
    s.fetchDone();
    expect(s.takeDue(10, 0)).toBe(true);
    expect(s.takeDue(10, 0)).toBe(false);
  });

  test("the earliest plan wins: a failed ack brings a set-aside fetch forward", () => {
    const s = new RedeliverySchedule(100);
    s.afterOffer({ outcome: "rate_limited" }, 0);
    s.afterAckFailed(1_000);
    expect(s.plannedAt).toBe(1_100);
    s.afterOffer({ outcome: "deferred_identical" }, 2_000);
    expect(s.plannedAt).toBe(1_100);
  });

  test("a failed post plans a fetch only when none is planned", () => {
    const s = new RedeliverySchedule(100);
    s.afterPostFailed(0);
    expect(s.plannedAt).toBe(100);
    s.afterPostFailed(50);
    expect(s.plannedAt).toBe(100);
    const later = new RedeliverySchedule(100);
    later.afterOffer({ outcome: "rate_limited" }, 0);
    later.afterPostFailed(0);
    expect(later.plannedAt).toBe(SET_ASIDE_REFETCH_MS);
  });
});
