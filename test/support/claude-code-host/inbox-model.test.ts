import { describe, expect, test } from "vitest";
import { InboxModel } from "./inbox-model.ts";

function model(start: "busy" | "idle" = "idle", autoTurn = false) {
  let now = 0;
  const statuses: string[] = [];
  const m = new InboxModel({
    now: () => now,
    status: start,
    autoTurn,
    onStatus: (s) => statuses.push(s),
  });
  return {
    m,
    statuses,
    at: (ms: number) => {
      now = ms;
    },
  };
}

describe("InboxModel: Claude Code's per-sender rules (docs/spec/claude-code.md §0 item 4)", () => {
  test("bucket: 30 posts at once pass, the 31st is rate-limited; one more token after 2 s", () => {
    const { m, at } = model();
    for (let i = 0; i < 30; i += 1) expect(m.admit("s", `m${i}`)).toBe("delivered");
    expect(m.admit("s", "m30")).toBe("rate_limited");
    at(1_999);
    expect(m.admit("s", "m31")).toBe("rate_limited");
    at(2_000);
    expect(m.admit("s", "m32")).toBe("delivered");
    expect(m.admit("s", "m33")).toBe("rate_limited");
    expect(m.socketTexts()).toHaveLength(31);
  });

  test("bucket refills to 30 and no further; senders are independent", () => {
    const { m, at } = model();
    for (let i = 0; i < 30; i += 1) m.admit("a", `m${i}`);
    expect(m.admit("b", "first of b")).toBe("delivered");
    at(600_000);
    expect(m.tokens("a")).toBe(30);
    for (let i = 0; i < 30; i += 1) expect(m.admit("a", `n${i}`)).toBe("delivered");
    expect(m.admit("a", "n30")).toBe("rate_limited");
  });

  test("duplicate: the same bytes as the previous post within 30 s are dropped, at 30 s pass", () => {
    const { m, at } = model();
    expect(m.admit("s", "same")).toBe("delivered");
    at(29_999);
    expect(m.admit("s", "same")).toBe("duplicate");
    // the dropped duplicate restarted the window (strict reading)
    at(59_998);
    expect(m.admit("s", "same")).toBe("duplicate");
    at(89_998);
    expect(m.admit("s", "same")).toBe("delivered");
  });

  test("duplicate: only the previous post counts (A B A passes); another sender's A passes", () => {
    const { m } = model();
    expect(m.admit("s", "A")).toBe("delivered");
    expect(m.admit("s", "B")).toBe("delivered");
    expect(m.admit("s", "A")).toBe("delivered");
    expect(m.admit("t", "A")).toBe("delivered");
  });

  test("a dropped duplicate takes no token", () => {
    const { m } = model();
    m.admit("s", "x");
    for (let i = 0; i < 10; i += 1) m.admit("s", "x");
    expect(m.tokens("s")).toBe(29);
  });

  test("busy: 50 posts queue, the rest are dropped; a turn end reads them, the next one idles", () => {
    const { m, at, statuses } = model("busy");
    let now = 0;
    for (let i = 0; i < 60; i += 1) {
      now += 2_000; // never rate-limited
      at(now);
      expect(m.admit("s", `q${i}`)).toBe(i < 50 ? "queued" : "queue_full");
    }
    expect(m.socketTexts()).toEqual([]);
    expect(m.endTurn()).toBe(50);
    expect(m.status).toBe("busy");
    expect(m.socketTexts()).toEqual(Array.from({ length: 50 }, (_, i) => `q${i}`));
    expect(m.endTurn()).toBe(0);
    expect(m.status).toBe("idle");
    expect(statuses).toEqual(["idle"]);
  });

  test("autoTurn: a post to an idle session is read at once and starts a turn", () => {
    const { m, statuses } = model("idle", true);
    expect(m.admit("s", "one")).toBe("delivered");
    expect(m.status).toBe("busy");
    expect(m.admit("s", "two")).toBe("queued");
    expect(m.settle()).toBe(1);
    expect(m.socketTexts()).toEqual(["one", "two"]);
    expect(statuses).toEqual(["busy", "idle"]);
  });
});
