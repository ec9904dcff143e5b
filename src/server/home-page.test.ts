import { describe, expect, test } from "vitest";
import { prefersJson } from "./home-page.ts";

describe("prefersJson", () => {
  test("JSON only when Accept ranks application/json at least as high as every text range", () => {
    expect(prefersJson("application/json")).toBe(true);
    expect(prefersJson("application/json, text/plain, */*")).toBe(true);
    expect(prefersJson("text/plain;q=0.5, application/json")).toBe(true);
    expect(prefersJson(undefined)).toBe(false);
    expect(prefersJson("*/*")).toBe(false);
    expect(prefersJson("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(
      false,
    );
    expect(prefersJson("application/json;q=0.2, text/*")).toBe(false);
    expect(prefersJson("application/json;q=0")).toBe(false);
  });

  test("unreadable qualities count as 0 and a huge header is ignored", () => {
    expect(prefersJson("application/json;q=abc")).toBe(false);
    expect(prefersJson("application/json;q=1.5")).toBe(false);
    expect(prefersJson(`application/json, ${"x".repeat(2000)}`)).toBe(false);
    expect(prefersJson(";;;,,,=")).toBe(false);
  });
});
