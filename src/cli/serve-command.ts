import { runServeCommandLine } from "../server/serve-command-line.ts";
import type { CliIo } from "./cli-io.ts";

const HELP = `usage: brigade serve [--host 127.0.0.1] [--port 7777] [--data FILE] [--log-level info]

Runs Brigade's team backend on embedded SQLite. The default data file is
$XDG_STATE_HOME/brigade/brigade.sqlite (~/.local/state/brigade/brigade.sqlite).
Stops gracefully on SIGTERM or SIGINT.
`;

/**
 * `brigade serve`: see `runServeCommandLine` (src/server/serve-command-line.ts) for the flags,
 * output and exit statuses (0 after a graceful stop, 2 a bad flag, 1 cannot start).
 */
export async function runServe(argv: string[], io: CliIo): Promise<number> {
  return runServeCommandLine(argv, io, { help: HELP });
}
