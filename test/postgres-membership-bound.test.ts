import { afterEach, describe, expect, test } from "vitest";
import { BrigadeService } from "../src/service/index.ts";
import { openPostgresStore } from "../src/store/postgres/postgres-store.ts";
import {
  createPushWatchFeed,
  type PostgresWatchFeed,
} from "../src/store/postgres/postgres-watch-feed.ts";
import { freshPostgresSchema } from "./support/postgres-schema.ts";

// Two "processes" on one database (each its own store: pool, LISTEN connection, safety poll, and
// its own service), in one test process so that one of them can lose its notifications.
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string, ms: number): Promise<void> {
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

describe("two processes, the membership notification lost", () => {
  test("a membership ended through the other process ends the watch here within the 5 s bound", async () => {
    const schema = await freshPostgresSchema("msweep");
    cleanups.push(schema.drop);
    let hereFeed: PostgresWatchFeed | undefined;
    const hereStore = await openPostgresStore(schema.url, {
      createWatchFeed: (context) => {
        hereFeed = createPushWatchFeed(context, 2000);
        return hereFeed;
      },
    });
    cleanups.push(() => hereStore.close());
    // The other process announces its messages but never the end of a membership.
    const thereStore = await openPostgresStore(schema.url, {
      createWatchFeed: (context) => {
        const feed = createPushWatchFeed(context, 2000);
        return {
          attach: (target) => feed.attach(target),
          sent: (recipient, messageId) => feed.sent(recipient, messageId),
          membershipEnded: () => {},
          stop: () => feed.stop(),
        };
      },
    });
    cleanups.push(() => thereStore.close());
    const here = new BrigadeService(hereStore);
    const there = new BrigadeService(thereStore);
    await until(() => hereFeed?.broadcast.listening === true, "the LISTEN connection", 5000);

    const a = (await there.createPrincipal()).principal_ref;
    const b = (await there.createPrincipal()).principal_ref;
    const c = (await there.createPrincipal()).principal_ref;
    const team = await there.createTeam(a, { team_name: "core" });
    await there.joinTeam(b, { join_secret: team.join_secret });
    await there.joinTeam(c, { join_secret: team.join_secret });
    const T = team.team_ref;
    const ended = new Set<string>();
    for (const [principal, name] of [
      [b, "b"],
      [c, "c"],
      [a, "a"],
    ] as const) {
      const session = (await there.registerSession(principal, T, registration(name))).session_id;
      await here.subscribe(principal, T, session, {
        onMessages: () => {},
        onRevoked: () => ended.add(name),
      });
    }
    // Still active: a sweep ends nothing.
    await hereFeed?.memberships?.sweep();
    expect(ended.size).toBe(0);

    const start = Date.now();
    await there.leaveTeam(b, T);
    await there.revokeMember(a, T, { principal_ref: c });
    await until(() => ended.size === 2, "both watches ended", 5000);
    expect(Date.now() - start).toBeLessThan(5000);
    expect([...ended].sort()).toEqual(["b", "c"]);
    expect(here.watchSubscriptionCount).toBe(1);
  });
});
