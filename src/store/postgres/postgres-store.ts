import { Pool, type PoolClient, type QueryConfig, types } from "pg";
import type {
  AckCommand,
  AckOutcome,
  FetchCommand,
  FetchOutcome,
  SendCommand,
  SendOutcome,
  SendRefusal,
  Store,
  StoreTx,
  WatchFeed,
} from "../../service/store.ts";
import { StoreUnavailableError } from "../../service/store.ts";
import type { InboxEntry, InboxPollFeed, InboxReader } from "./inbox-poll-feed.ts";
import { decodeRow, encodeParams } from "./pg-text.ts";
import { ACK_SQL, ACK_STATEMENT, toAckOutcome } from "./postgres-ack.ts";
import { isUnavailable } from "./postgres-errors.ts";
import { FETCH_SQL, FETCH_STATEMENT, toFetchOutcome } from "./postgres-fetch.ts";
import { PostgresTx } from "./postgres-tx.ts";
import { createPushWatchFeed, type PostgresWatchFeed } from "./postgres-watch-feed.ts";
import { migratePostgres } from "./schema.ts";
import { type PostgresUrl, parsePostgresUrl } from "./store-url.ts";
import type { FeedLog } from "./watch-feed-log.ts";

/** Options of {@link openPostgresStore}; every time in milliseconds. */
export interface PostgresStoreOptions {
  /** Most connections this process holds; default 4 (see docs/51-postgres.md, pool sizing). */
  poolMax?: number;
  /** Longest wait for a new connection, or for a free one when all are busy; default 5000. */
  connectTimeoutMs?: number;
  /** Server-side `statement_timeout` of every statement (a lock wait included); default 10000. */
  statementTimeoutMs?: number;
  /** Server-side `idle_in_transaction_session_timeout`; default 15000. */
  idleInTransactionTimeoutMs?: number;
  /** An idle pooled connection is closed after this; default 30000. */
  idleTimeoutMs?: number;
  /**
   * How long {@link openPostgresStore} keeps retrying a database that does not answer (down,
   * starting, refusing connections) before it gives up; default 0 (one attempt).
   */
  startWaitMs?: number;
  /**
   * Opened as the target of `brigade migrate-store`: opening does not record the database as
   * served. Default false: every other opening may serve requests, so the first one records when
   * (docs/51-postgres.md, "Moving from SQLite"), and a later copy into the database is refused.
   */
  copyTarget?: boolean;
  /** Period of the default watch feed's safety poll ({@link InboxPollFeed}), ms; default 2000. */
  watchPollMs?: number;
  /**
   * Builds the store's {@link WatchFeed} (see {@link WatchFeedContext}); default: a
   * {@link PostgresWatchFeed} (announcements over LISTEN/NOTIFY, and an {@link InboxPollFeed}
   * safety poll every `watchPollMs`).
   */
  createWatchFeed?: (context: WatchFeedContext) => StoppableWatchFeed;
  /**
   * Where the default watch feed logs its LISTEN connection's events and the deliveries only its
   * safety poll found (docs/51-postgres.md, "The LISTEN connection in the log"); default: nowhere.
   */
  log?: FeedLog;
}

/** A {@link WatchFeed} the store stops when it closes. */
export interface StoppableWatchFeed extends WatchFeed {
  stop(): void | Promise<void>;
}

