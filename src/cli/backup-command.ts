import { resolve } from "node:path";
import { BackupError, backupDataFile } from "../server/backup-data-file.ts";
import { type CliIo, CliUsageError } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";

const HELP = `usage: brigade backup DATA-FILE OUT-FILE [--force]

Copies a brigade serve data file while the server keeps running and writing it:
SQLite's online backup makes one consistent snapshot, checked with PRAGMA
integrity_check before it is put at OUT-FILE (created 0600). The operator key
digest beside the data file (DATA-FILE.operator-key), when there is one, is
copied to OUT-FILE.operator-key.

OUT-FILE must not exist: --force replaces an existing regular file (never a
link or a folder). The copy is made in a private folder created beside
OUT-FILE, so OUT-FILE's folder must be one no other user may change (yours or
root's, or sticky like /tmp). Interrupted (Ctrl-C, kill, a closed terminal), it
leaves nothing at OUT-FILE.

Restore: stop the server, then start it on the copy
  (brigade serve --data OUT-FILE), or move the copy and its .operator-key file
  to the data file's place first. See docs/50-operator.md.
`;

/** The signals that stop a backup cleanly (Ctrl-C, kill, a closed terminal). */
const INTERRUPTS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * `brigade backup DATA-FILE OUT-FILE [--force]`: see `backupDataFile`. Prints one line on success
 * (exit 0); a bad argument is one stderr line and 2; a refused or failed backup is
 * `brigade backup: cannot back up (<code>): <why>` and 1, with nothing left at OUT-FILE.
 */
export async function runBackup(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr(`brigade backup: ${error.message}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const [dataFile, out, ...rest] = parsed.positionals;
  if (dataFile === undefined || out === undefined || rest.length > 0) {
    io.stderr("brigade backup: needs DATA-FILE and OUT-FILE (brigade backup DATA-FILE OUT-FILE)\n");
    return 2;
  }
  if (resolve(dataFile) === resolve(out)) {
    io.stderr("brigade backup: OUT-FILE must not be the data file itself\n");
    return 2;
  }
  let interrupted = false;
  const interrupt = (): void => {
    interrupted = true;
  };
  // SIGHUP too: a closed terminal must not leave the temporary copy behind.
  for (const signal of INTERRUPTS) process.on(signal, interrupt);
  try {
    const result = await backupDataFile(dataFile, out, {
      force: parsed.values.force === true,
      shouldStop: () => interrupted,
    });
    const key = result.operatorKey ? " and its operator key digest" : "";
    io.stdout(
      `brigade backup: copied the data file (schema ${result.schemaVersion}, ${result.pages} pages, integrity ok)${key}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    io.stderr(`brigade backup: cannot back up (${error.code}): ${error.message}\n`);
    return 1;
  } finally {
    for (const signal of INTERRUPTS) process.off(signal, interrupt);
  }
}

function parse(argv: string[]) {
  return parseCommandFlags(
    "backup",
    argv,
    { force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    true,
  );
}
