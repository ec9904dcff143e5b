import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { StoreUnavailableError } from "../service/index.ts";
import {
  connectFailureCode,
  connectRefusal,
  PostgresSchemaError,
  parsePostgresUrl,
} from "../store/postgres/index.ts";
import { SqliteSchemaError } from "../store/sqlite/index.ts";
import {
  hasWideTrustedRange,
  LOOPBACK_PROXIES,
  type ProxyTrust,
  trustProxies,
} from "./client-address.ts";
import { DataFileError } from "./data-file.ts";
import { ListenError } from "./listen.ts";
import { jsonLogger, type LogLevel } from "./logger.ts";
import {
  OperatorKeyFileError,
  operatorKeyFileFor,
  REGISTRATION_MODES,
  type RegistrationMode,
} from "./operator-key.ts";
import { type RunningServer, type ServeOptions, startServer } from "./serve.ts";
import { changedLimits, parseServerLimits } from "./server-limits.ts";
import { TlsFileError } from "./tls-files.ts";

/** The option table of `node:util` `parseArgs`. */
type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** Defaults of `brigade serve`. */
export const SERVE_DEFAULTS: { readonly host: string; readonly port: number } = {
  host: "127.0.0.1",
  port: 7777,
};

/**
 * The start-up warning for a `--trusted-proxy` range wider than any private network (the range is
 * not repeated): allowed, since a firewall that admits only the proxies makes it safe, but never
 * silently.
 */
export const WIDE_PROXY_WARNING =
  "brigade serve: warning: a --trusted-proxy range is wider than any private network (IPv4 shorter than /8, IPv6 shorter than /7, or IPv6 over more IPv4-mapped addresses than an IPv4 /8): every client in it can choose the address its limits count; trust only your proxies' addresses, or make sure a firewall lets only them reach this port\n";

/** What the serve command line reads and writes (the shape of the CLI's `CliIo`). */
export interface ServeCommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** How a caller tailors the command line (the test-only mutant entry passes `createService`). */
export interface ServeCommandOptions {
  /** The `--help` text. */
  readonly help: string;
  /** Test-only: see {@link ServeOptions.createService}. */
  readonly createService?: ServeOptions["createService"];
  /** Called once the server listens (after the URL line). */
  readonly onListening?: (server: RunningServer) => void;
  /**
   * The flag nearest to the first unknown one of `argv` among `options`' names, for the refusal
   * line (the CLI passes its `nearestUnknownOption`); its answer is a name from `options`, never
   * the input.
   */
  readonly suggestFlag?: (argv: string[], options: ParseArgsOptionsConfig) => string | undefined;
}

/** The default SQLite file: `$XDG_STATE_HOME/brigade/brigade.sqlite`, else under `~/.local/state`. */
export function defaultDataFile(env: Readonly<Record<string, string | undefined>>): string {
  const state = env.XDG_STATE_HOME?.startsWith("/") === true ? env.XDG_STATE_HOME : undefined;
  return join(state ?? join(env.HOME ?? homedir(), ".local", "state"), "brigade", "brigade.sqlite");
}

/**
 * Runs `brigade serve [--host] [--port] [--data] [--store postgres://…] [--store-wait s]
 * [--registration open|closed [--create-operator-key]] [--tls-cert FILE --tls-key FILE] [--trust-proxy] [--trusted-proxy
 * ADDR]… [--metrics [HOST:]PORT] [--limit NAME=NUMBER]… [--log-level]` from its arguments
 * (`--store` defaults to the `BRIGADE_STORE` environment variable; neither: SQLite at `--data`;
 * `--limit`: `parseServerLimits`, every limit not given at its default): prints
 * `brigade serve: listening on <url>` on stdout once it accepts connections — followed, on the
 * first closed start of a data file, by one line with the new operator key, shown this once (on
 * PostgreSQL only with `--create-operator-key`, and followed by a line saying to copy its file) — then
 * one line each for the version, the store (the SQLite data file, or the PostgreSQL address without
 * its password), the registration mode, when on, the metrics address and the proxy mode, and one
 * line `limit NAME VALUE (default D)` for each `--limit` that differs from its default; logs
 * JSON lines on stderr; reloads the TLS files on SIGHUP; and resolves with 0 after a graceful stop
 * on SIGTERM/SIGINT. A bad flag is one stderr line and 2; a port in use (naming the port and what
 * to do), a missing `--data` folder, an unusable data, operator key or TLS file, a data file of a
 * newer schema, or a PostgreSQL that did not answer within `--store-wait` seconds (default 0: one
 * attempt) is one stderr line and 1.
 */
