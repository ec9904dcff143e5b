import { describe, expect, test } from "vitest";
import type { SessionRecord } from "../../protocol/index.ts";
import { NOT_LIVE_REASONS } from "../../protocol/sessions/live-delivery.ts";
import { NOT_LIVE_SENTENCES, notLiveMark, sessionLane } from "./live-delivery-text.ts";

const record = (live: Partial<SessionRecord>): SessionRecord =>
  ({
    session_id: "s-1",
    session_name: "api",
    state: "online",
    activity: "idle",
    inbound: "accept",
    ...live,
  }) as SessionRecord;

describe("the lane of a session, from what its harness told the server", () => {
  test("yes is push, person_review held, every other not-live reason pull, silence unknown", () => {
    expect(sessionLane(record({ live_delivery: "yes" }))).toBe("push");
    expect(
      sessionLane(record({ live_delivery: "no", live_delivery_reason: "person_review" })),
    ).toBe("held");
    for (const reason of NOT_LIVE_REASONS.filter((r) => r !== "person_review")) {
      expect(sessionLane(record({ live_delivery: "no", live_delivery_reason: reason }))).toBe(
        "pull",
      );
    }
    expect(sessionLane(record({}))).toBe("");
  });

  test("the new reasons have a sentence for senders and a mark", () => {
    for (const reason of NOT_LIVE_REASONS) expect(NOT_LIVE_SENTENCES[reason]).not.toBe("");
    expect(notLiveMark(record({ live_delivery: "no", live_delivery_reason: "pull_lane" }))).toBe(
      "not live: pull_lane",
    );
  });
});
