import { describe, expect, test } from "vitest";
import type { WatchFeedTarget } from "../../service/index.ts";
import { INBOX_READ_CHUNK_SESSIONS, type InboxEntry, InboxPollFeed } from "./inbox-poll-feed.ts";

/** A reader whose reads the test releases by hand, recording which sessions each one asked for. */
function heldReader(rows: InboxEntry[]) {
  const reads: string[][] = [];
  const release: (() => void)[] = [];
  const read = (sessions: readonly string[]) => {
    reads.push([...sessions]);
    return new Promise<InboxEntry[]>((resolve) => {
      release.push(() => resolve(rows.filter((r) => sessions.includes(r.recipient_session_id))));
    });
  };
  const releaseAll = (): void => {
    for (const r of release.splice(0)) r();
  };
  return { read, reads, releaseAll };
}

function target(watched: string[]) {
  const delivered: [string, string[]][] = [];
  const t: WatchFeedTarget = {
    watchedSessions: () => watched,
    deliver: (recipient, ids) => delivered.push([recipient, [...ids]]),
    revoke: () => {},
    watchedMemberships: () => ({ memberships: [], asOf: 0 }),
  };
  return { t, delivered };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("InboxPollFeed: wakes for announced sessions", () => {
  test("only sessions watched here are read; a wake naming none of them costs no query", async () => {
    const reader = heldReader([{ recipient_session_id: "s-1", message_id: "m-1" }]);
    const feed = new InboxPollFeed(reader.read);
    const { t, delivered } = target(["s-1", "s-2"]);
    feed.attach(t);
    await feed.wake(["s-elsewhere"]);
    expect(reader.reads).toEqual([]);
    const done = feed.wake(["s-1", "s-elsewhere"]);
    await tick();
    reader.releaseAll();
    await done;
    expect(reader.reads).toEqual([["s-1"]]);
    expect(delivered).toEqual([["s-1", ["m-1"]]]);
  });

  test("wakes arriving during a read become one more read, with all of their sessions", async () => {
    const reader = heldReader([]);
    const feed = new InboxPollFeed(reader.read);
    feed.attach(target(["s-1", "s-2", "s-3"]).t);
    void feed.wake(["s-1"]);
    await tick();
    void feed.wake(["s-2"]);
    const last = feed.wake(["s-3", "s-2"]);
    reader.releaseAll();
    await tick();
    reader.releaseAll();
    await last;
    expect(reader.reads).toEqual([["s-1"], ["s-2", "s-3"]]);
  });

  test("a poll reads every watched session, in chunks a query can hold whole", async () => {
    const watched = Array.from({ length: INBOX_READ_CHUNK_SESSIONS + 7 }, (_, i) => `s-${i}`);
    const reads: number[] = [];
    const feed = new InboxPollFeed(async (sessions) => {
      reads.push(sessions.length);
      return [];
    });
    feed.attach(target(watched).t);
    await feed.poll();
    expect(reads).toEqual([INBOX_READ_CHUNK_SESSIONS, 7]);
    expect(INBOX_READ_CHUNK_SESSIONS * 60).toBeLessThanOrEqual(10_000);
  });
});
