import type { WatchFeedTarget } from "../../service/store.ts";
import { type InboxEntry, InboxPollFeed } from "./inbox-poll-feed.ts";
import { endedMembershipReader, MembershipSweep } from "./membership-sweep.ts";
import { MissedNotificationAudit } from "./missed-notification-audit.ts";
import type { StoppableWatchFeed, WatchFeedContext } from "./postgres-store.ts";
import { PostgresWatchBroadcast } from "./postgres-watch-broadcast.ts";
import { type FeedLog, WatchFeedLog } from "./watch-feed-log.ts";

/** The optional parts of a {@link PostgresWatchFeed} besides its reader and broadcast. */
export interface PostgresWatchFeedParts {
  /** Ends watches whose membership another process ended, when the notification is lost. */
  readonly memberships?: MembershipSweep;
  /** Tells which reads found what no notification announced (it must see the reader's reads). */
  readonly audit?: MissedNotificationAudit;
  /** Where the feed's events become log lines. */
  readonly log?: WatchFeedLog;
}

/**
 * The {@link WatchFeed} of the PostgreSQL store (docs/21-service.md, "Watches across
 * processes"): this process's commits are announced on the database's notification channel
 * ({@link PostgresWatchBroadcast}: coalesced NOTIFYs outside any send transaction, one LISTEN
 * connection); what the other processes announce makes the {@link InboxPollFeed} read the inboxes
 * of the named sessions watched here (one query for all of them) and deliver their ids. Every
 * (re)LISTEN, and every tick of the safety poll (one timer, every `pollMs`, from `attach` to
 * `stop`), reads all watched sessions and runs the {@link MembershipSweep}, so a lost notification
 * of a message or of an ended membership costs at most one poll interval. The inbox read and the
 * sweep each keep one pass at a time, so a slow one never holds up the other. The database stays
 * the truth: an announcement only says when to read. After every (re)LISTEN, once that catch-up
 * read is done, the log gets `watch_catchup_done`.
 *
 * @example
 * const feed = new PostgresWatchFeed(new InboxPollFeed(read), new PostgresWatchBroadcast({ connectionString }), 2000);
 */
export class PostgresWatchFeed implements StoppableWatchFeed {
  readonly #reader: InboxPollFeed;
  readonly #broadcast: PostgresWatchBroadcast;
  readonly #pollMs: number;
  readonly #parts: PostgresWatchFeedParts;
  #safetyPoll: ReturnType<typeof setInterval> | undefined;

  /** `pollMs` is the safety poll's interval, ms (at least 10). */
  constructor(
    reader: InboxPollFeed,
    broadcast: PostgresWatchBroadcast,
    pollMs: number,
    parts: PostgresWatchFeedParts = {},
  ) {
    this.#reader = reader;
    this.#broadcast = broadcast;
    this.#pollMs = Math.max(10, pollMs);
    this.#parts = parts;
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
    return this.#parts.memberships;
  }

  attach(target: WatchFeedTarget): void {
    this.#reader.attach(target);
    this.#parts.memberships?.attach(target);
    this.#safetyPoll ??= setInterval(() => {
      void this.#reader.poll();
      void this.#parts.memberships?.sweep();
    }, this.#pollMs);
    this.#safetyPoll.unref?.();
    this.#broadcast.start({
      messagesFor: (sessionIds) => {
        this.#parts.audit?.heard(sessionIds);
        void this.#reader.wake(sessionIds);
      },
      membershipEnded: (principalRef, teamRef) => target.revoke(principalRef, teamRef),
      resync: () => void this.#catchUp(target),
    });
  }

  sent(recipientSessionId: string, _messageId: string): void {
    this.#parts.audit?.heard([recipientSessionId]);
    this.#broadcast.announceMessages([recipientSessionId]);
  }

  membershipEnded(principalRef: string, teamRef: string): void {
    this.#broadcast.announceMembershipEnded(principalRef, teamRef);
  }

  /** Stops the safety poll and closes the LISTEN connection (the store's `close`). */
  async stop(): Promise<void> {
    if (this.#safetyPoll !== undefined) clearInterval(this.#safetyPoll);
    this.#safetyPoll = undefined;
    await this.#broadcast.close();
  }

  /** After a (re)LISTEN: reads every watched inbox and membership, then says so in the log. */
  async #catchUp(target: WatchFeedTarget): Promise<void> {
    const { audit, memberships, log } = this.#parts;
    audit?.resync();
    const started = performance.now();
    const before = audit?.found ?? 0;
    await Promise.all([this.#reader.poll(), memberships?.sweep()]);
    log?.catchUpDone({
      sessions: target.watchedSessions().length,
      found: (audit?.found ?? 0) - before,
      ms: Math.round(performance.now() - started),
    });
  }
}

/**
 * The PostgreSQL store's default feed over `context`: a {@link PostgresWatchFeed} whose broadcast
 * opens its own connection to `context.connectionString`, whose reader polls every `pollMs` and
 * reads on that connection while it is up (else through the store's pool), whose
 * {@link MembershipSweep} checks the watched memberships on the same tick through the pool, and
 * which logs its connection's events and the deliveries only the poll found to `log`.
 *
 * @example openPostgresStore(url, { createWatchFeed: (c) => createPushWatchFeed(c, 500) });
 */
export function createPushWatchFeed(
  context: WatchFeedContext,
  pollMs: number,
  log?: FeedLog,
): PostgresWatchFeed {
  const feedLog = log === undefined ? undefined : new WatchFeedLog(log);
  const broadcast = new PostgresWatchBroadcast({
    connectionString: context.connectionString,
    ...(feedLog === undefined
      ? {}
      : { onEvent: (event, detail) => feedLog.broadcast(event, detail) }),
  });
  const audit = new MissedNotificationAudit();
  // Ids carry no text to escape, so the broadcast's connection can read them as they are.
  const read = async (sessions: readonly string[]): Promise<InboxEntry[]> => {
    const entries = await (broadcast.listening
      ? broadcast.readInbox(sessions)
      : context.readInbox(sessions));
    audit.read(sessions, entries);
    feedLog?.missed(audit.takeMissed());
    return entries;
  };
  const memberships = new MembershipSweep(
    endedMembershipReader(context.query),
    feedLog === undefined ? undefined : (count) => feedLog.membershipsEnded(count),
  );
  return new PostgresWatchFeed(new InboxPollFeed(read), broadcast, pollMs, {
    memberships,
    audit,
    ...(feedLog === undefined ? {} : { log: feedLog }),
  });
}
