import { existsSync, mkdirSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo, Server } from "node:net";
import { dirname } from "node:path";
import { createAdaptorServer, getRequestListener } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { brigadeVersion } from "../local-files/index.ts";
import {
  BrigadeService,
  type ServiceDeps,
  type ServiceOptions,
  type Store,
  systemDeps,
} from "../service/index.ts";
import { openPostgresStore } from "../store/postgres/index.ts";
import { openSqliteStore } from "../store/sqlite/index.ts";
import { createApp, type StoreKind } from "./app.ts";
import {
  clientAddressOf,
  forwardedProtoOf,
  type ProxyTrust,
  TRUST_NO_PROXY,
} from "./client-address.ts";
import { DataFileError, openPrivateDataFile } from "./data-file.ts";
import { listen } from "./listen.ts";
import type { Logger } from "./logger.ts";
import { listenerErrorResponse } from "./malformed-request.ts";
import { createMetricsApp } from "./metrics-app.ts";
import { OpenConnections } from "./open-connections.ts";
import {
  loadOrCreateOperatorKey,
  type OperatorKeyState,
  operatorKeyFileFor,
  type RegistrationMode,
} from "./operator-key.ts";
import { httpServerTimeouts, type RequestTimeouts } from "./request-timeouts.ts";
import {
  attachmentSettingsOf,
  DEFAULT_SERVER_LIMITS,
  requestTimeoutsOf,
  type ServerLimits,
} from "./server-limits.ts";
import { ServerMetrics } from "./server-metrics.ts";
import { StoreHealth, type StoreProbe } from "./store-health.ts";
import { loadTlsPair, TlsFileError, type TlsFileErrorCode, type TlsFiles } from "./tls-files.ts";

/**
 * How long shutdown lets requests being answered finish before it closes their connections, ms.
 * Every other connection (idle, a header never finished, a TLS handshake) is closed at once.
 */
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
  /**
   * Create the data file's missing folders (0700); default true. False refuses a missing folder
   * with `DataFileError` `data_folder_missing` (`brigade serve --data`: a typo must not quietly
   * start a second, empty team database somewhere else).
   */
  readonly createDataFolder?: boolean;
  /**
   * A `postgres://user:password@host:port/database` address: the server runs on that PostgreSQL
   * database instead of the SQLite file (`dataFile` then only locates the operator key file).
   * Absent: SQLite.
   */
  readonly store?: string;
  /** How long a PostgreSQL store that does not answer at start is retried, ms; default 0. */
  readonly storeWaitMs?: number;
  readonly logger: Logger;
  /** Clock, ids and randomness; production uses the system's. */
  readonly deps?: ServiceDeps;
  /**
   * Test-only seam: builds the service over the opened store instead of `new BrigadeService`.
   * Only the conformance positive controls (`src/server/testing/serve-mutant.ts`) pass it, to run
   * a deliberately broken variant; `brigade serve` never does. The store is still closed by `stop`.
   */
  readonly createService?: (
    store: Store,
    deps: ServiceDeps,
    options: ServiceOptions,
  ) => BrigadeService;
  /**
   * Who may create teams; default `open`. `closed` needs the operator key, whose digest lives in
   * `<data>.operator-key` (created with a new key on the first closed start, see
   * `loadOrCreateOperatorKey`).
   */
  readonly registration?: RegistrationMode;
  /**
   * On PostgreSQL (`store`), a closed start makes a new operator key only when this is true; a
   * missing key file is otherwise refused (`operator_key_file_missing`): every process of one
   * database must share one key file, so none may quietly make its own. SQLite ignores it (its
   * first closed start always makes the key).
   */
  readonly createOperatorKey?: boolean;
  /**
   * The settable limits (`brigade serve --limit`: principal minting, watch caps and backlog);
   * defaults to `DEFAULT_SERVER_LIMITS`.
   */
  readonly limits?: ServerLimits;
  /**
   * How long a client may take to send a request; defaults to the limits' `request_seconds`
   * (`requestTimeoutsOf`), 30 s unless set.
   */
  readonly requestTimeouts?: RequestTimeouts;
  /**
   * Serve HTTPS with this certificate chain and key (PEM files), checked before anything else
   * starts (`TlsFileError`); {@link RunningServer.reloadTls} reads them again.
   */
  readonly tls?: TlsFiles;
  /** Whose `X-Forwarded-For` names the client (`--trust-proxy`); default: nobody's. */
  readonly trustProxy?: ProxyTrust;
  /** Where to serve `GET /metrics` (a plain-HTTP listener of its own); default: nowhere. */
  readonly metrics?: { readonly host: string; readonly port: number };
}