export async function runServeCommandLine(
  argv: string[],
  io: ServeCommandIo,
  options: ServeCommandOptions,
): Promise<number> {
  const usage = (message: string): number => {
    io.stderr(`brigade serve: ${message}\n`);
    return 2;
  };
  const flags = parseFlags(argv);
  if (flags === undefined) {
    const near = options.suggestFlag?.(argv, SERVE_FLAGS);
    return usage(
      near === undefined
        ? 'unknown option or argument (run "brigade serve --help")'
        : `unknown option; did you mean "--${near}"? (run "brigade serve --help")`,
    );
  }
  if (typeof flags === "string") {
    return usage(`--${flags} is given more than once (run "brigade serve --help")`);
  }
  if (flags.help === true) {
    io.stdout(options.help);
    return 0;
  }
  const port = flags.port === undefined ? SERVE_DEFAULTS.port : Number(flags.port);
  if (!/^\d{1,5}$/.test(flags.port ?? "0") || port > 65535) {
    return usage("--port must be a number from 0 to 65535");
  }
  // Node reads an empty host as "every interface": a variable left unset in a unit file must
  // not quietly expose the server to the network.
  if (flags.host === "") {
    return usage("--host needs an address to listen on (127.0.0.1, 0.0.0.0, ::, or a host name)");
  }
  if (flags.data === "") return usage("--data needs the path of the SQLite data file");
  const registration = flags.registration ?? "open";
  if (!isRegistrationMode(registration)) return usage("--registration must be open or closed");
  if (flags["create-operator-key"] === true && registration !== "closed") {
    return usage("--create-operator-key goes with --registration closed");
  }
  const level = (flags["log-level"] ?? "info") as LogLevel;
  if (!["debug", "info", "warn", "error"].includes(level)) {
    return usage("--log-level must be debug, info, warn or error");
  }
  if ((flags["tls-cert"] === undefined) !== (flags["tls-key"] === undefined)) {
    return usage("--tls-cert and --tls-key go together");
  }
  const trustProxy = proxyTrustOf(flags["trust-proxy"] === true, flags["trusted-proxy"]);
  if (trustProxy === null) {
    return usage(
      "--trusted-proxy must be an IP address or subnet (10.0.0.5, 10.0.0.0/8, fd00::/8)",
    );
  }
  if (hasWideTrustedRange(flags["trusted-proxy"] ?? [])) io.stderr(WIDE_PROXY_WARNING);
  const metrics = flags.metrics === undefined ? undefined : metricsAddressOf(flags.metrics);
  if (metrics === null) return usage("--metrics must be PORT or HOST:PORT (e.g. 127.0.0.1:9464)");
  // Otherwise the second listener fails with EADDRINUSE, read as "another brigade serve?".
  if (metrics !== undefined && port !== 0 && metrics.port === port) {
    const host = flags.host ?? SERVE_DEFAULTS.host;
    const wildcard = (h: string) => h === "0.0.0.0" || h === "::";
    if (metrics.host === host || wildcard(metrics.host) || wildcard(host)) {
      return usage("--metrics needs a port of its own, not the API's --port (e.g. --metrics 9464)");
    }
  }
  const dataFile = resolve(flags.data ?? defaultDataFile(io.env));
  const storeAddress = flags.store ?? emptyAsAbsent(io.env.BRIGADE_STORE);
  if (storeAddress !== undefined && !parsePostgresUrl(storeAddress).ok) {
    return usage(
      "--store (or BRIGADE_STORE) must be a postgres://user@host:port/database URL; SQLite is the default (--data)",
    );
  }
  const waitSeconds = flags["store-wait"] === undefined ? 0 : Number(flags["store-wait"]);
  if (!/^\d{1,4}$/.test(flags["store-wait"] ?? "0")) {
    return usage("--store-wait must be a number of seconds from 0 to 9999");
  }
  const limits = parseServerLimits(flags.limit ?? []);
  if (!limits.ok) return usage(limits.message);
  const logger = jsonLogger(io.stderr, level);
  let server: RunningServer;
  try {
    server = await startServer({
      host: flags.host ?? SERVE_DEFAULTS.host,
      port,
      dataFile,
      // The default location is ours to create; a folder the operator named must exist.
      createDataFolder: flags.data === undefined,
      ...(storeAddress === undefined
        ? {}
        : { store: storeAddress, storeWaitMs: waitSeconds * 1000 }),
      logger,
      registration,
      ...(flags["create-operator-key"] === true ? { createOperatorKey: true } : {}),
      ...(flags["tls-cert"] === undefined || flags["tls-key"] === undefined
        ? {}
        : { tls: { certFile: flags["tls-cert"], keyFile: flags["tls-key"] } }),
      ...(trustProxy === undefined ? {} : { trustProxy }),
      ...(metrics === undefined ? {} : { metrics }),
      limits: limits.limits,
      ...(options.createService === undefined ? {} : { createService: options.createService }),
    });
  } catch (error) {
    const why = connectFailureCode(error);
    const explained =
      error instanceof DataFileError ||
      error instanceof OperatorKeyFileError ||
      error instanceof TlsFileError ||
      error instanceof ListenError ||
      error instanceof SqliteSchemaError ||
      error instanceof StoreUnavailableError ||
      error instanceof PostgresSchemaError;
    const detail = explained
      ? `: ${error.message}`
      : why === "SQLITE_NOTADB"
        ? ": the --data file is not an SQLite database; check the path (nothing was written to it)"
        : storeAddress === undefined
          ? ""
          : `: ${connectRefusal(why)}`;
    // Only a failure of the database itself names it; a port, TLS or key file problem does not.
    const aboutStore = !(
      error instanceof OperatorKeyFileError ||
      error instanceof ListenError ||
      error instanceof TlsFileError ||
      error instanceof DataFileError
    );
    const where =
      storeAddress === undefined || !aboutStore
        ? ""
        : ` (${storeDisplay(storeAddress)}, waited ${waitSeconds} s)`;
    io.stderr(`brigade serve: cannot start (${why})${detail}${where}\n`);
    return 1;
  }
  const lines = [`listening on ${server.url}`];
  if (server.newOperatorKey !== undefined) {
    // The only time the key exists outside the operator's hands: only its digest is stored.
    lines.push(
      `registration is closed; operator key (shown once, keep it private): ${server.newOperatorKey}`,
    );
    if (server.store.kind === "postgres") {
      lines.push(
        `operator key digest stored in ${operatorKeyFileFor(dataFile)}: copy that file to every other brigade serve of this database (to its --data path with .operator-key added)`,
      );
    }
  }
  lines.push(...startupLines(server, registration, trustProxy !== undefined));
  for (const changed of changedLimits(limits.limits)) {
    lines.push(`limit ${changed.name} ${changed.value} (default ${changed.defaultValue})`);
  }
  // One write: a reader that waits for the URL line gets the lines after it in the same chunk.
  io.stdout(lines.map((line) => `brigade serve: ${line}\n`).join(""));
  if (!server.url.startsWith("https:") && !isLoopback(server.host) && trustProxy === undefined) {
    io.stderr(
      "brigade serve: warning: plain HTTP on a network address; tokens and messages cross the network unencrypted (use --tls-cert/--tls-key, or a TLS proxy with --trust-proxy)\n",
    );
  }
  options.onListening?.(server);
  await new Promise<void>((resolvePromise) => {
    // Without a handler SIGHUP would end the process: a reload must never stop the server.
    const reload = (): void => {
      logger.log("info", "signal", { signal: "SIGHUP" });
      server.reloadTls();
    };
    const stop = (signal: NodeJS.Signals): void => {
      logger.log("info", "signal", { signal });
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      process.off("SIGHUP", reload);
      void server.stop().then(resolvePromise);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
    process.on("SIGHUP", reload);
  });
  return 0;
}

/** The start-up lines after the listening line: what an operator checks first. */
function startupLines(
  server: RunningServer,
  registration: RegistrationMode,
  behindProxy: boolean,
): string[] {
  const lines = [
    `version ${server.version}`,
    server.store.kind === "sqlite"
      ? `data file ${printable(server.store.display)}`
      : `store postgres ${server.store.display}`,
    registration === "open"
      ? "registration open (anyone who can reach this server may create teams)"
      : "registration closed (creating a team needs the operator key)",
  ];
  if (server.metricsUrl !== undefined) lines.push(`metrics on ${server.metricsUrl}`);
  if (behindProxy) lines.push("client addresses read from X-Forwarded-For of trusted proxies");
  return lines;
}

/** Whether a bound address is a loopback one (this machine only). */
function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address === "::ffff:127.0.0.1";
}

