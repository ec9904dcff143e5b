import type { WatchFeedTarget } from "../../service/store.ts";
import { InboxPollFeed } from "./inbox-poll-feed.ts";
import { endedMembershipReader, MembershipSweep } from "./membership-sweep.ts";
import type { StoppableWatchFeed, WatchFeedContext } from "./postgres-store.ts";
import { PostgresWatchBroadcast } from "./postgres-watch-broadcast.ts";

/**
 * The {@link WatchFeed} of the PostgreSQL store (docs/21-service.md, "Watches across
 * processes"): this process's commits are announced on the database's notification channel
 * ({@link PostgresWatchBroadcast}: coalesced NOTIFYs outside any send transaction, one LISTEN
 * connection); what the other processes announce makes the {@link InboxPollFeed} read the inboxes
 * of the named sessions watched here (one query for all of them) and deliver their ids; every
 * (re)LISTEN and every safety-poll tick reads all watched sessions, so a lost notification costs
 * at most one poll interval. A membership another process ended ends the watches here, on its
 * announcement or, when that is lost, on the {@link MembershipSweep} of the same interval. The
 * database stays the truth: an announcement only says when to read.
 *
 * @example
 * const feed = new PostgresWatchFeed(new InboxPollFeed(read, 2000), new PostgresWatchBroadcast({ connectionString }));
 */
export class PostgresWatchFeed implements StoppableWatchFeed {
  readonly #reader: InboxPollFeed;
  readonly #broadcast: PostgresWatchBroadcast;
  readonly #memberships: MembershipSweep | undefined;

  constructor(
    reader: InboxPollFeed,
    broadcast: PostgresWatchBroadcast,
    memberships?: MembershipSweep,
  ) {
    this.#reader = reader;
    this.#broadcast = broadcast;
    this.#memberships = memberships;
  }

  /** The reading half (tests drive its poll). */
  get reader(): InboxPollFeed {
    return this.#reader;
  }

  /** The announcing half (tests look at its connection). */
  get broadcast(): PostgresWatchBroadcast {
    return this.#broadcast;
  }

  /** The membership half of the safety poll, when there is one (tests drive its sweep). */
  get memberships(): MembershipSweep | undefined {
    return this.#memberships;
  }

  attach(target: WatchFeedTarget): void {
    this.#reader.attach(target);
    this.#memberships?.attach(target);
    this.#broadcast.start({
      messagesFor: (sessionIds) => void this.#reader.wake(sessionIds),
      membershipEnded: (principalRef, teamRef) => target.revoke(principalRef, teamRef),
      resync: () => {
        void this.#reader.poll();
        void this.#memberships?.sweep();
      },
    });
  }

  sent(recipientSessionId: string, _messageId: string): void {
    this.#broadcast.announceMessages([recipientSessionId]);
  }

  membershipEnded(principalRef: string, teamRef: string): void {
    this.#broadcast.announceMembershipEnded(principalRef, teamRef);
  }

  /** Stops the safety poll and closes the LISTEN connection (the store's `close`). */
  async stop(): Promise<void> {
    this.#reader.stop();
    this.#memberships?.stop();
    await this.#broadcast.close();
  }
}

/**
 * The PostgreSQL store's default feed over `context`: a {@link PostgresWatchFeed} whose broadcast
 * opens its own connection to `context.connectionString`, whose reader polls every `pollMs` and
 * reads on that connection while it is up (else through the store's pool), and whose
 * {@link MembershipSweep} checks the watched memberships every `pollMs` through the pool.
 *
 * @example openPostgresStore(url, { createWatchFeed: (c) => createPushWatchFeed(c, 500) });
 */
export function createPushWatchFeed(context: WatchFeedContext, pollMs: number): PostgresWatchFeed {
  const broadcast = new PostgresWatchBroadcast({ connectionString: context.connectionString });
  // Ids carry no text to escape, so the broadcast's connection can read them as they are.
  const read = (sessions: readonly string[]) =>
    broadcast.listening ? broadcast.readInbox(sessions) : context.readInbox(sessions);
  const memberships = new MembershipSweep(endedMembershipReader(context.query), pollMs);
  return new PostgresWatchFeed(new InboxPollFeed(read, pollMs), broadcast, memberships);
}
