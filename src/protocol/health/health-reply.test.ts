import { describe, expect, test } from "vitest";
import { isStoreHealthReason, STORE_HEALTH_REASONS } from "./health-reply.ts";

describe("isStoreHealthReason", () => {
  test("accepts exactly the listed reasons, whatever else a reply holds", () => {
    for (const reason of STORE_HEALTH_REASONS) expect(isStoreHealthReason(reason)).toBe(true);
    for (const other of [
      "store_down",
      "STORE_TIMEOUT",
      " store_timeout",
      "store_timeout\n",
      "",
      null,
      undefined,
      1,
      ["store_timeout"],
      { reason: "store_timeout" },
    ]) {
      expect(isStoreHealthReason(other)).toBe(false);
    }
  });
});