/** A path as one line: JSON-quoted when it holds a control character. */
function printable(path: string): string {
  const control = [...path].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
  return control ? JSON.stringify(path) : path;
}

/**
 * `--trust-proxy` and `--trusted-proxy`: `undefined` trusts no proxy; `--trust-proxy` alone
 * trusts loopback proxies; any `--trusted-proxy` trusts exactly those (and implies the mode).
 * `null` when an entry is not an address or subnet.
 */
function proxyTrustOf(
  trust: boolean,
  trusted: readonly string[] | undefined,
): ProxyTrust | undefined | null {
  if (trusted !== undefined && trusted.length > 0) return trustProxies(trusted);
  return trust ? trustProxies(LOOPBACK_PROXIES) : undefined;
}

/** `PORT` (on 127.0.0.1), `HOST:PORT` or `[IPv6]:PORT`; `null` otherwise. */
function metricsAddressOf(value: string): { host: string; port: number } | null {
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+):)?(\d{1,5})$/.exec(value);
  if (match === null) return null;
  const port = Number(match[2]);
  if (port > 65535) return null;
  const host = match[1] === undefined ? "127.0.0.1" : match[1].replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

/** The value flags that may be given more than once. */
const REPEATABLE: ReadonlySet<string> = new Set(["trusted-proxy", "limit"]);

