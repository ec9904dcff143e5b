import {
  type Adapter,
  ERROR_EXIT_STATUS,
  type LeaseBounds,
  NdjsonDecoder,
  ndjsonLine,
  validateWatchCommand,
} from "../../protocol/index.ts";
import type { AdapterLogger } from "../adapter-logger.ts";
import type { ProcessBindingIo } from "./process-binding-io.ts";

/** How long stdin EOF waits for commands still in flight before ending the watch, in ms. */
export const WATCH_EOF_DRAIN_MS = 2500;

/**
 * Runs `message watch --session <id>` at the process boundary (docs/spec/protocol.md §5): every
 * event is one NDJSON line on stdout (nothing else); stdin is read as NDJSON commands (unknown
 * types ignored, invalid or over-long lines dropped and logged, reading continues); stdin EOF or a
 * terminate signal ends the watch (exit 0, after in-flight commands had up to 2.5 s); a `close`
 * command closes the session and exits 0; an `error` event with `retryable: false` ends it with
 * that code's exit status.
 *
 * @example
 * const status = await runWatch(adapter, "s-51d0", io, logger, describe.lease);
 */
export async function runWatch(
  adapter: Adapter,
  sessionId: string,
  io: ProcessBindingIo,
  logger: AdapterLogger,
  lease: LeaseBounds,
): Promise<number> {
  const handle = adapter.messageWatch(sessionId);
  let stopping = false;
  let inFlight: Promise<unknown> = Promise.resolve();
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void handle.close();
  };
  const unsubscribe = io.onTerminate?.(() => {
    logger.info("watch_terminate_signal");
    stop();
  });

  const decoder = new NdjsonDecoder({
    onValue: (value) => {
      const command = validateWatchCommand(value, { lease });
      if (!command.ok) {
        logger.warn("watch_command_invalid", { field: command.error.details?.field ?? "" });
        return;
      }
      if (command.value === null) {
        logger.info("watch_command_unknown");
        return;
      }
      logger.debug("watch_command", { type: command.value.type });
      inFlight = handle.send(command.value).catch(() => {});
    },
    onIssue: (issue) =>
      logger.warn("watch_command_dropped", { reason: issue.reason, line: issue.line }),
  });

  const iterator = io.stdin[Symbol.asyncIterator]();
  const reading = (async (): Promise<void> => {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done === true || stopping) break;
        decoder.push(next.value);
      }
      decoder.end();
    } catch {
      logger.warn("watch_stdin_failed");
    }
    if (stopping) return;
    logger.info("watch_stdin_eof");
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      inFlight,
      new Promise((resolve) => {
        timer = setTimeout(resolve, WATCH_EOF_DRAIN_MS);
      }),
    ]);
    clearTimeout(timer);
    stop();
  })();

  let status = 0;
  try {
    for await (const event of handle) {
      io.stdout(ndjsonLine(event));
      if (event.event === "error" && !event.error.retryable) {
        status = ERROR_EXIT_STATUS[event.error.code];
      }
    }
  } finally {
    stopping = true;
    unsubscribe?.();
    // Stop reading a held-open stdin so the process can exit; never wait for it.
    void iterator.return?.()?.catch(() => {});
    void reading;
  }
  return status;
}