/** What a watch feed of the PostgreSQL store may use. */
export interface WatchFeedContext {
  /** The database address (for a dedicated connection, e.g. one that LISTENs); never log it. */
  readonly connectionString: string;
  /** The `inbox` rows of `sessions`, oldest first, through the store's pool. */
  readonly readInbox: InboxReader;
  /**
   * Runs one statement on a pooled connection (parameters and results escaped like every other
   * text, see `pg-text.ts`); a database that cannot be reached rejects with
   * `StoreUnavailableError`.
   */
  readonly query: (sql: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>;
}

/** Thrown by `transact`/`sendMessage` after `close()`. */
export class PostgresStoreClosedError extends Error {
  readonly code = "store_closed" as const;
  constructor() {
    super("the store is closed");
    this.name = "PostgresStoreClosedError";
  }
}

/** Thrown by {@link openPostgresStore} for an address that is not a usable `postgres://` URL. */
export class PostgresUrlError extends Error {
  readonly code = "store_url_invalid" as const;
  constructor() {
    super("the store address is not a valid postgres:// URL");
    this.name = "PostgresUrlError";
  }
}

const INT8_OID = 20;
/** `bigint` columns (times, counts) as numbers: every value we store is below 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : types.getTypeParser(oid, format ?? "text")) as typeof types.getTypeParser,
};

interface SendRow {
  verdict: string;
  reason: string | null;
  retry_after_ms: number | null;
  message_id: string | null;
  recipient_session_id: string | null;
  hop_count: number | null;
  created_at: number | null;
}

/** One `message send`: the whole decision and the insert in the database (schema.ts). */
export const SEND_SQL = "SELECT * FROM brigade_send($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

/**
 * The name {@link SEND_SQL} is prepared under on each pooled connection: a send is the busiest
 * statement, and prepared, each connection parses and plans it once instead of once per send.
 */
export const SEND_STATEMENT = "brigade_send_v1";

/**
 * A {@link Store} on a PostgreSQL database shared by any number of server processes. A unit of
 * work is one transaction (READ COMMITTED) on one pooled connection, one round trip per
 * {@link StoreTx} call; `sendMessage` is one round trip (the `brigade_send` function), and so is
 * `fetchMessages` and `ackMessages` (one prepared statement each). COMMIT
 * returns once the database made the transaction durable (`synchronous_commit`), so a resolved
 * promise is a durable write. A database that cannot be reached fails the call with
 * {@link StoreUnavailableError} and the pool recovers on its own when the database is back.
 */
export class PostgresStore implements Store {
  readonly #pool: Pool;
  readonly #url: PostgresUrl;
  readonly #feed: StoppableWatchFeed;
  #closed = false;
  readonly #copyTarget: boolean;
  #inFlight = 0;
  #idle: (() => void) | null = null;

