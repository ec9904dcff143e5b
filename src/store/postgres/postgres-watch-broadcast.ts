import { randomBytes } from "node:crypto";
import pg from "pg";
import { AnnounceCoalescer, type CoalescerClock, SYSTEM_CLOCK } from "./announce-coalescer.ts";
import type { InboxEntry } from "./inbox-poll-feed.ts";
import { type ListenLossReason, listenLossReason } from "./listen-loss-reason.ts";
import {
  encodeAnnouncement,
  MAX_ANNOUNCE_ITEMS_CHARS,
  membershipEndedItem,
  messagesItem,
  parseAnnouncement,
} from "./watch-payload.ts";

/** What a {@link PostgresWatchBroadcast} reports about the other processes. */
export interface BroadcastListener {
  /** Another process committed messages for these sessions (ids not included; read them). */
  messagesFor(recipientSessionIds: readonly string[]): void;
  /** Another process ended this principal's membership of this team. */
  membershipEnded(principalRef: string, teamRef: string): void;
  /** Announcements may have been missed (a fresh or re-established LISTEN): read everything. */
  resync(): void;
}

/** The channel every Brigade process of one database listens on. */
export const WATCH_CHANNEL = "brigade_watch";

/** Defaults of {@link PostgresBroadcastOptions}, ms. */
export const BROADCAST_DEFAULTS: Readonly<{
  coalesceMs: number;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
}> = Object.freeze({
  coalesceMs: 5,
  connectTimeoutMs: 5000,
  queryTimeoutMs: 5000,
  reconnectMinMs: 100,
  reconnectMaxMs: 2000,
});

/** What a broadcast reports about its connection (never a connection string or a payload). */
export type BroadcastEvent =
  | "watch_listen_connected"
  | "watch_listen_lost"
  | "watch_listen_failed"
  | "watch_notify_failed";

/** The facts of a {@link BroadcastEvent}; each is present where it applies. */
export interface BroadcastEventDetail {
  /** Why the connection was lost, an attempt failed, or a NOTIFY failed. */
  readonly reason?: ListenLossReason;
  /**
   * Failed connection attempts in a row: including this one (`watch_listen_failed`), or before
   * this success (`watch_listen_connected`, 0 when the first attempt worked).
   */
  readonly attempt?: number;
  /** When the next connection attempt starts, ms from now (`lost`, `failed`). */
  readonly retryInMs?: number;
}

/** How a {@link PostgresWatchBroadcast} connects and paces itself. */
export interface PostgresBroadcastOptions {
  /** A `postgres://` URL (the store's). */
  readonly connectionString: string;
  /** Least time between two NOTIFYs of this process, ms. */
  readonly coalesceMs?: number;
  readonly connectTimeoutMs?: number;
  readonly queryTimeoutMs?: number;
  /** First and longest wait before reconnecting the LISTEN connection, ms (doubling). */
  readonly reconnectMinMs?: number;
  readonly reconnectMaxMs?: number;
  /** Connection events, for the server's log. */
  readonly onEvent?: (event: BroadcastEvent, detail: BroadcastEventDetail) => void;
  /** The coalescer's clock (tests). */
  readonly clock?: CoalescerClock;
}

/**
 * The announcements between processes sharing one PostgreSQL database (docs/21-service.md,
 * "Watches across processes"). It owns one dedicated connection, which LISTENs on
 * {@link WATCH_CHANNEL} and also carries this process's NOTIFYs, each outside any send
 * transaction (a NOTIFY inside one would serialise every commit of the database on the
 * notification queue's lock):
 *
 * - announcements are coalesced (at most one NOTIFY per `coalesceMs`, a payload of at most
 *   {@link MAX_ANNOUNCE_ITEMS_CHARS} characters of items; one NOTIFY in flight at a time);
 * - a notification from another process becomes `listener.messagesFor` /
 *   `listener.membershipEnded`; this process's own are skipped (it told its watches already);
 * - after every (re)LISTEN, `listener.resync()` (what was announced while nobody listened);
 * - a lost connection is re-opened with a doubling delay; announcements made meanwhile are
 *   dropped (the other processes' safety poll finds their messages).
 *
 * @example
 * const broadcast = new PostgresWatchBroadcast({ connectionString });
 * broadcast.start(listener); broadcast.announceMessages(["s-1"]); …; await broadcast.close();
 */
export class PostgresWatchBroadcast {
  readonly #options: PostgresBroadcastOptions;
  /** Random per process, so a process recognises its own notifications. */
  readonly #origin = randomBytes(8).toString("hex");
  /** How this process's own payloads begin (`encodeAnnouncement`'s `<origin>|`). */
  readonly #ownPrefix = encodeAnnouncement(this.#origin, []);
  readonly #coalescer: AnnounceCoalescer;
  #listener: BroadcastListener | undefined;
  #client: pg.Client | undefined;
  #connecting = false;
  #closed = false;
  #retryMs: number;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Connection attempts that failed since the last success. */
  #failures = 0;
  #notifying = false;
  /** Items flushed while a NOTIFY was in flight; they go with the next one. */
  readonly #deferred = new Set<string>();

