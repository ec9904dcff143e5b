import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How a {@link WalCheckpointer} paces itself, and what its owner hears. */
export interface WalCheckpointerOptions {
  /** Called once if the worker ends without being stopped (it failed): the owner takes over. */
  readonly onFailure?: () => void;
  /**
   * The shortest and longest pause between two checkpoints, ms; defaults 20 and 1000. The worker
   * adapts between them so that a checkpoint copies about `targetFrames` pages: it halves the
   * pause after copying more than twice that, and doubles it after copying less than half.
   */
  readonly minIntervalMs?: number;
  readonly maxIntervalMs?: number;
  /** Log pages one checkpoint should copy; default 1000 (SQLite's own checkpoint threshold). */
  readonly targetFrames?: number;
  /**
   * Log frames (pages) from which the worker starts the log over once all of them are in the
   * database; default 4096 (16 MiB of 4 KiB pages).
   */
  readonly restartFrames?: number;
}

/** Defaults of {@link WalCheckpointerOptions}. */
export const WAL_CHECKPOINTER_DEFAULTS: Readonly<{
  minIntervalMs: number;
  maxIntervalMs: number;
  targetFrames: number;
  restartFrames: number;
}> = Object.freeze({
  minIntervalMs: 20,
  maxIntervalMs: 1000,
  targetFrames: 1000,
  restartFrames: 4096,
});

/**
 * The worker's program, plain JavaScript (a worker thread runs no TypeScript, and this file is
 * also run from the sources by the tests). After each pause it runs a PASSIVE checkpoint (which
 * takes no lock a writer needs), and adapts the pause to how much it copied (a checkpoint of a
 * few pages would cost its two syncs for little); once the log holds `restartFrames` frames and
 * all are copied, a RESTART checkpoint, which briefly takes the write lock to start the log over. Its connection
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
let pause = workerData.minIntervalMs;
let copiedBefore = 0;
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
  if (passive.busy === 0) {
    // The log starts over after a RESTART: what this checkpoint copied is then all it reports.
    const copied = passive.checkpointed >= copiedBefore ? passive.checkpointed - copiedBefore : passive.checkpointed;
    copiedBefore = passive.checkpointed;
    if (copied > 2 * workerData.targetFrames) pause = Math.max(workerData.minIntervalMs, pause / 2);
    else if (copied < workerData.targetFrames / 2) pause = Math.min(workerData.maxIntervalMs, pause * 2);
    if (passive.log >= workerData.restartFrames && passive.checkpointed === passive.log) {
      if (checkpoint("RESTART").busy === 0) copiedBefore = 0;
    }
  }
  timer = setTimeout(tick, pause);
};
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
timer = setTimeout(tick, pause);
`;

/** The pacing members of `options` that are set. */
function pacing(options: WalCheckpointerOptions): Partial<typeof WAL_CHECKPOINTER_DEFAULTS> {
  const { minIntervalMs, maxIntervalMs, targetFrames, restartFrames } = options;
  return {
    ...(minIntervalMs === undefined ? {} : { minIntervalMs }),
    ...(maxIntervalMs === undefined ? {} : { maxIntervalMs }),
    ...(targetFrames === undefined ? {} : { targetFrames }),
    ...(restartFrames === undefined ? {} : { restartFrames }),
  };
}

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
      workerData: { driver, path, ...WAL_CHECKPOINTER_DEFAULTS, ...pacing(options) },
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