/** `brigade serve`'s flags; `undefined` for a bad one, the flag's name for a value flag given twice. */
/** The flags of `brigade serve`. */
const SERVE_FLAGS = {
  host: { type: "string" },
  port: { type: "string" },
  data: { type: "string" },
  store: { type: "string" },
  "store-wait": { type: "string" },
  registration: { type: "string" },
  "create-operator-key": { type: "boolean" },
  "log-level": { type: "string" },
  "tls-cert": { type: "string" },
  "tls-key": { type: "string" },
  "trust-proxy": { type: "boolean" },
  "trusted-proxy": { type: "string", multiple: true },
  metrics: { type: "string" },
  limit: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsOptionsConfig;

function parseFlags(argv: string[]) {
  try {
    const { values, tokens } = parseArgs({
      args: argv,
      options: SERVE_FLAGS,
      allowPositionals: false,
      strict: true,
      tokens: true,
    });
    // parseArgs keeps the last of a repeated flag; which one the operator meant is a guess.
    const seen = new Set<string>();
    for (const token of tokens) {
      if (token.kind !== "option" || token.value === undefined || REPEATABLE.has(token.name)) {
        continue;
      }
      if (seen.has(token.name)) return token.name;
      seen.add(token.name);
    }
    return values;
  } catch {
    return undefined;
  }
}

function emptyAsAbsent(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function storeDisplay(address: string): string {
  const parsed = parsePostgresUrl(address);
  return parsed.ok ? parsed.url.display : "postgres";
}

function isRegistrationMode(value: string): value is RegistrationMode {
  return (REGISTRATION_MODES as readonly string[]).includes(value);
}