  constructor(options: PostgresBroadcastOptions) {
    this.#options = options;
    this.#retryMs = options.reconnectMinMs ?? BROADCAST_DEFAULTS.reconnectMinMs;
    this.#coalescer = new AnnounceCoalescer({
      intervalMs: options.coalesceMs ?? BROADCAST_DEFAULTS.coalesceMs,
      maxBatchChars: MAX_ANNOUNCE_ITEMS_CHARS,
      flush: (items) => this.#notify(items),
      clock: options.clock ?? SYSTEM_CLOCK,
    });
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  /**
   * The `inbox` rows of `sessions` (ids only, oldest first, at most 10,000), read on this
   * broadcast's own connection rather than the store's pool, whose connections may all be held by
   * sends: a wake-up read never queues behind them. Rejects when the connection is not up (the
   * caller then reads through the pool).
   */
  async readInbox(sessions: readonly string[]): Promise<InboxEntry[]> {
    const client = this.#client;
    if (client === undefined) throw new Error("the LISTEN connection is not up");
    const result = await client.query<InboxEntry>(
      "SELECT recipient_session_id, message_id FROM inbox " +
        "WHERE recipient_session_id = ANY($1::text[]) ORDER BY seq LIMIT 10000",
      [sessions],
    );
    return result.rows;
  }

  /** Announces (coalesced, after this call returns) that these sessions got committed messages. */
  announceMessages(recipientSessionIds: readonly string[]): void {
    if (this.#closed) return;
    for (const id of recipientSessionIds) this.#coalescer.add(messagesItem(id));
  }

  /** Announces that `principalRef`'s membership of `teamRef` ended. */
  announceMembershipEnded(principalRef: string, teamRef: string): void {
    if (this.#closed) return;
    this.#coalescer.add(membershipEndedItem(principalRef, teamRef));
  }

  /** Connects and LISTENs, then reports to `listener`; called once. Never throws. */
  start(listener: BroadcastListener): void {
    if (this.#listener !== undefined || this.#closed) return;
    this.#listener = listener;
    void this.#connect();
  }

  /** Stops listening, polling and announcing, and closes the connection. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    if (this.#connecting || this.#closed) return;
    this.#connecting = true;
    const client = new pg.Client({
      connectionString: this.#options.connectionString,
      connectionTimeoutMillis:
        this.#options.connectTimeoutMs ?? BROADCAST_DEFAULTS.connectTimeoutMs,
      query_timeout: this.#options.queryTimeoutMs ?? BROADCAST_DEFAULTS.queryTimeoutMs,
      keepAlive: true,
      application_name: "brigade-watch",
    });
    let lost = false;
    const onLost = (error: unknown): void => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.end().catch(() => {});
      if (this.#closed) return;
      const retryInMs = this.#retryLater();
      this.#options.onEvent?.("watch_listen_lost", {
        reason: listenLossReason(error),
        retryInMs,
      });
    };
    client.on("error", (error) => onLost(error));
    client.on("end", () => onLost(undefined));
    client.on("notification", (message) => {
      if (message.channel === WATCH_CHANNEL) this.#heard(message.payload);
    });
    try {
      await client.connect();
      // A NOTIFY needs a transaction id, so its commit would wait for a WAL flush like a send's:
      // one extra fsync per announcement. An announcement is only a hint (the inbox is the
      // truth, and a lost one is found by the safety poll), so this connection never waits.
      await client.query("SET synchronous_commit TO off");
      await client.query(`LISTEN ${WATCH_CHANNEL}`);
    } catch (error) {
      this.#connecting = false;
      if (!lost) {
        lost = true;
        client.end().catch(() => {});
        if (!this.#closed) {
          this.#failures += 1;
          const retryInMs = this.#retryLater();
          this.#options.onEvent?.("watch_listen_failed", {
            reason: listenLossReason(error),
            attempt: this.#failures,
            retryInMs,
          });
        }
      }
      return;
    }
    this.#connecting = false;
    if (this.#closed || lost) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retryMs = this.#options.reconnectMinMs ?? BROADCAST_DEFAULTS.reconnectMinMs;
    const attempt = this.#failures;
    this.#failures = 0;
    this.#options.onEvent?.("watch_listen_connected", { attempt });
    // Whatever was committed while this process was not listening is read now.
    this.#listener?.resync();
  }

  /** Schedules the next connection attempt (unless one is scheduled); returns its delay, ms. */
  #retryLater(): number {
    const delay = this.#retryMs;
    if (this.#retryTimer !== undefined || this.#closed) return delay;
    this.#retryMs = Math.min(
      delay * 2,
      this.#options.reconnectMaxMs ?? BROADCAST_DEFAULTS.reconnectMaxMs,
    );
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.#connect();
    }, delay);
    this.#retryTimer.unref();
    return delay;
  }

  #heard(payload: string | undefined): void {
    // Every process hears its own announcements too: those are skipped before any parsing.
    if (payload?.startsWith(this.#ownPrefix) === true) return;
    const parsed = parseAnnouncement(payload);
    if (!parsed.ok || parsed.value.origin === this.#origin) return;
    const listener = this.#listener;
    if (listener === undefined) return;
    const { sessionIds, memberships } = parsed.value;
    for (const { principalRef, teamRef } of memberships)
      listener.membershipEnded(principalRef, teamRef);
    if (sessionIds.length > 0) listener.messagesFor(sessionIds);
  }

  #notify(items: readonly string[]): void {
    const client = this.#client;
    if (client === undefined || this.#closed) return;
    if (this.#notifying) {
      for (const item of items) this.#deferred.add(item);
      return;
    }
    this.#notifying = true;
    const payload = encodeAnnouncement(this.#origin, items);
    client
      .query("SELECT pg_notify($1, $2)", [WATCH_CHANNEL, payload])
      .catch((error: unknown) =>
        this.#options.onEvent?.("watch_notify_failed", { reason: listenLossReason(error) }),
      )
      .finally(() => {
        this.#notifying = false;
        const again = [...this.#deferred];
        this.#deferred.clear();
        for (const item of again) this.#coalescer.add(item);
      });
  }
}
