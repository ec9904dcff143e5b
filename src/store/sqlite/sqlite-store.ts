import { closeSync, fdatasync, openSync, type Stats, statSync } from "node:fs";
import Database from "better-sqlite3";
import type { Store, StoreTx } from "../../service/store.ts";
import { migrate, refuseNewerSchema } from "./schema.ts";
import { SqliteTx } from "./sqlite-tx.ts";

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** Most units committed by one physical transaction; default 256. */
  maxBatch?: number;
  /** Milliseconds to wait for another process's write lock; default 5000. */
  busyTimeoutMs?: number;
  /**
   * Test seam: how the `-wal` file is synced after commits; default `node:fs` `fdatasync` (async,
   * on libuv's thread pool). `done(error)` must be called exactly once.
   */
  syncWal?: (fd: number, done: (error: Error | null) => void) => void;
}

/** Thrown by `transact` after `close()`. */
export class SqliteStoreClosedError extends Error {
  readonly code = "store_closed" as const;
  constructor() {
    super("the store is closed");
    this.name = "SqliteStoreClosedError";
  }
}

/**
 * Thrown by every unit waiting for, and every `transact` after, a failed sync of the write-ahead
 * log: what reached the disk is unknown, so the store refuses to answer anything more.
 */
export class SqliteStoreSyncError extends Error {
  readonly code = "store_sync_failed" as const;
  constructor() {
    super("the store could not make its log durable");
    this.name = "SqliteStoreSyncError";
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
 * next `setImmediate` turn. A unit that throws rolls back only its own savepoint.
 *
 * Durability without blocking the event loop: a file store runs WAL with `synchronous=NORMAL`
 * (COMMIT appends the batch's frames to the `-wal` file without syncing) and then syncs that file
 * itself with an asynchronous `fdatasync` on libuv's thread pool. No unit's promise settles (resolve
 * or reject) before a sync that started after its batch's COMMIT has completed, which is exactly
 * what `synchronous=FULL` guarantees (FULL = NORMAL + a WAL sync after each commit). Meanwhile the
 * next batch may already run and read the previous batch's committed rows: that is safe because its
 * own answers wait for a later sync, which covers both batches, and WAL recovery only ever keeps a
 * prefix of the commit sequence (frames are checksummed cumulatively), so a later batch never
 * survives a crash that loses an earlier one. One sync is in flight at a time; every batch
 * committed meanwhile shares the next one.
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
  /** Descriptor of the `-wal` file synced after commits, or `null` (memory store: COMMIT settles). */
  #walFd: number | null = null;
  /** Settlements of committed batches waiting for the next WAL sync, oldest first. */
  #awaitingSync: Array<(failure: unknown) => void> = [];
  #syncing: Promise<void> | null = null;
  #syncFailed = false;
  #syncs = 0;
  readonly #syncWal: (fd: number, done: (error: Error | null) => void) => void;
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  readonly #savepoint: Database.Statement;
  readonly #release: Database.Statement;
  readonly #rollbackTo: Database.Statement;
  /** The opened file's identity (device and inode), or `null` for a memory store. */
  readonly #file: Pick<Stats, "dev" | "ino"> | null;

  /** Opens and migrates the database at `path`; see {@link openSqliteStore}. */
  constructor(path: string, options: SqliteStoreOptions = {}) {
    this.#db = new Database(path);
    try {
      refuseNewerSchema(this.#db);
    } catch (error) {
      this.#db.close();
      throw error;
    }
    const journal = this.#db.pragma("journal_mode = WAL", { simple: true });
    this.#db.pragma("synchronous = FULL");
    this.#db.pragma("foreign_keys = ON");
    this.#db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    migrate(this.#db);
    this.#tx = new SqliteTx(this.#db);
    this.#maxBatch = Math.max(1, options.maxBatch ?? 256);
    this.#syncWal = options.syncWal ?? fdatasync;
    this.#begin = this.#db.prepare("BEGIN IMMEDIATE");
    this.#commit = this.#db.prepare("COMMIT");
    this.#savepoint = this.#db.prepare("SAVEPOINT unit");
    this.#release = this.#db.prepare("RELEASE unit");
    this.#rollbackTo = this.#db.prepare("ROLLBACK TO unit");
    this.#file = this.#db.memory ? null : identityOf(this.#db.name);
    if (journal === "wal" && !this.#db.memory) this.#walFd = openWalForSync(this.#db.name);
    // Only once this process can sync the log itself may COMMIT stop syncing it.
    if (this.#walFd !== null) this.#db.pragma("synchronous = NORMAL");
  }

  transact<T>(unit: (tx: StoreTx) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new SqliteStoreClosedError());
    if (this.#syncFailed) return Promise.reject(new SqliteStoreSyncError());
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

  /** Completed syncs of the WAL by this store (0 for a memory store); for tests and metrics. */
  get syncs(): number {
    return this.#syncs;
  }

  /**
   * The health probe: one read unit through the queue (so it also waits for the log's next sync,
   * and fails once a sync failed or the store closed), then a check that the path still names the
   * file this store opened (a deleted or replaced file would take writes nobody keeps). Rejects
   * when the store cannot serve.
   */
  async probe(): Promise<void> {
    await this.transact((tx) => tx.getTeam(""));
    const file = this.#file;
    if (file === null) return;
    const now = identityOf(this.#db.name);
    if (now === null || now.dev !== file.dev || now.ino !== file.ino) {
      throw new Error("the data file was moved, replaced or deleted");
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (
      this.#running !== null ||
      this.#queue.length > 0 ||
      this.#scheduled ||
      this.#syncing !== null
    ) {
      if (this.#running !== null) await this.#running;
      else if (this.#syncing !== null) await this.#syncing;
      else await new Promise<void>((r) => setImmediate(r));
    }
    if (this.#walFd !== null) closeSync(this.#walFd);
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
      this.#begin.run();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    let aborted: unknown = null;
    let ran = 0;
    for (const pending of batch) {
      this.#savepoint.run();
      ran += 1;
      try {
        const value = await pending.unit(this.#tx);
        this.#release.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        if (!this.#db.inTransaction) {
          // SQLite rolled the whole transaction back itself (e.g. disk full): nothing survives.
          aborted = error;
          outcomes.push({ ok: false, error });
          break;
        }
        this.#rollbackTo.run();
        this.#release.run();
        outcomes.push({ ok: false, error });
      }
    }
    if (aborted === null) {
      try {
        this.#commit.run();
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
    const settle = (syncFailure: unknown): void => {
      for (let i = 0; i < batch.length; i += 1) {
        const outcome = outcomes[i] as Outcome;
        const pending = batch[i] as PendingUnit;
        if (syncFailure !== null) pending.reject(syncFailure);
        else if (outcome.ok) pending.resolve(outcome.value);
        else pending.reject(outcome.error);
      }
    };
    if (this.#walFd === null) {
      settle(null);
      return;
    }
    // Even a unit that failed or only read waits: its answer may rest on rows not yet durable.
    this.#awaitingSync.push(settle);
    this.#startSync(this.#walFd);
  }

  /** Starts one `fdatasync` of the WAL for every batch committed so far, unless one is running. */
  #startSync(fd: number): void {
    if (this.#syncing !== null || this.#awaitingSync.length === 0) return;
    const group = this.#awaitingSync;
    this.#awaitingSync = [];
    this.#syncing = new Promise<void>((done) => {
      this.#syncWal(fd, (error) => {
        this.#syncing = null;
        if (error !== null) this.#syncFailed = true;
        else this.#syncs += 1;
        const failure = this.#syncFailed ? new SqliteStoreSyncError() : null;
        for (const settle of group) settle(failure);
        done();
        if (this.#syncFailed) {
          for (const settle of this.#awaitingSync.splice(0)) settle(failure);
          for (const pending of this.#queue.splice(0)) pending.reject(failure);
        } else this.#startSync(fd);
      });
    });
  }
}

/** The device and inode `path` names now, or `null` when it names nothing. */
function identityOf(path: string): Pick<Stats, "dev" | "ino"> | null {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats === undefined ? null : { dev: stats.dev, ino: stats.ino };
}

/**
 * Opens the `-wal` file of the database at `path` for `fdatasync`, or `null` when it is absent
 * (then the store keeps `synchronous=FULL`). SQLite keeps this file, same inode, while any
 * connection is open (it deletes it only when the last one closes), so a descriptor opened after
 * migration syncs every frame this connection appends.
 */
function openWalForSync(path: string): number | null {
  try {
    return openSync(`${path}-wal`, "r");
  } catch {
    return null;
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
