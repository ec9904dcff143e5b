import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { jsonLogger, type LogLevel } from "../server/logger.ts";
import { startServer } from "../server/serve.ts";
import { type CliIo, CliUsageError } from "./cli-io.ts";

/** Defaults of `brigade serve`. */
export const SERVE_DEFAULTS: { readonly host: string; readonly port: number } = {
  host: "127.0.0.1",
  port: 7777,
};

const HELP = `usage: brigade serve [--host 127.0.0.1] [--port 7777] [--data FILE] [--log-level info]

Runs Brigade's team backend on embedded SQLite. The default data file is
$XDG_STATE_HOME/brigade/brigade.sqlite (~/.local/state/brigade/brigade.sqlite).
Stops gracefully on SIGTERM or SIGINT.
`;

/** The default SQLite file: `$XDG_STATE_HOME/brigade/brigade.sqlite`, else under `~/.local/state`. */
export function defaultDataFile(env: Readonly<Record<string, string | undefined>>): string {
  const state = env.XDG_STATE_HOME?.startsWith("/") === true ? env.XDG_STATE_HOME : undefined;
  return join(state ?? join(env.HOME ?? homedir(), ".local", "state"), "brigade", "brigade.sqlite");
}

/**
 * `brigade serve`: starts the server, prints `brigade serve: listening on <url>` on stdout once
 * it accepts connections, logs JSON lines on stderr, and resolves with 0 after a graceful stop on
 * SIGTERM/SIGINT. A bad flag is exit 2; a port in use or an unusable data file is exit 1.
 */
export async function runServe(argv: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv);
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const port = flags.port === undefined ? SERVE_DEFAULTS.port : Number(flags.port);
  if (!/^\d{1,5}$/.test(flags.port ?? "0") || port > 65535) {
    throw new CliUsageError("--port must be a number from 0 to 65535");
  }
  const level = (flags["log-level"] ?? "info") as LogLevel;
  if (!["debug", "info", "warn", "error"].includes(level)) {
    throw new CliUsageError("--log-level must be debug, info, warn or error");
  }
  const logger = jsonLogger(io.stderr, level);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      host: flags.host ?? SERVE_DEFAULTS.host,
      port,
      dataFile: flags.data ?? defaultDataFile(io.env),
      logger,
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    io.stderr(
      `brigade serve: cannot start (${typeof code === "string" ? code : error instanceof Error ? error.name : "unknown"})\n`,
    );
    return 1;
  }
  io.stdout(`brigade serve: listening on ${server.url}\n`);
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
        "log-level": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: false,
      strict: true,
    }).values;
  } catch {
    throw new CliUsageError('unknown option or argument (run "brigade serve --help")');
  }
}
