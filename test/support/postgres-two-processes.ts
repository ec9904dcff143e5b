import { BrigadeService } from "../../src/service/index.ts";
import type { FeedLog } from "../../src/store/postgres/index.ts";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import {
  createPushWatchFeed,
  type PostgresWatchFeed,
} from "../../src/store/postgres/postgres-watch-feed.ts";
import type { Cleanup } from "./cleanups.ts";
import { type FreshSchema, freshPostgresSchema } from "./postgres-schema.ts";

/** How {@link twoPostgresProcesses} builds one of its two "processes". */
export interface PostgresProcessOptions {
  /** Period of the feed's safety poll and membership sweep, in milliseconds. */
  readonly pollMs: number;
  /** Where the feed logs (docs/51-postgres.md, "The LISTEN connection in the log"); default nowhere. */
  readonly log?: FeedLog;
  /**
   * What the process leaves unannounced although it commits it: its sends (`messages`), the
   * memberships it ends (`memberships`), or both; default nothing.
   */
  readonly silent?: readonly ("messages" | "memberships")[];
}

/** One "process": its own store (pool, LISTEN connection, safety poll) and service over it. */
export interface PostgresProcess {
  readonly store: PostgresStore;
  /** The feed the store was built with, whole: `silent` mutes only what the store calls. */
  readonly feed: PostgresWatchFeed;
  readonly service: BrigadeService;
}

/**
 * Two "processes" on one fresh schema of the test cluster (docs/51-postgres.md), both in this test
 * process so that one of them can lose its notifications: `here` and `there`, each with its own
 * store and service, each feed a {@link createPushWatchFeed}. The schema is created with `prefix`;
 * dropping it and closing both stores are pushed onto `cleanups` (run newest first). Resolves
 * once both stores are open; it does not wait for their LISTEN connections.
 *
 * @example const { here, there } = await twoPostgresProcesses(cleanups, "feed", { pollMs: 100 }, { pollMs: 100 });
 */
export async function twoPostgresProcesses(
  cleanups: Cleanup[],
  prefix: string,
  hereOptions: PostgresProcessOptions,
  thereOptions: PostgresProcessOptions,
): Promise<{ schema: FreshSchema; here: PostgresProcess; there: PostgresProcess }> {
  const schema = await freshPostgresSchema(prefix);
  cleanups.push(schema.drop);
  const here = await openProcess(cleanups, schema.url, hereOptions);
  const there = await openProcess(cleanups, schema.url, thereOptions);
  return { schema, here, there };
}

async function openProcess(
  cleanups: Cleanup[],
  url: string,
  options: PostgresProcessOptions,
): Promise<PostgresProcess> {
  const silent = options.silent ?? [];
  let built: PostgresWatchFeed | undefined;
  const store = await openPostgresStore(url, {
    createWatchFeed: (context) => {
      const feed = createPushWatchFeed(context, options.pollMs, options.log);
      built = feed;
      if (silent.length === 0) return feed;
      return {
        attach: (target) => feed.attach(target),
        sent: silent.includes("messages") ? () => {} : (recipient, id) => feed.sent(recipient, id),
        membershipEnded: silent.includes("memberships")
          ? () => {}
          : (...ended) => feed.membershipEnded(...ended),
        stop: () => feed.stop(),
      };
    },
  });
  cleanups.push(() => store.close());
  if (built === undefined) throw new Error("the store built no feed");
  return { store, feed: built, service: new BrigadeService(store) };
}
