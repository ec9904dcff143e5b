import { describe, expect, test } from "vitest";
import { until } from "./support/until.ts";

describe("until (test/support/until.ts)", () => {
  test("resolves to the first answer that is not false, undefined or null", async () => {
    const answers = [false, undefined, null, 0, 1];
    expect(await until("an answer", () => answers.shift())).toBe(0);
    expect(answers).toEqual([1]);
  });

  test("awaits an asynchronous check", async () => {
    let calls = 0;
    expect(await until("the third call", async () => ++calls === 3)).toBe(true);
    expect(calls).toBe(3);
  });

  test("rejects naming what it waited for once the time is up", async () => {
    let calls = 0;
    const never = () => {
      calls++;
      return false;
    };
    await expect(until("nothing", never, 30)).rejects.toThrow(/^timed out waiting for nothing$/);
    expect(calls).toBeGreaterThan(1);
  });

  test("a check that throws rejects at once with its error", async () => {
    let calls = 0;
    const broken = () => {
      calls++;
      throw new Error("broken check");
    };
    await expect(until("never", broken)).rejects.toThrow("broken check");
    expect(calls).toBe(1);
  });
});
