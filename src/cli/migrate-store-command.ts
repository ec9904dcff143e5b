import {
  MIGRATED_KINDS,
  MigrationError,
  type MigrationReport,
  migrateStore,
} from "../store/migration/index.ts";
import { readCopyTargetState } from "../store/postgres/copy-target-state.ts";
import {
  connectFailureCode,
  connectRefusal,
  openPostgresStore,
  PostgresSchemaError,
  parsePostgresUrl,
} from "../store/postgres/index.ts";
import {
  type LiveBrowserSignIns,
  openSqliteExport,
  SqliteExportError,
} from "../store/sqlite/index.ts";
import { type CliIo, CliUsageError } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";

const HELP = `usage: brigade migrate-store --from sqlite:FILE [--to postgres://USER@HOST:PORT/DB]
                             [--into-non-empty] [--json]

Copies everything a brigade serve SQLite file holds into a PostgreSQL database:
principals, teams, memberships, invitations, sessions, attachment blobs (with
who uploaded them), messages (acknowledged or not, with their idempotency keys,
attachments, order, reports, adoptions and releases), and recorded failed
joins; then reads every row back and compares digests (a blob's bytes are read
back and hashed). The SQLite file is only read. Dashboard sign-ins are not
carried: their people sign in again with brigade dashboard.

--to defaults to $BRIGADE_STORE. Give the password with PGPASSWORD or ~/.pgpass,
not on the command line. Stop brigade serve on the SQLite file first: the copy is
one consistent snapshot, and anything written afterwards is not in it.

--into-non-empty  finish an interrupted copy: copy into a database that already
                  holds data no brigade serve has used; rows already there are
                  not duplicated; teams, memberships, sessions and acks take the
                  SQLite file's values. A database a server has opened is
                  always refused: the copy could undo that server's changes
                  (a removed member, a rotated secret).
--json            print the report as JSON

Exit status: 0 copied and verified, 1 refused or failed (nothing in the SQLite
file changes), 2 bad arguments.
`;

/**
 * `brigade migrate-store --from sqlite:FILE --to postgres://…`: see {@link HELP}. Prints a line per
 * kind of row (source rows, copied, already present, verified) and never the target's password.
 */
export async function runMigrateStore(argv: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv);
  if (flags.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const from = flags.from;
  if (from === undefined || from === "") throw new CliUsageError("--from sqlite:FILE is required");
  if (!from.startsWith("sqlite:") || from.length <= "sqlite:".length) {
    throw new CliUsageError(
      "--from sqlite:FILE: write sqlite: before the data file's path (--from sqlite:/var/lib/brigade/brigade.sqlite)",
    );
  }
  const to = flags.to ?? io.env.BRIGADE_STORE;
  if (to === undefined) throw new CliUsageError("--to postgres://… (or BRIGADE_STORE) is required");
  const target = parsePostgresUrl(to);
  if (!target.ok) throw new CliUsageError("--to must be a postgres:// address");

  const fail = (why: string): number => {
    io.stderr(`brigade migrate-store: ${why}\n`);
    return 1;
  };
  let source: ReturnType<typeof openSqliteExport>;
  try {
    source = openSqliteExport(from.slice("sqlite:".length));
  } catch (error) {
    if (error instanceof SqliteExportError) return fail(`cannot read the source (${error.reason})`);
    return fail(
      "cannot open the source file: check the path after sqlite: (the file brigade serve --data names)",
    );
  }
  try {
    let store: Awaited<ReturnType<typeof openPostgresStore>>;
    try {
      store = await openPostgresStore(target.url.connectionString, { copyTarget: true });
    } catch (error) {
      if (error instanceof PostgresSchemaError) {
        return fail(`cannot open ${target.url.display} (${error.code}): ${error.message}`);
      }
      const why = connectFailureCode(error);
      return fail(`cannot open ${target.url.display} (${why}): ${connectRefusal(why)}`);
    }
    try {
      const state = await readCopyTargetState(target.url.connectionString);
      const report = await migrateStore(source, store, {
        targetHoldsData: state.holdsData,
        targetServed: state.served,
        intoNonEmpty: flags["into-non-empty"] === true,
      });
      io.stdout(
        flags.json === true ? `${JSON.stringify(report)}\n` : describe(report, target.url.display),
      );
      return 0;
    } catch (error) {
      if (error instanceof MigrationError && error.reason === "target_served")
        return fail(
          `${target.url.display} holds data a brigade serve has used; nothing was written (a copy could undo that server's changes, such as a removed member or a rotated secret; copy into an empty database instead)`,
        );
      if (error instanceof MigrationError && error.reason === "target_not_empty")
        return fail(
          `${target.url.display} already holds data; nothing was written (re-run with --into-non-empty to finish an interrupted copy)`,
        );
      if (error instanceof MigrationError) return fail(`the copy did not verify (${error.reason})`);
      return fail(`the copy failed (${connectFailureCode(error)}); re-run with --into-non-empty`);
    } finally {
      await store.close();
    }
  } finally {
    source.close();
  }
}

function describe(report: MigrationReport, display: string): string {
  const lines = [`brigade migrate-store: copied into ${display}, every row read back and compared`];
  for (const kind of MIGRATED_KINDS) {
    const k = report.kinds[kind];
    lines.push(
      `  ${kind.padEnd(14)} ${String(k.source).padStart(8)} rows  ${String(k.copied).padStart(8)} copied  ${String(k.already_present).padStart(8)} already there  digest ${k.target_digest.slice(0, 16)}`,
    );
  }
  lines.push(notCarried(report.not_carried));
  return `${lines.join("\n")}\n`;
}

/** The summary's line on what the copy leaves behind on purpose (docs/51-postgres.md). */
function notCarried({ web_sessions, web_logins }: LiveBrowserSignIns): string {
  const live = [
    ...(web_sessions > 0 ? [plural(web_sessions, "signed-in browser")] : []),
    ...(web_logins > 0 ? [plural(web_logins, "unused login link")] : []),
  ];
  const which = live.length === 0 ? "none was live" : `${live.join(" and ")} end here`;
  return `  not carried: dashboard sign-ins (${which}); sign in again with brigade dashboard`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function parseFlags(argv: string[]) {
  return parseCommandFlags("migrate-store", argv, {
    from: { type: "string" },
    to: { type: "string" },
    "into-non-empty": { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }).values;
}
