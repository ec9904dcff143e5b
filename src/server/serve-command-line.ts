import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DataFileError } from "./data-file.ts";
import { jsonLogger, type LogLevel } from "./logger.ts";
import { OperatorKeyFileError, REGISTRATION_MODES, type RegistrationMode } from "./operator-key.ts";
import { type RunningServer, type ServeOptions, startServer } from "./serve.ts";

/** Defaults of `brigade serve`. */
export const SERVE_DEFAULTS: { readonly host: string; readonly port: number } = {
  host: "127.0.0.1",
  port: 7777,
};

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
}

/** The default SQLite file: `$XDG_STATE_HOME/brigade/brigade.sqlite`, else under `~/.local/state`. */
export function defaultDataFile(env: Readonly<Record<string, string | undefined>>): string {
  const state = env.XDG_STATE_HOME?.startsWith("/") === true ? env.XDG_STATE_HOME : undefined;
  return join(state ?? join(env.HOME ?? homedir(), ".local", "state"), "brigade", "brigade.sqlite");
}

/**
 * Runs `brigade serve [--host] [--port] [--data] [--registration open|closed] [--log-level]` from
 * its arguments: prints `brigade serve: listening on <url>` on stdout once it accepts
 * connections — followed, on the first closed start of a data file, by one line with the new
 * operator key, shown this once — logs JSON lines on stderr, and resolves with 0 after a graceful
 * stop on SIGTERM/SIGINT. A bad flag is one stderr line and 2; a port in use or an unusable data
 * or operator key file is one stderr line and 1.
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
  if (flags === undefined) return usage('unknown option or argument (run "brigade serve --help")');
  if (flags.help === true) {
    io.stdout(options.help);
    return 0;
  }
  const port = flags.port === undefined ? SERVE_DEFAULTS.port : Number(flags.port);
  if (!/^\d{1,5}$/.test(flags.port ?? "0") || port > 65535) {
    return usage("--port must be a number from 0 to 65535");
  }
  const registration = flags.registration ?? "open";
  if (!isRegistrationMode(registration)) return usage("--registration must be open or closed");
  const level = (flags["log-level"] ?? "info") as LogLevel;
  if (!["debug", "info", "warn", "error"].includes(level)) {
    return usage("--log-level must be debug, info, warn or error");
  }
  const logger = jsonLogger(io.stderr, level);
  let server: RunningServer;
  try {
    server = await startServer({
      host: flags.host ?? SERVE_DEFAULTS.host,
      port,
      dataFile: flags.data ?? defaultDataFile(io.env),
      logger,
      registration,
      ...(options.createService === undefined ? {} : { createService: options.createService }),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = typeof code === "string" ? code : error instanceof Error ? error.name : "unknown";
    const explained = error instanceof DataFileError || error instanceof OperatorKeyFileError;
    const detail = explained ? `: ${error.message}` : "";
    io.stderr(`brigade serve: cannot start (${why})${detail}\n`);
    return 1;
  }
  io.stdout(`brigade serve: listening on ${server.url}\n`);
  if (server.newOperatorKey !== undefined) {
    // The only time the key exists outside the operator's hands: only its digest is stored.
    io.stdout(
      `brigade serve: registration is closed; operator key (shown once, keep it private): ${server.newOperatorKey}\n`,
    );
  }
  options.onListening?.(server);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      logger.log("info", "signal", { signal });
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      void server.stop().then(resolve);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  return 0;
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        data: { type: "string" },
        registration: { type: "string" },
        "log-level": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: false,
      strict: true,
    }).values;
  } catch {
    return undefined;
  }
}

function isRegistrationMode(value: string): value is RegistrationMode {
  return (REGISTRATION_MODES as readonly string[]).includes(value);
}