/** The outcome of {@link RunningServer.reloadTls}. */
export type TlsReload =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: TlsFileErrorCode | "tls_not_enabled" };

/** A running server. */
export interface RunningServer {
  /** The bound address (the real port when 0 was asked). */
  readonly host: string;
  readonly port: number;
  /** `http://host:port`, or `https://…` with TLS. */
  readonly url: string;
  /** The version this server reports (the package's). */
  readonly version: string;
  /** `http://host:port/metrics` when metrics are served. */
  readonly metricsUrl?: string;
  /**
   * Reads the TLS files again and, when they form a valid pair, serves them to every new
   * connection (open ones keep theirs). A bad pair changes nothing: the old one stays in use and
   * the reason is returned (and logged as `tls_reload_failed`).
   */
  reloadTls(): TlsReload;
  /** The store it runs on: its kind and where, without any password. */
  readonly store: { readonly kind: StoreKind; readonly display: string };
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
   * Graceful stop: no new connections; every watcher gets a final `shutdown` event; connections
   * without a request being answered (idle, a header half sent) close at once; requests being
   * answered finish (at most {@link SHUTDOWN_GRACE_MS}), then their connections close; the
   * database is closed. Idempotent.
   */
  stop(): Promise<void>;
}

interface OpenedStore {
  readonly store: Store;
  readonly kind: StoreKind;
  readonly display: string;
  /** Asks the store whether it can serve (`/v1/health`). */
  readonly probe: StoreProbe;
}

/**
 * Opens the store `options` name: PostgreSQL (waiting for it up to `storeWaitMs`) or the SQLite
 * file, whose folder is created 0700 and whose file (and -wal/-shm) must be owner-only, since
 * message bodies are private.
 */
async function openStore(options: ServeOptions): Promise<OpenedStore> {
  if (options.store !== undefined) {
    const store = await openPostgresStore(options.store, {
      startWaitMs: options.storeWaitMs ?? 0,
      log: options.logger,
    });
    return {
      store,
      kind: "postgres",
      display: store.display,
      probe: (timeoutMs) => store.probe(timeoutMs),
    };
  }
  ensureDataFolder(options);
  // Message bodies are private: the file and its -wal/-shm are owner-only or refused.
  const store = openPrivateDataFile(options.dataFile, (path) => openSqliteStore(path));
  return { store, kind: "sqlite", display: options.dataFile, probe: () => store.probe() };
}

/**
 * Creates the data file's folder (0700) when it is ours to create; a folder the operator named
 * must exist (`DataFileError` `data_folder_missing`).
 */
function ensureDataFolder(options: ServeOptions): void {
  if (options.createDataFolder === false) {
    if (!existsSync(dirname(options.dataFile))) throw new DataFileError("data_folder_missing");
  } else mkdirSync(dirname(options.dataFile), { recursive: true, mode: 0o700 });
}

