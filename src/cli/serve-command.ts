import { runServeCommandLine } from "../server/serve-command-line.ts";
import type { CliIo } from "./cli-io.ts";
import { nearestUnknownOption } from "./parse-command-flags.ts";

/**
 * The text of `brigade serve --help`: the flags, what the start-up lines say, and every settable
 * limit with its default.
 */
export const SERVE_HELP = `usage: brigade serve [--host 127.0.0.1] [--port 7777] [--data FILE]
                     [--store postgres://USER@HOST:PORT/DB] [--store-wait SECONDS]
                     [--registration open|closed [--create-operator-key]]
                     [--tls-cert FILE --tls-key FILE]
                     [--trust-proxy] [--trusted-proxy ADDR]... [--metrics [HOST:]PORT]
                     [--limit NAME=NUMBER]... [--log-level info]

Runs Brigade's team backend on embedded SQLite (the default) or on PostgreSQL
(--store). The start-up lines name the URL, the version, the store (the data file,
or the database without its password), the registration mode and every limit
set to other than its default.

--data FILE            the SQLite file; its folder must exist. The default is
                       $XDG_STATE_HOME/brigade/brigade.sqlite (~/.local/state/brigade/),
                       whose folder is created. The file and its -wal/-shm must be
                       owner-only regular files (else it refuses to start); a new
                       one is created 0600.
--store URL            run on this PostgreSQL database instead (default: the
                       BRIGADE_STORE environment variable; prefer it, or a
                       password in ~/.pgpass or PGPASSWORD, to a password on the
                       command line). Several servers may share one database.
                       The schema is created or migrated at start.
--store-wait SECONDS   keep retrying a PostgreSQL that does not answer at start
                       for this long (default 0: one attempt), then exit 1

--registration open    anyone who can reach the server may create teams (default)
--registration closed  creating a team needs the operator key: the first closed
                       start prints a new key once on stdout and stores only its
                       digest in FILE.operator-key (0600); delete that file and
                       restart to replace a lost key. Clients present it with
                       brigade team create --operator-key-file PATH, or
                       BRIGADE_OPERATOR_KEY_FILE=PATH for brigade adapter http.
                       On PostgreSQL every process needs the same key file: a
                       process without one refuses to start, and only a start
                       with --create-operator-key makes a new key; copy its
                       file to the others.
--tls-cert FILE        serve HTTPS with this PEM certificate chain (leaf first)
--tls-key FILE         and its unencrypted PEM private key; both are read again
                       on SIGHUP (a bad new pair keeps the old one and logs why)
--trust-proxy          take the client address from X-Forwarded-For, only on
                       requests from a trusted proxy (default: loopback)
--trusted-proxy ADDR   trust this proxy address or subnet instead (repeatable)
--metrics [HOST:]PORT  serve GET /metrics (Prometheus) on a listener of its own;
                       a bare port listens on 127.0.0.1. Off by default.
--limit NAME=NUMBER    set one of the server's own limits (repeatable; each a
                       whole number from 1; defaults in brackets; per process):
                         principals_per_address_per_minute [30]
                         principals_per_address_per_hour   [120]
                         principals_per_server_per_minute  [120]
                         principals_per_server_per_hour    [1200]
                           anonymous principals minted (POST /v1/principals)
                         watches_per_session   [4]   open message watches
                         watches_per_principal [32]
                         watch_backlog_messages [256] messages a watch may owe
                           a reader that stopped reading before it is dropped
                         attachments_per_message [10]  files a message names
                         attachment_file_mib     [25]  MiB a file
                         attachment_message_mib  [100] MiB a message, together
                           (these three at most their defaults)
                         team_storage_mib       [1024] MiB of attachments one
                           team may hold (plan the disk for it: docs/50)
                         request_seconds [30]  seconds a client may take to send one
                           request, an upload included (25 MiB in 30 s is about
                           7 Mbit/s: raise it for members on slow links)
                       The BAP/1 limits (send rates, inbox caps, sizes) are fixed.

Stops gracefully on SIGTERM or SIGINT; SIGHUP reloads the TLS files.
Operating a server: docs/50-operator.md.
`;

/**
 * `brigade serve`: see `runServeCommandLine` (src/server/serve-command-line.ts) for the flags,
 * output and exit statuses (0 after a graceful stop, 2 a bad flag, 1 cannot start).
 */
export async function runServe(argv: string[], io: CliIo): Promise<number> {
  return runServeCommandLine(argv, io, { help: SERVE_HELP, suggestFlag: nearestUnknownOption });
}
