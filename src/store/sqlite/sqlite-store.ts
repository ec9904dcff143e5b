import { closeSync, fdatasync, fstatSync, openSync, type Stats, statSync } from "node:fs";
import Database from "better-sqlite3";
import type {
  AckCommand,
  AckOutcome,
  FetchCommand,
  FetchOutcome,
  SendCommand,
  SendOutcome,
  Store,
  StoreTx,
} from "../../service/store.ts";
import { migrate, refuseNewerSchema } from "./schema.ts";
import { prepareSqliteSend } from "./sqlite-send.ts";
import { prepareSqliteSessionOps, type SqliteSessionOps } from "./sqlite-session-ops.ts";
import { SqliteTx } from "./sqlite-tx.ts";
import { WalCheckpointer, type WalCheckpointerOptions } from "./wal-checkpointer.ts";

/** SQLite's own automatic checkpoint threshold, in log pages: what a connection runs without a worker. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/** A `BEGIN IMMEDIATE` that meets another connection's write lock is tried again after this, ms. */
const BUSY_RETRY_MS = 2;

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** Most units committed by one physical transaction; default 256. */
  maxBatch?: number;
  /**
   * Milliseconds a batch waits for another connection's write lock (retried off the event loop,
   * never blocking it) before its units fail; default 5000.
   */
  busyTimeoutMs?: number;
  /**
   * Where the write-ahead log is copied into the database file (a file store only): on a worker
   * thread (`WalCheckpointer`), started once the log first reaches `startLogBytes` (default
   * 1 MiB, so a store that writes little never starts a thread), with the worker's own pacing; or
   * `false`: by SQLite on the committing connection, as it does by default.
   */
  checkpointer?: false | (WalCheckpointerOptions & { readonly startLogBytes?: number });
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
  /** Settle only after a sync that starts after this unit's batch, even if nothing was written. */
  forceSync: boolean;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Units that may settle once the log is durable up to `seq` (see `SqliteStore`'s syncing). */
interface SyncWaiter {
  readonly seq: number;
  readonly settle: (failure: unknown) => void;
}

/**
 * A {@link Store} on one SQLite file (or `":memory:"`) with group commit: units submitted while a
 * batch is pending are run, each inside its own SAVEPOINT, by one `BEGIN IMMEDIATE … COMMIT` on the
 * next `setImmediate` turn. A unit that throws rolls back only its own savepoint.
 *
 * Durability without blocking the event loop: a file store runs WAL with `synchronous=NORMAL`
 * (COMMIT appends the batch's frames to the `-wal` file without syncing) and then syncs that file
 * itself with an asynchronous `fdatasync` on libuv's thread pool. No unit's promise settles (resolve
 * or reject) before every commit its answer may rest on is durable: a unit that wrote, or ran after
 * another unit of its batch wrote, waits for a sync that started after its batch's COMMIT, which is
 * exactly what `synchronous=FULL` guarantees (FULL = NORMAL + a WAL sync after each commit); a unit
 * that read only, in a batch where nothing was written before it, read nothing but earlier commits,
 * so it waits only until those are synced (often at once, which is what keeps a watch's read of
 * a message just stored from waiting for another sync). Meanwhile the next batch may already run
 * and read the previous batch's committed rows: that is safe because its own answers wait for the
 * sync of what it read, and WAL recovery only ever keeps a prefix of the commit sequence (frames
 * are checksummed cumulatively), so a later batch never survives a crash that loses an earlier
 * one. One sync is in flight at a time; every batch committed meanwhile shares the next one.
 * Whether a unit wrote is SQLite's own count of changed rows (`total_changes()`), so no write can
 * be missed, whatever the unit did.
 */
export class SqliteStore implements Store {
  readonly #db: Database.Database;
  readonly #tx: SqliteTx;
  readonly #maxBatch: number;
  #queue: PendingUnit[] = [];
  #scheduled = false;
  readonly #busyTimeoutMs: number;
  /** When the current batch first met another connection's write lock (ms), or `null`. */
  #busySince: number | null = null;
  /** The checkpointer when one runs; `null` before it starts, `false` when none will. */
  #checkpointer: WalCheckpointer | null | false = null;
  readonly #checkpointerOptions: WalCheckpointerOptions & { readonly startLogBytes?: number };
  #running: Promise<void> | null = null;
  #closed = false;
  #commits = 0;
  /** Descriptor of the `-wal` file synced after commits, or `null` (memory store: COMMIT settles). */
  #walFd: number | null = null;
  /** Committed batches that wrote (or forced a sync), counted from the store's opening. */
  #writeSeq = 0;
  /** The value of `#writeSeq` covered by the last completed sync: that much of the log is durable. */
  #durableSeq = 0;
  /** Units waiting for the log to be durable up to their `seq`, oldest (lowest seq) first. */
  #awaitingSync: SyncWaiter[] = [];
  #syncing: Promise<void> | null = null;
  #syncFailed = false;
  #syncs = 0;
  readonly #syncWal: (fd: number, done: (error: Error | null) => void) => void;
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  readonly #savepoint: Database.Statement;
  readonly #release: Database.Statement;
  readonly #rollbackTo: Database.Statement;
  /** `SELECT total_changes()`: rows changed by this connection so far (never decreases). */
  readonly #totalChanges: Database.Statement;
  readonly #send: (command: SendCommand) => SendOutcome;
  readonly #sessionOps: SqliteSessionOps;
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
    this.#busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
    this.#db.pragma(`busy_timeout = ${this.#busyTimeoutMs}`);
    migrate(this.#db);
    // From here on a busy write lock is waited for by rescheduling the batch, never by sleeping
    // on the event loop (see #runBatch).
    this.#db.pragma("busy_timeout = 0");
    this.#tx = new SqliteTx(this.#db);
    this.#maxBatch = Math.max(1, options.maxBatch ?? 256);
    this.#syncWal = options.syncWal ?? fdatasync;
    this.#begin = this.#db.prepare("BEGIN IMMEDIATE");
    this.#commit = this.#db.prepare("COMMIT");
    this.#savepoint = this.#db.prepare("SAVEPOINT unit");
    this.#release = this.#db.prepare("RELEASE unit");
    this.#rollbackTo = this.#db.prepare("ROLLBACK TO unit");
    this.#totalChanges = this.#db.prepare("SELECT total_changes()").pluck();
    this.#send = prepareSqliteSend(this.#db);
    this.#sessionOps = prepareSqliteSessionOps(this.#db);
    this.#file = this.#db.memory ? null : identityOf(this.#db.name);
    if (journal === "wal" && !this.#db.memory) this.#walFd = openWalForSync(this.#db.name);
    // Only once this process can sync the log itself may COMMIT stop syncing it.
    if (this.#walFd !== null) this.#db.pragma("synchronous = NORMAL");
    if (options.checkpointer === false || this.#walFd === null) this.#checkpointer = false;
    this.#checkpointerOptions = options.checkpointer === false ? {} : (options.checkpointer ?? {});
  }

  transact<T>(unit: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.#enqueue(unit, false);
  }

  /**
   * `message send` as one unit of two statements (`prepareSqliteSend`) instead of a dozen
   * unit-of-work calls, at `command.now`; the same answers as the service's `sendInTx`.
   */
  sendMessage(command: SendCommand): Promise<SendOutcome> {
    return this.#enqueue(async () => this.#send(command), false);
  }

  /** A watch's fetch as one unit of a few statements (`prepareSqliteSessionOps`). */
  fetchMessages(command: FetchCommand): Promise<FetchOutcome> {
    return this.#enqueue(async () => this.#sessionOps.fetch(command), false);
  }

  /** `message ack` as one unit of a few statements (`prepareSqliteSessionOps`). */
  ackMessages(command: AckCommand): Promise<AckOutcome> {
    return this.#enqueue(async () => this.#sessionOps.ack(command), false);
  }

  #enqueue<T>(unit: (tx: StoreTx) => Promise<T>, forceSync: boolean): Promise<T> {
    if (this.#closed) return Promise.reject(new SqliteStoreClosedError());
    if (this.#syncFailed) return Promise.reject(new SqliteStoreSyncError());
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        unit,
        resolve: resolve as (value: unknown) => void,
        reject,
        forceSync,
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
   * The health probe: one read unit through the queue that waits for a sync of the log started
   * after it (so a disk that no longer syncs fails it even while nothing is written, and it fails
   * once a sync failed or the store closed), then a check that the path still names the file this
   * store opened (a deleted or replaced file would take writes nobody keeps). Rejects when the
   * store cannot serve.
   */
  async probe(): Promise<void> {
    await this.#enqueue((tx) => tx.getTeam(""), true);
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
    // The committing connection closes last: SQLite then checkpoints the whole log and removes it.
    if (this.#checkpointer instanceof WalCheckpointer) await this.#checkpointer.stop();
    if (this.#walFd !== null) closeSync(this.#walFd);
    this.#db.close();
  }

  #schedule(): void {
    if (this.#scheduled || this.#running !== null) return;
    this.#scheduled = true;
    const run = (): void => {
      this.#scheduled = false;
      this.#running = this.#runBatch().finally(() => {
        this.#running = null;
        if (this.#queue.length > 0) this.#schedule();
      });
    };
    // A batch that met a busy write lock waits a moment on a timer; the event loop runs on.
    if (this.#busySince === null) setImmediate(run);
    else setTimeout(run, BUSY_RETRY_MS);
  }

  async #runBatch(): Promise<void> {
    const batch = this.#queue.splice(0, this.#maxBatch);
    if (batch.length === 0) return;
    const outcomes: Outcome[] = [];
    const changesBefore = this.#totalChanges.get() as number;
    try {
      this.#begin.run();
    } catch (error) {
      const now = Date.now();
      this.#busySince ??= now;
      if (isBusy(error) && now - this.#busySince < this.#busyTimeoutMs) {
        this.#queue.unshift(...batch);
        return;
      }
      this.#busySince = null;
      for (const pending of batch) pending.reject(error);
      return;
    }
    this.#busySince = null;
    let aborted: unknown = null;
    let ran = 0;
    /** How many units at the batch's start ran while nothing had been written in it. */
    let clean = 0;
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
      if (clean === ran - 1 && (this.#totalChanges.get() as number) === changesBefore) clean = ran;
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
    const settle = (from: number, to: number) => (syncFailure: unknown) => {
      for (let i = from; i < to; i += 1) {
        const outcome = outcomes[i] as Outcome;
        const pending = batch[i] as PendingUnit;
        if (syncFailure !== null) pending.reject(syncFailure);
        else if (outcome.ok) pending.resolve(outcome.value);
        else pending.reject(outcome.error);
      }
    };
    if (this.#walFd === null) {
      settle(0, batch.length)(null);
      return;
    }
    // What the clean units read was committed by earlier batches; everything else in this batch
    // (a unit that wrote, or ran after a write) may rest on this batch's own commit. A probe
    // counts as a write: it asks for a sync of its own.
    const earlier = this.#writeSeq;
    const wrote = clean < batch.length || batch.some((pending) => pending.forceSync);
    if (wrote) {
      this.#writeSeq += 1;
      this.#startCheckpointerWhenDue(this.#walFd);
    }
    const firstDirty = wrote ? Math.min(clean, firstForced(batch)) : batch.length;
    this.#whenDurable(earlier, settle(0, firstDirty));
    if (firstDirty < batch.length)
      this.#whenDurable(this.#writeSeq, settle(firstDirty, batch.length));
    this.#startSync(this.#walFd);
  }

  /**
   * Hands checkpoints to a worker thread once the log first reaches `startLogBytes`, and turns the
   * connection's own off; if the worker fails, they are turned back on.
   */
  #startCheckpointerWhenDue(walFd: number): void {
    if (this.#checkpointer !== null) return;
    const start = this.#checkpointerOptions.startLogBytes ?? 1_048_576;
    if (fstatSync(walFd).size < start) return;
    this.#checkpointer = WalCheckpointer.start(this.#db.name, {
      ...this.#checkpointerOptions,
      onFailure: () => {
        if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
      },
    });
    this.#db.pragma("wal_autocheckpoint = 0");
  }

  /** Calls `settle` once the log is durable up to `seq`: now, or after the sync that covers it. */
  #whenDurable(seq: number, settle: (failure: unknown) => void): void {
    if (seq <= this.#durableSeq) settle(null);
    else this.#awaitingSync.push({ seq, settle });
  }

  /**
   * Starts one `fdatasync` of the WAL covering every batch committed so far, when a unit waits for
   * a commit not yet synced and no sync is running.
   */
  #startSync(fd: number): void {
    if (this.#syncing !== null) return;
    if (!this.#awaitingSync.some((waiter) => waiter.seq > this.#durableSeq)) return;
    const covers = this.#writeSeq;
    this.#syncing = new Promise<void>((done) => {
      this.#syncWal(fd, (error) => {
        this.#syncing = null;
        if (error !== null) this.#syncFailed = true;
        else {
          this.#syncs += 1;
          this.#durableSeq = covers;
        }
        if (this.#syncFailed) {
          const failure = new SqliteStoreSyncError();
          for (const waiter of this.#awaitingSync.splice(0)) waiter.settle(failure);
          for (const pending of this.#queue.splice(0)) pending.reject(failure);
        } else {
          const ready = this.#awaitingSync.filter((waiter) => waiter.seq <= covers);
          this.#awaitingSync = this.#awaitingSync.filter((waiter) => waiter.seq > covers);
          for (const waiter of ready) waiter.settle(null);
        }
        done();
        if (!this.#syncFailed) this.#startSync(fd);
      });
    });
  }
}

/** Whether `error` is SQLite's "another connection holds the lock" (any `SQLITE_BUSY` variant). */
function isBusy(error: unknown): boolean {
  return (
    error instanceof Error &&
    "code" in error &&
    typeof error.code === "string" &&
    error.code.startsWith("SQLITE_BUSY")
  );
}

/** The index of the first unit of `batch` that forces a sync, or the batch's length. */
function firstForced(batch: readonly PendingUnit[]): number {
  const index = batch.findIndex((pending) => pending.forceSync);
  return index < 0 ? batch.length : index;
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