/**
 * Starts `brigade serve`: opens (or creates and migrates) the store (SQLite, or PostgreSQL with
 * `store`), builds the service and
 * the HTTP app, listens, and schedules the retention sweep.
 *
 * @example const server = await startServer({ host: "127.0.0.1", port: 0, dataFile, logger });
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  // Checked first: a bad certificate must not leave a data file or an operator key behind.
  const tlsPair = options.tls === undefined ? undefined : loadTlsPair(options.tls);
  const opened = await openStore(options);
  const stored = opened.store;
  const keyFile = operatorKeyFileFor(options.dataFile);
  let operatorKey: OperatorKeyState | undefined;
  try {
    if (options.registration === "closed") {
      ensureDataFolder(options);
      operatorKey = loadOrCreateOperatorKey(keyFile, {
        create: options.store === undefined || options.createOperatorKey === true,
      });
    }
  } catch (error) {
    await stored.close();
    throw error;
  }
  const version = brigadeVersion();
  let watchStreams = (): number => 0;
  const limits = options.limits ?? DEFAULT_SERVER_LIMITS;
  const metrics =
    options.metrics === undefined
      ? undefined
      : new ServerMetrics(version, () => watchStreams(), limits);
  const store = metrics?.timed(stored) ?? stored;
  const deps = options.deps ?? systemDeps();
  const serviceOptions: ServiceOptions = { attachments: attachmentSettingsOf(limits) };
  const service =
    options.createService?.(store, deps, serviceOptions) ??
    new BrigadeService(store, deps, serviceOptions);
  const trust = options.trustProxy ?? TRUST_NO_PROXY;
  const health = new StoreHealth(opened.probe, {
    onChange: (verdict) => {
      if (verdict.ok) options.logger.log("info", "store_healthy", { store: opened.kind });
      else
        options.logger.log("warn", "store_unhealthy", {
          store: opened.kind,
          reason: verdict.reason,
        });
    },
  });
  const app = createApp(service, {
    logger: options.logger,
    storeKind: opened.kind,
    storeHealth: () => health.check(),
    clientAddress: (c) =>
      clientAddressOf(getConnInfo(c).remote.address, c.req.header("x-forwarded-for"), trust),
    forwardedProto: (c) =>
      forwardedProtoOf(getConnInfo(c).remote.address, c.req.header("x-forwarded-proto"), trust),
    tls: options.tls !== undefined,
    registration:
      operatorKey === undefined
        ? { mode: "open" }
        : { mode: "closed", operatorKeyDigest: operatorKey.digest },
    version,
    ...(metrics === undefined ? {} : { metrics }),
    limits,
  });
  watchStreams = () => app.watches.size;
  const listener = getRequestListener(app.fetch, {
    hostname: options.host,
    // A request no URL can be made of never reaches the app; it still gets an envelope.
    errorHandler: (error) => {
      const response = listenerErrorResponse(error);
      if (response.status === 500) {
        const name = error instanceof Error ? error.name : typeof error;
        options.logger.log("error", "request_failed", { route: "", error: name });
      }
      return response;
    },
  });
  const timeouts = httpServerTimeouts(options.requestTimeouts ?? requestTimeoutsOf(limits));
  const server =
    tlsPair === undefined
      ? createHttpServer(timeouts, listener)
      : createHttpsServer({ ...tlsPair, ...timeouts }, listener);
  const connections = new OpenConnections(server);
  const metricsServer =
    metrics === undefined
      ? undefined
      : createAdaptorServer({ fetch: createMetricsApp(metrics).fetch });
  try {
    await listen(server, options.host, options.port, "api");
    if (metricsServer !== undefined && options.metrics !== undefined) {
      await listen(metricsServer, options.metrics.host, options.metrics.port, "metrics");
    }
  } catch (error) {
    server.close();
    // A key nobody was shown must not lock the operator out on the next start.
    if (operatorKey?.newKey !== undefined) rmSync(keyFile, { force: true });
    await store.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  options.logger.log("info", "listening", {
    host: address.address,
    port: address.port,
    tls: tlsPair !== undefined,
    store: opened.kind,
    store_location: opened.display,
  });
  const metricsUrl =
    metricsServer === undefined ? undefined : `${urlOf(metricsServer, "http")}/metrics`;

  const reloadTls = (): TlsReload => {
    if (options.tls === undefined) return { ok: false, reason: "tls_not_enabled" };
    try {
      (server as HttpsServer).setSecureContext({ ...loadTlsPair(options.tls) });
    } catch (error) {
      const reason = error instanceof TlsFileError ? error.code : "tls_cert_invalid";
      options.logger.log("error", "tls_reload_failed", { reason });
      return { ok: false, reason };
    }
    options.logger.log("info", "tls_reloaded");
    return { ok: true };
  };

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
      if (metricsServer !== undefined) {
        metricsServer.close();
        if ("closeAllConnections" in metricsServer) metricsServer.closeAllConnections();
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      app.watches.shutdownAll();
      app.dashboard.streams.shutdownAll();
      // Idle, half-sent and handshaking connections go now; a request being answered finishes.
      connections.closeUnanswered();
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
    url: urlOf(server, tlsPair === undefined ? "http" : "https"),
    version,
    reloadTls,
    ...(metricsUrl === undefined ? {} : { metricsUrl }),
    store: { kind: opened.kind, display: opened.display },
    watchCounts: () => ({
      streams: app.watches.size,
      subscriptions: service.watchSubscriptionCount,
    }),
    stop,
    ...(operatorKey?.newKey === undefined ? {} : { newOperatorKey: operatorKey.newKey }),
  };
}

/** `scheme://host:port` of a bound listener, an IPv6 host in brackets. */
function urlOf(server: Server, scheme: "http" | "https"): string {
  const address = server.address() as AddressInfo;
  const host = address.address.includes(":") ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
}
