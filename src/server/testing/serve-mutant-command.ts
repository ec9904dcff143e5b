import type { RunningServer } from "../serve.ts";
import { runServeCommandLine } from "../serve-command-line.ts";
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
  return runServeCommandLine(argv, io, {
    help: HELP,
    createService: mutantServiceFactory(mutant),
    onListening: (server) => {
      onListening?.(server);
    },
  });
}
