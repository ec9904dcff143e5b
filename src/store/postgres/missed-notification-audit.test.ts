import { describe, expect, test } from "vitest";
import {
  MISSED_NOTIFICATION_GRACE_MS,
  MissedNotificationAudit,
} from "./missed-notification-audit.ts";

const rows = (session: string, ...ids: string[]) =>
  ids.map((message_id) => ({ recipient_session_id: session, message_id }));

describe("MissedNotificationAudit", () => {
  test("the first read only learns the inbox; a later id nobody announced is missed after the grace", () => {
    let now = 0;
    const audit = new MissedNotificationAudit(() => now);
    audit.read(["s-1"], rows("s-1", "m-backlog"));
    now = 2000;
    expect(audit.read(["s-1"], rows("s-1", "m-backlog", "m-1"))).toBe(1);
    expect(audit.takeMissed()).toEqual({ deliveries: 0, sessions: 0 });
    now += MISSED_NOTIFICATION_GRACE_MS;
    expect(audit.takeMissed()).toEqual({ deliveries: 1, sessions: 1 });
    expect(audit.takeMissed()).toEqual({ deliveries: 0, sessions: 0 });
  });

  test("an id announced before the read, a late announcement, a local send or a resync is not missed", () => {
    let now = 0;
    const audit = new MissedNotificationAudit(() => now);
    audit.read(["s-1", "s-2"], []);
    now = 10;
    audit.heard(["s-1"]);
    audit.read(["s-1"], rows("s-1", "m-1"));
    now = 20;
    audit.read(["s-2"], rows("s-2", "m-2"));
    now = 30;
    audit.heard(["s-2"]); // slower than the poll
    now = 40;
    audit.heard(["s-1"]); // this process sent it
    audit.read(["s-1"], rows("s-1", "m-1", "m-3"));
    now = 50;
    audit.resync();
    audit.read(["s-1", "s-2"], [...rows("s-1", "m-1", "m-3", "m-4"), ...rows("s-2", "m-2")]);
    now += 10 * MISSED_NOTIFICATION_GRACE_MS;
    expect(audit.takeMissed()).toEqual({ deliveries: 0, sessions: 0 });
    expect(audit.found).toBe(4);
  });

  test("acknowledged ids leave what it remembers; a session not read for a minute is forgotten", () => {
    let now = 0;
    const audit = new MissedNotificationAudit(() => now);
    audit.read(["s-1"], rows("s-1", "m-1"));
    audit.read(["s-1"], []);
    now = 61_000;
    audit.takeMissed();
    // Forgotten: the next read learns the inbox again rather than judging it.
    now = 62_000;
    audit.read(["s-1"], rows("s-1", "m-1", "m-2"));
    now += MISSED_NOTIFICATION_GRACE_MS;
    expect(audit.takeMissed()).toEqual({ deliveries: 0, sessions: 0 });
  });
});
