import { mkdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../service/index.ts";
import { openSqliteStore } from "../store/sqlite/index.ts";
import { createApp } from "./app.ts";
import { openPrivateDataFile } from "./data-file.ts";
import type { Logger } from "./logger.ts";
import {
  loadOrCreateOperatorKey,
  type OperatorKeyState,
  operatorKeyFileFor,
  type RegistrationMode,
} from "./operator-key.ts";
import type { WatchLimits } from "./watch-registry.ts";

/** How long shutdown lets in-flight requests finish before it closes their connections, ms. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** How often the retention sweep runs, ms (it never deletes before the floors). */
export const GC_INTERVAL_MS: number = 60 * 60 * 1000;

/** Where and how `brigade serve` runs. */
export interface ServeOptions {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /**
   * The SQLite file: a new one is created 0600, its folder 0700 when missing; an existing one (or
   * its -wal/-shm) that is a symlink, not a regular file, foreign or not owner-only is refused
   * with a `DataFileError` (see `openPrivateDataFile`).
   */
  readonly dataFile: string;
  readonly logger: Logger;
  /** Clock, ids and randomness; production uses the system's. */
  readonly deps?: ServiceDeps;
  /**
   * Test-only seam: builds the service over the opened store instead of `new BrigadeService`.
   * Only the conformance positive controls (`src/server/testing/serve-mutant.ts`) pass it, to run
   * a deliberately broken variant; `brigade serve` never does. The store is still closed by `stop`.
   */
  readonly createService?: (store: Store, deps: ServiceDeps) => BrigadeService;
  /**
   * Who may create teams; default `open`. `closed` needs the operator key, whose digest lives in
   * `<data>.operator-key` (created with a new key on the first closed start, see
   * `loadOrCreateOperatorKey`).
   */
  readonly registration?: RegistrationMode;
  /** Caps on open watches and the watch backlog; defaults to `DEFAULT_WATCH_LIMITS`. */
  readonly watchLimits?: WatchLimits;
}

/** A running server. */
export interface RunningServer {
  /** The bound address (the real port when 0 was asked). */
  readonly host: string;
  readonly port: number;
  /** `http://host:port`. */
  readonly url: string;
  /**
   * The watches open now: `streams` counted by the HTTP layer (claimed, not yet released),
   * `subscriptions` held in the service's fan-out. Both return to 0 once every client has gone.
   */
  watchCounts(): { readonly streams: number; readonly subscriptions: number };
  /**
   * The operator key created by this start (closed registration, no key file yet): to be shown
   * once to the operator and never again; only its digest is stored.
   */
  readonly newOperatorKey?: string;
  /**
   * Graceful stop: no new connections; every watcher gets a final `shutdown` event; in-flight
   * requests finish (at most {@link SHUTDOWN_GRACE_MS}); the database is closed. Idempotent.
   */
  stop(): Promise<void>;
}

/**
 * Starts `brigade serve`: opens (or creates and migrates) the SQLite store, builds the service and
 * the HTTP app, listens, and schedules the retention sweep.
 *
 * @example const server = await startServer({ host: "127.0.0.1", port: 0, dataFile, logger });
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  mkdirSync(dirname(options.dataFile), { recursive: true, mode: 0o700 });
  // Message bodies are private: the file and its -wal/-shm are owner-only or refused.
  const store = openPrivateDataFile(options.dataFile, (path) => openSqliteStore(path));
  const keyFile = operatorKeyFileFor(options.dataFile);
  let operatorKey: OperatorKeyState | undefined;
  try {
    operatorKey = options.registration === "closed" ? loadOrCreateOperatorKey(keyFile) : undefined;
  } catch (error) {
    await store.close();
    throw error;
  }
  const deps = options.deps ?? systemDeps();
  const service = options.createService?.(store, deps) ?? new BrigadeService(store, deps);
  const app = createApp(service, {
    logger: options.logger,
    clientAddress: (c) => getConnInfo(c).remote.address ?? "unknown",
    registration:
      operatorKey === undefined
        ? { mode: "open" }
        : { mode: "closed", operatorKeyDigest: operatorKey.digest },
    ...(options.watchLimits === undefined ? {} : { watchLimits: options.watchLimits }),
  });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: options.host });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    // A key nobody was shown must not lock the operator out on the next start.
    if (operatorKey?.newKey !== undefined) rmSync(keyFile, { force: true });
    await store.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.address.includes(":") ? `[${address.address}]` : address.address;
  options.logger.log("info", "listening", { host: address.address, port: address.port });

  const sweep = async (): Promise<void> => {
    try {
      const counts = await service.collectGarbage();
      options.logger.log("info", "retention_sweep", { ...counts });
    } catch (error) {
      options.logger.log("error", "retention_sweep_failed", {
        error: error instanceof Error ? error.name : "unknown",
      });
    }
  };
  const gcTimer = setInterval(() => void sweep(), GC_INTERVAL_MS);
  gcTimer.unref();

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(gcTimer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      app.watches.shutdownAll();
      if ("closeIdleConnections" in server) server.closeIdleConnections();
      const grace = new Promise<"timeout">((resolve) => {
        setTimeout(() => resolve("timeout"), SHUTDOWN_GRACE_MS).unref();
      });
      if ((await Promise.race([closed, grace])) === "timeout" && "closeAllConnections" in server) {
        server.closeAllConnections();
        await closed;
      }
      await store.close();
      options.logger.log("info", "stopped");
    })();
    return stopping;
  };

  return {
    host: address.address,
    port: address.port,
    url: `http://${host}:${address.port}`,
    watchCounts: () => ({
      streams: app.watches.size,
      subscriptions: service.watchSubscriptionCount,
    }),
    stop,
    ...(operatorKey?.newKey === undefined ? {} : { newOperatorKey: operatorKey.newKey }),
  };
}