  /** Use {@link openPostgresStore}, which also migrates. */
  constructor(url: PostgresUrl, options: PostgresStoreOptions = {}) {
    this.#url = url;
    this.#copyTarget = options.copyTarget === true;
    this.#pool = new Pool({
      connectionString: url.connectionString,
      max: Math.max(1, options.poolMax ?? 4),
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
      statement_timeout: options.statementTimeoutMs ?? 10_000,
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 15_000,
      application_name: "brigade",
      keepAlive: true,
      types: TYPES,
    });
    // A pooled connection that dies while idle (database restart) is dropped; without a
    // listener the process would exit on the unhandled 'error' event.
    this.#pool.on("error", () => {});
    this.#pool.on("connect", (client) => client.on("error", () => {}));
    const readInbox: InboxReader = async (sessions) =>
      (await this.#query(
        "SELECT recipient_session_id, message_id FROM inbox " +
          "WHERE recipient_session_id = ANY($1::text[]) ORDER BY seq LIMIT 10000",
        [sessions],
      )) as unknown as InboxEntry[];
    const context: WatchFeedContext = {
      connectionString: url.connectionString,
      readInbox,
      query: (sql, params) => this.#query(sql, params),
    };
    // The push feed opens its LISTEN connection only once a service attaches (a migration never does).
    this.#feed =
      options.createWatchFeed?.(context) ??
      createPushWatchFeed(context, options.watchPollMs ?? 2000, options.log);
  }

  /** Brings sends committed by other processes to this process's watches. */
  get watchFeed(): WatchFeed {
    return this.#feed;
  }

  /**
   * One statement on a pooled connection, outside any unit of work. A `name` makes it a prepared
   * statement of each connection (parsed and planned there once, see {@link FETCH_STATEMENT}).
   */
  async #query(
    sql: string,
    params: readonly unknown[],
    name?: string,
  ): Promise<Record<string, unknown>[]> {
    const client = await this.#checkout();
    let broken: Error | undefined;
    try {
      const result = await client.query({ name, text: sql, values: encodeParams(params) });
      return (result.rows as Record<string, unknown>[]).map(decodeRow);
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      broken = error instanceof Error ? error : new Error("connection lost");
      throw new StoreUnavailableError();
    } finally {
      this.#checkin(client, broken);
    }
  }

  /** The database this store uses, without the password (for start-up lines, logs, health). */
  get display(): string {
    return this.#url.display;
  }

  async transact<T>(unit: (tx: StoreTx) => Promise<T>): Promise<T> {
    const client = await this.#checkout();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      let value: T;
      try {
        value = await unit(new PostgresTx(client));
      } catch (error) {
        if (isUnavailable(error)) throw error;
        await client.query("ROLLBACK");
        throw error;
      }
      await client.query("COMMIT");
      return value;
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      broken = error instanceof Error ? error : new Error("connection lost");
      throw new StoreUnavailableError();
    } finally {
      this.#checkin(client, broken);
    }
  }

  async sendMessage(command: SendCommand): Promise<SendOutcome> {
    const client = await this.#checkout();
    let broken: Error | undefined;
    try {
      const l = command.limits;
      const result = await client.query<SendRow>({
        name: SEND_STATEMENT,
        text: SEND_SQL,
        values: encodeParams([
          command.messageId,
          command.principalRef,
          command.teamRef,
          command.senderSessionId,
          command.recipientSessionId,
          command.body,
          command.summary,
          command.replyTo,
          command.idempotencyKey,
          [
            l.sendPerMinute,
            l.sendPerHour,
            l.principalPerMinute,
            l.principalPerHour,
            l.pairCap,
            l.inboxCap,
            l.maxHopCount,
            l.implicitReplyWindowMs,
            l.capRetryAfterMs,
          ],
        ]),
      });
      const row = result.rows[0];
      if (row === undefined) throw new Error("brigade_send returned no row");
      return toOutcome(decodeRow(row));
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      broken = error instanceof Error ? error : new Error("connection lost");
      throw new StoreUnavailableError();
    } finally {
      this.#checkin(client, broken);
    }
  }

  /**
   * The health probe: `SELECT 1` on a pooled connection, its answer awaited at most `timeoutMs`
   * (then the connection is dropped). Waiting for a free connection is bounded by the pool's
   * connect timeout. Rejects with `StoreUnavailableError` when the database cannot answer.
   */
  async probe(timeoutMs: number): Promise<void> {
    const client = await this.#checkout();
    let broken: Error | undefined;
    try {
      // pg reads `query_timeout` from a query's config, though its types do not declare it.
      const select: QueryConfig & { query_timeout: number } = {
        text: "SELECT 1",
        query_timeout: Math.max(1, timeoutMs),
      };
      await client.query(select);
    } catch (error) {
      broken = error instanceof Error ? error : new Error("probe failed");
      throw isUnavailable(error) ? new StoreUnavailableError() : error;
    } finally {
      this.#checkin(client, broken);
    }
  }

  /** One prepared statement ({@link FETCH_SQL}): a watch fetches once per delivery. */
  async fetchMessages(command: FetchCommand): Promise<FetchOutcome> {
    return toFetchOutcome(
      await this.#query(
        FETCH_SQL,
        [command.teamRef, command.principalRef, command.sessionId, command.messageIds],
        FETCH_STATEMENT,
      ),
    );
  }

  /** One prepared statement ({@link ACK_SQL}): a watcher acknowledges once per delivery. */
  async ackMessages(command: AckCommand): Promise<AckOutcome> {
    const rows = await this.#query(
      ACK_SQL,
      [command.teamRef, command.principalRef, command.sessionId, command.messageIds, command.at],
      ACK_STATEMENT,
    );
    return toAckOutcome(rows, command.messageIds);
  }

  /** Waits for units in flight, then closes every connection; later calls reject. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#feed.stop();
    if (this.#inFlight > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    await this.#pool.end();
  }

  /** Runs `migratePostgres` on one connection (used by {@link openPostgresStore}). */
  async migrate(): Promise<number> {
    const client = await this.#checkout();
    let broken: Error | undefined;
    try {
      return await migratePostgres(client, { copyTarget: this.#copyTarget });
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      broken = error instanceof Error ? error : new Error("connection lost");
      throw new StoreUnavailableError();
    } finally {
      this.#checkin(client, broken);
    }
  }

  async #checkout(): Promise<PoolClient> {
    if (this.#closed) throw new PostgresStoreClosedError();
    this.#inFlight += 1;
    try {
      return await this.#pool.connect();
    } catch (error) {
      this.#done();
      if (isUnavailable(error)) throw new StoreUnavailableError();
      throw error;
    }
  }

  /** Returns `client` to the pool, or destroys it when its connection `broken`. */
  #checkin(client: PoolClient, broken: Error | undefined): void {
    client.release(broken);
    this.#done();
  }

  #done(): void {
    this.#inFlight -= 1;
    if (this.#inFlight === 0 && this.#idle !== null) this.#idle();
  }
}

