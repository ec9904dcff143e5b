import type { AdapterLogger, LogFields } from "../../adapters/index.ts";
import type { WatcherLog } from "./watcher-log.ts";

/**
 * The in-process adapter's diagnostics, written to the watcher's log: its `info`, `warn` and
 * `error` events (a dropped or refused watch stream, a server answer that is not an envelope, a
 * message for another session, what a receive left out) with a `comp` field naming the adapter
 * part. Adapter events carry fixed names, codes and counts, never a body or a server's own text,
 * and the watcher log cuts and redacts every field again. `debug` (a line per HTTP call) is left
 * out so heartbeats do not fill the log; `undefined` fields are omitted.
 *
 * @example const adapter = openHarnessAdapter(target, { logger: watcherAdapterLogger(log) });
 */
export function watcherAdapterLogger(log: WatcherLog, comp = "http"): AdapterLogger {
  const write =
    (level: "info" | "warn" | "error") =>
    (event: string, fields: LogFields = {}): void => {
      const kept: Record<string, string | number | boolean> = { comp };
      for (const [name, value] of Object.entries(fields)) {
        if (value !== undefined) kept[name] = value;
      }
      log.write(level, event, kept);
    };
  return {
    error: write("error"),
    warn: write("warn"),
    info: write("info"),
    debug: () => {},
    child: (name) => watcherAdapterLogger(log, name),
  };
}
