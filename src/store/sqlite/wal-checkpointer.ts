import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How a {@link WalCheckpointer} paces itself, and what its owner hears. */
export interface WalCheckpointerOptions {
  /** Called once if the worker ends without being stopped (it failed): the owner takes over. */
  readonly onFailure?: () => void;
  /** How often the worker copies the log into the database, ms; default 20. */
  readonly intervalMs?: number;
  /**
   * Log frames (pages) from which the worker starts the log over once all of them are in the
   * database; default 4096 (16 MiB of 4 KiB pages).
   */
  readonly restartFrames?: number;
}

/** Defaults of {@link WalCheckpointerOptions}. */
export const WAL_CHECKPOINTER_DEFAULTS: Readonly<{ intervalMs: number; restartFrames: number }> =
  Object.freeze({ intervalMs: 20, restartFrames: 4096 });

/**
 * The worker's program, plain JavaScript (a worker thread runs no TypeScript, and this file is
 * also run from the sources by the tests). Every `intervalMs` it runs a PASSIVE checkpoint (which
 * takes no lock a writer needs); once the log holds `restartFrames` frames and all are copied, a
 * RESTART checkpoint, which briefly takes the write lock to start the log over. Its connection
 * never waits for a lock (`busy_timeout = 0`): a checkpoint that meets one is tried again on the
 * next tick. `synchronous = NORMAL` makes every checkpoint sync the log before it copies and the
 * database after, so no page of a commit that is not yet durable reaches the database file.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("busy_timeout = 0");
db.pragma("synchronous = NORMAL");
let timer = null;
const checkpoint = (mode) => {
  try {
    const [row] = db.pragma("wal_checkpoint(" + mode + ")");
    return row;
  } catch {
    return { busy: 1, log: -1, checkpointed: -1 };
  }
};
const tick = () => {
  const passive = checkpoint("PASSIVE");
  if (passive.busy === 0 && passive.log >= workerData.restartFrames && passive.checkpointed === passive.log) {
    checkpoint("RESTART");
  }
  timer = setTimeout(tick, workerData.intervalMs);
};
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
timer = setTimeout(tick, workerData.intervalMs);
`;

/**
 * Copies a SQLite database's write-ahead log into the database file on a worker thread with its
 * own connection, so the event loop never runs a checkpoint: a checkpoint writes every page
 * changed since the last one and syncs the file twice, which on the connection that commits
 * stalls every request behind it for milliseconds (SQLite runs one after a commit once the log
 * holds 1,000 pages). The owner turns its own automatic checkpoints off while this runs, and back
 * on if the worker fails (`onFailure`). While the worker starts the log over, the owner's
 * `BEGIN IMMEDIATE` meets `SQLITE_BUSY` for a moment and must retry without blocking.
 *
 * @example
 * const checkpointer = WalCheckpointer.start("/var/lib/brigade/brigade.sqlite");
 * await checkpointer.stop();
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #stopping = false;
  #ended = false;

  private constructor(worker: Worker, onFailure: (() => void) | undefined) {
    this.#worker = worker;
    this.#exited = new Promise<void>((resolve) => {
      worker.once("exit", () => {
        this.#ended = true;
        if (!this.#stopping) onFailure?.();
        resolve();
      });
    });
    // A worker that fails (the file went away, a read error) just ends; its owner takes over.
    worker.on("error", () => {});
    // An idle checkpointer must not keep a process alive on its own.
    worker.unref();
  }

  /** Starts checkpointing the database at `path` (an existing file in WAL mode). */
  static start(path: string, options: WalCheckpointerOptions = {}): WalCheckpointer {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver,
        path,
        intervalMs: options.intervalMs ?? WAL_CHECKPOINTER_DEFAULTS.intervalMs,
        restartFrames: options.restartFrames ?? WAL_CHECKPOINTER_DEFAULTS.restartFrames,
      },
    });
    return new WalCheckpointer(worker, options.onFailure);
  }

  /** Whether the worker has ended (stopped, or failed). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Stops the worker and closes its connection; resolves once the thread has exited. */
  async stop(): Promise<void> {
    if (!this.#ended && !this.#stopping) {
      this.#stopping = true;
      this.#worker.postMessage("stop");
    }
    await this.#exited;
  }
}