const REFUSALS = ["unauthorized", "not_found", "session_closed", "idempotency_key_reused"] as const;

function toOutcome(row: SendRow): SendOutcome {
  if (row.verdict === "accepted" || row.verdict === "duplicate") {
    if (
      row.message_id === null ||
      row.recipient_session_id === null ||
      row.hop_count === null ||
      row.created_at === null
    ) {
      throw new Error("brigade_send returned an incomplete message");
    }
    return {
      ok: true,
      duplicate: row.verdict === "duplicate",
      message: {
        message_id: row.message_id,
        recipient_session_id: row.recipient_session_id,
        hop_count: row.hop_count,
        created_at: row.created_at,
      },
    };
  }
  return { ok: false, ...toRefusal(row) };
}

function toRefusal(row: SendRow): SendRefusal {
  const verdict = row.verdict;
  if (verdict === "loop_detected") return { refusal: "loop_detected" };
  if (verdict === "rate_limited" && isSendReason(row.reason) && row.retry_after_ms !== null) {
    return { refusal: "rate_limited", reason: row.reason, retryAfterMs: row.retry_after_ms };
  }
  const known = REFUSALS.find((r) => r === verdict);
  if (known === undefined) throw new Error("brigade_send returned an unknown verdict");
  return { refusal: known };
}

const SEND_REASONS = [
  "send_per_minute",
  "send_per_hour",
  "principal_per_minute",
  "principal_per_hour",
  "sender_quota_for_recipient",
  "recipient_inbox_full",
] as const;

function isSendReason(value: string | null): value is (typeof SEND_REASONS)[number] {
  return SEND_REASONS.some((r) => r === value);
}

/**
 * Opens the PostgreSQL store at `address` (`postgres://user:password@host:port/database`),
 * waits for the database up to `options.startWaitMs` (retrying every 500 ms) and migrates it.
 * Throws `PostgresUrlError` (`store_url_invalid`) for a bad address, `StoreUnavailableError`
 * (`store_unavailable`) when the database never answered, `PostgresSchemaError`
 * (`schema_too_new`) for a newer schema; nothing is left open when it throws.
 *
 * @example
 * const store = await openPostgresStore("postgres://brigade@127.0.0.1:5432/brigade");
 */
export async function openPostgresStore(
  address: string,
  options: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  const parsed = parsePostgresUrl(address);
  if (!parsed.ok) throw new PostgresUrlError();
  const store = new PostgresStore(parsed.url, options);
  const deadline = Date.now() + Math.max(0, options.startWaitMs ?? 0);
  for (;;) {
    try {
      await store.migrate();
      return store;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || Date.now() >= deadline) {
        await store.close();
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
