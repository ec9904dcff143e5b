import { afterEach, describe, expect, test, vi } from "vitest";
import { cleanupsAfterEach } from "../../../test/support/cleanups.ts";
import { twoPostgresProcesses } from "../../../test/support/postgres-two-processes.ts";
import { until } from "../../../test/support/until.ts";
import { watchedInbox } from "../../../test/support/watched-inbox.ts";
import type { WatchFeedTarget } from "../../service/index.ts";
import { InboxPollFeed } from "./inbox-poll-feed.ts";
import { MembershipSweep } from "./membership-sweep.ts";
import { PostgresWatchBroadcast } from "./postgres-watch-broadcast.ts";
import { PostgresWatchFeed } from "./postgres-watch-feed.ts";

const cleanups = cleanupsAfterEach();

/**
 * Two "processes" on one database: each its own store (pool, LISTEN connection) and service.
 * `here` watches B's session; `there` sends as A. The safety poll is slowed down to an hour
 * unless `pollMs` says otherwise, so a delivery here can only have come from a notification.
 */
async function twoProcesses(pollMs = 3_600_000) {
  const processes = await twoPostgresProcesses(cleanups, "feed", { pollMs }, { pollMs });
  const { service: here, feed: hereFeed } = processes.here;
  const { service: there, feed: thereFeed } = processes.there;
  await until(
    "both LISTEN connections",
    () => hereFeed.broadcast.listening && thereFeed.broadcast.listening,
    5000,
  );
  return { here, there, hereFeed, thereFeed, ...(await watchedInbox(here, there)) };
}

describe("PostgresWatchFeed: watches across processes on one database", () => {
  test("a send committed by another process reaches a watch here through a notification", async () => {
    const w = await twoProcesses();
    const m1 = await w.send("first");
    await until("the first message", () => w.heard.includes(m1), 5000);
    const m2 = await w.send("second");
    await until("the second message", () => w.heard.includes(m2), 5000);
    expect(new Set(w.heard)).toEqual(new Set([m1, m2]));
  });

  test("without any notification, the safety poll finds the message", async () => {
    const w = await twoProcesses(100);
    // Silence the sender's announcements: the message is committed, nobody is told.
    await w.thereFeed.broadcast.close();
    const m1 = await w.send("unannounced");
    await until("the polled message", () => w.heard.includes(m1), 5000);
  });

  test("a membership ended by another process ends the watch here", async () => {
    const w = await twoProcesses();
    await w.there.leaveTeam(w.b, w.T);
    await until("the revocation", () => w.revoked(), 5000);
    expect(w.here.watchSubscriptionCount).toBe(0);
  });

  test("a message acknowledged before the read is not delivered", async () => {
    const w = await twoProcesses();
    await w.thereFeed.broadcast.close();
    const m1 = await w.send("acked at once");
    await w.there.ackMessages(w.b, w.T, w.inbox, { message_ids: [m1] });
    await w.hereFeed.reader.poll();
    expect(w.heard).toEqual([]);
  });
});

describe("PostgresWatchFeed: the safety poll", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("one timer reads every watched inbox and sweeps the memberships on each tick; stop ends it", async () => {
    // Only the interval is faked: the LISTEN connection (to a closed loopback port) fails and
    // retries on real time, and is closed by stop.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let inboxReads = 0;
    let sweeps = 0;
    const reader = new InboxPollFeed(async () => {
      inboxReads += 1;
      return [];
    });
    const memberships = new MembershipSweep(async () => {
      sweeps += 1;
      return [];
    });
    const broadcast = new PostgresWatchBroadcast({
      connectionString: "postgres://brigade@127.0.0.1:1/brigade",
    });
    const feed = new PostgresWatchFeed(reader, broadcast, 1000, { memberships });
    const target: WatchFeedTarget = {
      watchedSessions: () => ["s-1"],
      deliver: () => {},
      revoke: () => {},
      watchedMemberships: () => ({
        memberships: [{ principalRef: "p-1", teamRef: "t-1" }],
        asOf: 0,
      }),
    };
    feed.attach(target);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect([inboxReads, sweeps]).toEqual([2, 2]);
    await feed.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect([inboxReads, sweeps]).toEqual([2, 2]);
  });
});
