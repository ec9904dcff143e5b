import { describe, expect, test } from "vitest";
import { type InboxEntry, InboxPollFeed } from "./inbox-poll-feed.ts";

function target(watched: string[]) {
  const delivered: Array<[string, readonly string[]]> = [];
  return {
    delivered,
    watchedSessions: () => watched,
    deliver: (recipient: string, ids: readonly string[]) => {
      delivered.push([recipient, ids]);
    },
    revoke: () => {},
    watchedMemberships: () => ({ memberships: [], asOf: 0 }),
  };
}

describe("InboxPollFeed (the PostgreSQL store's watch safety poll)", () => {
  test("one read for every watched session, ids handed over per recipient in inbox order", async () => {
    const reads: (readonly string[])[] = [];
    const rows: InboxEntry[] = [
      { recipient_session_id: "s-1", message_id: "m-1" },
      { recipient_session_id: "s-2", message_id: "m-2" },
      { recipient_session_id: "s-1", message_id: "m-3" },
    ];
    const feed = new InboxPollFeed(async (sessions) => {
      reads.push(sessions);
      return rows;
    });
    const t = target(["s-1", "s-2"]);
    feed.attach(t);
    await feed.poll();
    expect(reads).toEqual([["s-1", "s-2"]]);
    expect(t.delivered).toEqual([
      ["s-1", ["m-1", "m-3"]],
      ["s-2", ["m-2"]],
    ]);
  });

  test("nothing watched: no read; a failed read delivers nothing and the next poll reads again", async () => {
    let reads = 0;
    let fail = true;
    const feed = new InboxPollFeed(async () => {
      reads += 1;
      if (fail) throw new Error("database away");
      return [{ recipient_session_id: "s-1", message_id: "m-1" }];
    });
    const watched: string[] = [];
    const t = target(watched);
    feed.attach(t);
    await feed.poll();
    expect(reads).toBe(0);
    watched.push("s-1");
    await feed.poll();
    expect(t.delivered).toEqual([]);
    fail = false;
    await feed.poll();
    expect(reads).toBe(2);
    expect(t.delivered).toEqual([["s-1", ["m-1"]]]);
  });

  test("one read at a time: polls during a read become one more pass after it", async () => {
    let reads = 0;
    const releases: (() => void)[] = [];
    const feed = new InboxPollFeed(async () => {
      reads += 1;
      await new Promise<void>((resolve) => {
        releases.push(resolve);
      });
      return [];
    });
    feed.attach(target(["s-1"]));
    const first = feed.poll();
    // A resync asked for mid-read must still happen: what that read missed may be newer.
    const second = feed.poll();
    const third = feed.poll();
    expect(reads).toBe(1);
    releases.shift()?.();
    while (reads < 2) await new Promise((resolve) => setImmediate(resolve));
    releases.shift()?.();
    await Promise.all([first, second, third]);
    expect(reads).toBe(2);
  });
});
