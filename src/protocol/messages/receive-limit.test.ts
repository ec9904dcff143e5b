import { describe, expect, test } from "vitest";
import {
  DEFAULT_RECEIVE_LIMIT,
  isReceiveLimit,
  MAX_RECEIVE_LIMIT,
  MIN_RECEIVE_LIMIT,
  receiveLimitError,
} from "../index.ts";

describe("the receive limit", () => {
  test("integers from 1 to 200 are accepted, the default among them; nothing else is", () => {
    expect([MIN_RECEIVE_LIMIT, DEFAULT_RECEIVE_LIMIT, MAX_RECEIVE_LIMIT]).toEqual([1, 50, 200]);
    for (const ok of [1, 2, 50, 199, 200]) expect(isReceiveLimit(ok)).toBe(true);
    for (const bad of [0, -1, 201, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1e21]) {
      expect(isReceiveLimit(bad)).toBe(false);
    }
  });

  test("its refusal names the field and the range", () => {
    expect(receiveLimitError()).toMatchObject({
      code: "invalid_input",
      details: { field: "limit", reason: "out_of_range", min: "1", max: "200" },
    });
  });
});
