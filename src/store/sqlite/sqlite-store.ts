import Database from "better-sqlite3";
import type { Store, StoreTx } from "../../service/store.ts";
import { migrate } from "./schema.ts";
import { SqliteTx } from "./sqlite-tx.ts";

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** Most units committed by one physical transaction; default 256. */
  maxBatch?: number;
  /** Milliseconds to wait for another process's write lock; default 5000. */
  busyTimeoutMs?: number;
}

/** Thrown by `transact` after `close()`. */
export class SqliteStoreClosedError extends Error {
  readonly code = "store_closed" as const;
  constructor() {
    super("the store is closed");
    this.name = "SqliteStoreClosedError";
  }
}

interface PendingUnit {
  unit: (tx: StoreTx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * A {@link Store} on one SQLite file (or `":memory:"`) with group commit: units submitted while a
 * batch is pending are run, each inside its own SAVEPOINT, by one `BEGIN IMMEDIATE … COMMIT` on the
 * next `setImmediate` turn. A unit that throws rolls back only its own savepoint; every unit's
 * promise settles only after COMMIT returned, so a resolved unit is durable (WAL,
 * `synchronous=FULL`).
 */
export class SqliteStore implements Store {
  readonly #db: Database.Database;
  readonly #tx: SqliteTx;
  readonly #maxBatch: number;
  #queue: PendingUnit[] = [];
  #scheduled = false;
  #running: Promise<void> | null = null;
  #closed = false;
  #commits = 0;

  /** Opens and migrates the database at `path`; see {@link openSqliteStore}. */
  constructor(path: string, options: SqliteStoreOptions = {}) {
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = FULL");
    this.#db.pragma("foreign_keys = ON");
    this.#db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    migrate(this.#db);
    this.#tx = new SqliteTx(this.#db);
    this.#maxBatch = Math.max(1, options.maxBatch ?? 256);
  }

  transact<T>(unit: (tx: StoreTx) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new SqliteStoreClosedError());
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        unit,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.#schedule();
    });
  }

  /** Physical transactions committed so far (one per group-commit batch); for tests and metrics. */
  get commits(): number {
    return this.#commits;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#running !== null || this.#queue.length > 0 || this.#scheduled) {
      if (this.#running !== null) await this.#running;
      else await new Promise<void>((r) => setImmediate(r));
    }
    this.#db.close();
  }

  #schedule(): void {
    if (this.#scheduled || this.#running !== null) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#running = this.#runBatch().finally(() => {
        this.#running = null;
        if (this.#queue.length > 0) this.#schedule();
      });
    });
  }

  async #runBatch(): Promise<void> {
    const batch = this.#queue.splice(0, this.#maxBatch);
    if (batch.length === 0) return;
    const outcomes: Outcome[] = [];
    try {
      this.#db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    let aborted: unknown = null;
    let ran = 0;
    for (const pending of batch) {
      this.#db.exec("SAVEPOINT unit");
      ran += 1;
      try {
        const value = await pending.unit(this.#tx);
        this.#db.exec("RELEASE unit");
        outcomes.push({ ok: true, value });
      } catch (error) {
        if (!this.#db.inTransaction) {
          // SQLite rolled the whole transaction back itself (e.g. disk full): nothing survives.
          aborted = error;
          outcomes.push({ ok: false, error });
          break;
        }
        this.#db.exec("ROLLBACK TO unit");
        this.#db.exec("RELEASE unit");
        outcomes.push({ ok: false, error });
      }
    }
    if (aborted === null) {
      try {
        this.#db.exec("COMMIT");
        this.#commits += 1;
      } catch (error) {
        aborted = error;
        if (this.#db.inTransaction) this.#db.exec("ROLLBACK");
      }
    }
    if (aborted !== null) {
      // Units that never ran go back to the front of the queue; the ones that ran lost their writes.
      this.#queue.unshift(...batch.slice(ran));
      for (let i = 0; i < ran; i += 1) {
        const outcome = outcomes[i];
        const pending = batch[i] as PendingUnit;
        pending.reject(outcome !== undefined && !outcome.ok ? outcome.error : aborted);
      }
      return;
    }
    for (let i = 0; i < batch.length; i += 1) {
      const outcome = outcomes[i] as Outcome;
      const pending = batch[i] as PendingUnit;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    }
  }
}

/**
 * Opens (creating and migrating as needed) a SQLite store at `path` (`":memory:"` for tests).
 *
 * @example
 * const store = openSqliteStore("/var/lib/brigade/brigade.db");
 * await store.transact((tx) => tx.getTeam("t-9c1e"));
 * await store.close();
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  return new SqliteStore(path, options);
}
