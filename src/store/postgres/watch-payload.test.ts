import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  encodeAnnouncement,
  MAX_ANNOUNCE_ITEMS_CHARS,
  membershipEndedItem,
  messagesItem,
  parseAnnouncement,
} from "./watch-payload.ts";

describe("watch announcement payloads", () => {
  test("round trip of messages and membership items", () => {
    const payload = encodeAnnouncement("ab12", [
      messagesItem("s-1"),
      membershipEndedItem("p-1", "t-1"),
      messagesItem("s-2"),
    ]);
    expect(parseAnnouncement(payload)).toEqual({
      ok: true,
      value: {
        origin: "ab12",
        sessionIds: ["s-1", "s-2"],
        memberships: [{ principalRef: "p-1", teamRef: "t-1" }],
      },
    });
  });

  test("foreign text is refused or its bad items skipped, never thrown", () => {
    for (const bad of [undefined, 7, "", "no-bar", "UPPER|m:s-1", "|m:s-1", "x".repeat(8001)]) {
      expect(parseAnnouncement(bad)).toEqual({ ok: false, reason: "malformed" });
    }
    const parsed = parseAnnouncement("a1|m:s 1,m:,r:p-1,r:p/t/x,q:s-1,m:s-ok,r:p-2/t-2");
    expect(parsed).toEqual({
      ok: true,
      value: {
        origin: "a1",
        sessionIds: ["s-ok"],
        memberships: [{ principalRef: "p-2", teamRef: "t-2" }],
      },
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(() => parseAnnouncement(text)).not.toThrow();
      }),
    );
  });

  test("a full batch of 22-character session ids stays under PostgreSQL's 8000-byte payload", () => {
    const items: string[] = [];
    let chars = 0;
    for (;;) {
      const item = messagesItem(`s-${"f".repeat(20)}`);
      if (chars + item.length + 1 > MAX_ANNOUNCE_ITEMS_CHARS) break;
      items.push(item);
      chars += item.length + 1;
    }
    expect(Buffer.byteLength(encodeAnnouncement("f".repeat(32), items))).toBeLessThan(8000);
  });
});
