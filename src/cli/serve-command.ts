import { runServeCommandLine } from "../server/serve-command-line.ts";
import type { CliIo } from "./cli-io.ts";

const HELP = `usage: brigade serve [--host 127.0.0.1] [--port 7777] [--data FILE]
                     [--registration open|closed] [--log-level info]

Runs Brigade's team backend on embedded SQLite. The default data file is
$XDG_STATE_HOME/brigade/brigade.sqlite (~/.local/state/brigade/brigade.sqlite).
The data file and its -wal/-shm must be owner-only regular files (else it refuses
to start); a new one is created 0600.

--registration open    anyone who can reach the server may create teams (default)
--registration closed  creating a team needs the operator key: the first closed
                       start prints a new key once on stdout and stores only its
                       digest in FILE.operator-key (0600); delete that file and
                       restart to replace a lost key. Clients present it with
                       brigade team create --operator-key-file PATH, or
                       BRIGADE_OPERATOR_KEY_FILE=PATH for brigade adapter http.

Stops gracefully on SIGTERM or SIGINT.
`;

/**
 * `brigade serve`: see `runServeCommandLine` (src/server/serve-command-line.ts) for the flags,
 * output and exit statuses (0 after a graceful stop, 2 a bad flag, 1 cannot start).
 */
export async function runServe(argv: string[], io: CliIo): Promise<number> {
  return runServeCommandLine(argv, io, { help: HELP });
}
