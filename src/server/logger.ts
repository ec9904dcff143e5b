/** Severity of a log line, lowest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Values a log line may carry: plain scalars only, so no request body can slip in whole. */
export type LogFields = Readonly<Record<string, string | number | boolean | null>>;

/**
 * Structured logs: one JSON object per line (`ts`, `level`, `event`, then the fields). Callers
 * pass only redacted fields: route patterns, never paths with ids; never tokens, secrets or text.
 */
export interface Logger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
}

/**
 * A {@link Logger} writing lines at or above `minimum` to `write` (stderr in production).
 *
 * @example jsonLogger((line) => process.stderr.write(line), "info").log("info", "listening", { port: 7777 });
 */
export function jsonLogger(write: (line: string) => void, minimum: LogLevel = "info"): Logger {
  return {
    log(level, event, fields = {}) {
      if (RANK[level] < RANK[minimum]) return;
      write(`${JSON.stringify({ ts: new Date().toISOString(), level, event, ...fields })}\n`);
    },
  };
}

/** A {@link Logger} that drops everything (tests). */
export const silentLogger: Logger = { log() {} };
