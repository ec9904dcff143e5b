import { afterEach, describe, expect, test } from "vitest";
import { freshPostgresSchema } from "../../../test/support/postgres-schema.ts";
import { BrigadeService } from "../../service/index.ts";
import { openPostgresStore } from "./postgres-store.ts";
import { createPushWatchFeed, type PostgresWatchFeed } from "./postgres-watch-feed.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const registration = (name: string) => ({
  harness: "test",
  harness_version: "1",
  session_name: name,
  activity: "busy" as const,
  inbound: "accept" as const,
});

/**
 * Two "processes" on one database: each its own store (pool, LISTEN connection) and service.
 * `here` watches B's session; `there` sends as A. The safety poll is slowed down to an hour
 * unless `pollMs` says otherwise, so a delivery here can only have come from a notification.
 */
async function twoProcesses(pollMs = 3_600_000) {
  const schema = await freshPostgresSchema("feed");
  cleanups.push(schema.drop);
  const open = async () => {
    let feed: PostgresWatchFeed | undefined;
    const store = await openPostgresStore(schema.url, {
      createWatchFeed: (context) => {
        feed = createPushWatchFeed(context, pollMs);
        return feed;
      },
    });
    cleanups.push(() => store.close());
    if (feed === undefined) throw new Error("the store built no feed");
    return { store, feed };
  };
  const { store: hereStore, feed: hereFeed } = await open();
  const { store: thereStore, feed: thereFeed } = await open();
  const here = new BrigadeService(hereStore);
  const there = new BrigadeService(thereStore);
  await until(
    () => hereFeed.broadcast.listening && thereFeed.broadcast.listening,
    "both LISTEN connections",
  );
  const a = (await there.createPrincipal()).principal_ref;
  const b = (await there.createPrincipal()).principal_ref;
  const team = await there.createTeam(a, { team_name: "core" });
  await there.joinTeam(b, { join_secret: team.join_secret });
  const T = team.team_ref;
  const sender = (await there.registerSession(a, T, registration("sender"))).session_id;
  const inbox = (await there.registerSession(b, T, registration("inbox"))).session_id;
  const heard: string[] = [];
  let revoked = false;
  await here.subscribe(b, T, inbox, {
    onMessages: (ids) => heard.push(...ids),
    onRevoked: () => {
      revoked = true;
    },
  });
  const send = async (body: string) =>
    (
      await there.sendMessage(a, T, {
        sender_session_id: sender,
        recipient_session_id: inbox,
        body,
      })
    ).message_id;
  return {
    here,
    there,
    hereFeed,
    thereFeed,
    a,
    b,
    T,
    inbox,
    heard,
    send,
    revoked: () => revoked,
  };
}

describe("PostgresWatchFeed: watches across processes on one database", () => {
  test("a send committed by another process reaches a watch here through a notification", async () => {
    const w = await twoProcesses();
    const m1 = await w.send("first");
    await until(() => w.heard.includes(m1), "the first message");
    const m2 = await w.send("second");
    await until(() => w.heard.includes(m2), "the second message");
    expect(new Set(w.heard)).toEqual(new Set([m1, m2]));
  });

  test("without any notification, the safety poll finds the message", async () => {
    const w = await twoProcesses(100);
    // Silence the sender's announcements: the message is committed, nobody is told.
    await w.thereFeed.broadcast.close();
    const m1 = await w.send("unannounced");
    await until(() => w.heard.includes(m1), "the polled message");
  });

  test("a membership ended by another process ends the watch here", async () => {
    const w = await twoProcesses();
    await w.there.leaveTeam(w.b, w.T);
    await until(() => w.revoked(), "the revocation");
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
