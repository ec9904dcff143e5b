import { renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { appendPrivateFile, ensurePrivateFolders } from "../../local-files/index.ts";

/** The watcher log rotates when it would grow past this many bytes (5 MB). */
export const WATCHER_LOG_MAX_BYTES = 5_000_000;

/** Field values a log line may carry: fixed tokens, ids, counts. Never a body or the token. */
export type WatcherLogFields = Readonly<Record<string, string | number | boolean>>;

/** Where the watcher writes its diagnostics. */
export interface WatcherLog {
  write(level: "debug" | "info" | "warn" | "error", event: string, fields?: WatcherLogFields): void;
}

/** A log that drops everything (tests, and a watcher without a writable log). */
export const silentWatcherLog: WatcherLog = { write: () => {} };

const MAX_FIELD_CHARS = 200;

/**
 * The watcher's NDJSON log at `path` (`logs/watcher-<pid>.log`, 0600 in 0700 folders): one line
 * `{"at","level","event",…fields}` per call. Redacted by construction and by a last guard: string
 * fields are cut to 200 characters, and every occurrence of each `secrets` entry (the messaging
 * token) is replaced by `[redacted]` before the line is written. When the file would pass `maxBytes`
 * it is renamed to `<path>.1` (replacing an older one) and a new file begins. Never throws.
 *
 * @example const log = fileWatcherLog(layout.root, layout.watcherLog("4242"), [token]); log.write("info", "watch_ready");
 */
export function fileWatcherLog(
  root: string,
  path: string,
  secrets: readonly string[],
  options: { readonly maxBytes?: number; readonly now?: () => number } = {},
): WatcherLog {
  const maxBytes = options.maxBytes ?? WATCHER_LOG_MAX_BYTES;
  const now = options.now ?? Date.now;
  const guards = secrets.filter((s) => s.length >= 4);
  let size = -1;
  return {
    write(level, event, fields = {}) {
      try {
        if (size < 0) {
          const folders = ensurePrivateFolders(root, dirname(path));
          if (!folders.ok) return;
          try {
            size = statSync(path).size;
          } catch {
            size = 0;
          }
        }
        const record: Record<string, string | number | boolean> = {
          at: new Date(now()).toISOString(),
          level,
          event,
        };
        // Redact before cutting (a cut could leave a secret's head that no longer matches it whole)
        // and before JSON escaping (which could change a secret's characters).
        const redact = (text: string): string =>
          guards.reduce((out, secret) => out.split(secret).join("[redacted]"), text);
        for (const [name, value] of Object.entries(fields)) {
          record[name] =
            typeof value === "string" ? redact(value).slice(0, MAX_FIELD_CHARS) : value;
        }
        let line = `${JSON.stringify(record)}\n`;
        for (const secret of guards) {
          if (line.includes(secret)) line = line.split(secret).join("[redacted]");
        }
        const bytes = Buffer.byteLength(line);
        if (size > 0 && size + bytes > maxBytes) {
          renameSync(path, `${path}.1`);
          size = 0;
        }
        // never through a symlink; a loose file is made 0600 again
        if (appendPrivateFile(path, line).ok) size += bytes;
      } catch {
        // A log that cannot be written must never stop delivery.
      }
    },
  };
}
