import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { jsonLogger, type LogLevel } from "../logger.ts";
import { type RunningServer, startServer } from "../serve.ts";
import { isServerMutant, mutantServiceFactory, SERVER_MUTANTS } from "./server-mutants.ts";

/** The environment variable naming the mutant the test server runs. */
export const MUTANT_ENV = "BRIGADE_TEST_MUTANT";

/** What {@link runServeMutant} reads and writes (the shape of the CLI's `CliIo`). */
export interface ServeMutantIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const HELP = `usage: serve-mutant [--host 127.0.0.1] [--port 7777] [--data FILE] [--log-level info]

Test-only: \`brigade serve\` with the conformance mutant named by ${MUTANT_ENV}
(${SERVER_MUTANTS.join(", ")}) applied. Stops gracefully on SIGTERM or SIGINT.
`;

/**
 * The test-only `serve-mutant` entry: the flags, output and exit statuses of `brigade serve`
 * (src/cli/serve-command.ts, which this layer may not import) — `--host` (127.0.0.1), `--port`
 * (7777; 0 picks one), `--data` (default `$XDG_STATE_HOME/brigade/brigade.sqlite`),
 * `--log-level`, `--help`; prints `brigade serve: listening on <url>` on stdout once listening;
 * 0 after SIGTERM/SIGINT, 2 for a bad flag, 1 when it cannot start — with the server half of the
 * mutant named by `BRIGADE_TEST_MUTANT` applied. A missing or unknown name is refused before
 * anything starts (exit 2, one stderr line listing the valid names, never the given value).
 *
 * @example await runServeMutant(["--port", "0", "--data", "/tmp/x.sqlite"], { ...io, env: { BRIGADE_TEST_MUTANT: "team_leak" } })
 */
export async function runServeMutant(
  argv: string[],
  io: ServeMutantIo,
  onListening?: (server: RunningServer) => void,
): Promise<number> {
  const mutant = io.env[MUTANT_ENV];
  if (!isServerMutant(mutant)) {
    io.stderr(`serve-mutant: ${MUTANT_ENV} must be one of ${SERVER_MUTANTS.join(", ")}\n`);
    return 2;
  }
  const flags = parseFlags(argv);
  if (flags === undefined) {
    io.stderr('brigade serve: unknown option or argument (run "brigade serve --help")\n');
    return 2;
  }
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const port = flags.port === undefined ? 7777 : Number(flags.port);
  if (!/^\d{1,5}$/.test(flags.port ?? "0") || port > 65535) {
    io.stderr("brigade serve: --port must be a number from 0 to 65535\n");
    return 2;
  }
  const level = (flags["log-level"] ?? "info") as LogLevel;
  if (!["debug", "info", "warn", "error"].includes(level)) {
    io.stderr("brigade serve: --log-level must be debug, info, warn or error\n");
    return 2;
  }
  const logger = jsonLogger(io.stderr, level);
  let server: RunningServer;
  try {
    server = await startServer({
      host: flags.host ?? "127.0.0.1",
      port,
      dataFile: flags.data ?? defaultDataFile(io.env),
      logger,
      createService: mutantServiceFactory(mutant),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    io.stderr(
      `brigade serve: cannot start (${typeof code === "string" ? code : error instanceof Error ? error.name : "unknown"})\n`,
    );
    return 1;
  }
  logger.log("warn", "test_mutant", { mutant });
  io.stdout(`brigade serve: listening on ${server.url}\n`);
  onListening?.(server);
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

function defaultDataFile(env: Readonly<Record<string, string | undefined>>): string {
  const state = env.XDG_STATE_HOME?.startsWith("/") === true ? env.XDG_STATE_HOME : undefined;
  return join(state ?? join(env.HOME ?? homedir(), ".local", "state"), "brigade", "brigade.sqlite");
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        data: { type: "string" },
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
