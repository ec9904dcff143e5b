import { LOG_LEVELS, type LogLevel } from "../protocol/index.ts";

/** Extra members of one diagnostic line: fixed tokens and numbers, never a secret or a body. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Diagnostics of an adapter (docs/spec/protocol.md §1.4): one NDJSON object per line on stderr,
 * never on stdout, never shown to a model. `event` is a fixed snake_case token; `fields` are
 * redacted again before writing (join-secret halves and bearer tokens are replaced), so a careless
 * caller cannot leak.
 *
 * @example
 * logger.warn("stream_dropped", { attempt: 2 });
 * // stderr: {"ts":"2026-10-02T09:15:42.000Z","level":"warn","comp":"http","event":"stream_dropped","attempt":2}
 */
export interface AdapterLogger {
  error(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  debug(event: string, fields?: LogFields): void;
  /** The same sink under another `comp` name. */
  child(comp: string): AdapterLogger;
}

/** Options of {@link createNdjsonLogger}. */
export interface NdjsonLoggerOptions {
  /** Receives each complete line (with its `\n`). */
  readonly write: (line: string) => void;
  /** Lines below this level are dropped. */
  readonly level: LogLevel;
  /** The component name in `comp`. */
  readonly comp: string;
  /** Clock for `ts`; defaults to the system clock. */
  readonly now?: () => Date;
}

const RANK: Readonly<Record<LogLevel, number>> = { error: 0, warn: 1, info: 2, debug: 3 };

// The docs/spec/protocol.md §9 shape (with the backtick excluded) and bearer credentials; both
// replaced before writing.
const SECRET_SHAPE = /brg1\.([^\s"'<>`.]+(?:\.[^\s"'<>`.]+)*)\.[^\s"'<>`.]+/g;
const BEARER = /\bBearer\s+[^\s"']+/gi;

/**
 * Redacts text for a log line: a docs/spec/protocol.md §9 join secret keeps its team_ref and loses
 * its secret half (`brg1.<team_ref>.[redacted]`), a `Bearer <token>` becomes `Bearer [redacted]`.
 * Returns the input itself when nothing matches (fast path).
 *
 * @example
 * redactLogText("join brg1.t-1.s3cr3t") === "join brg1.t-1.[redacted]";
 */
export function redactLogText(text: string): string {
  if (!text.includes("brg1.") && !/bearer/i.test(text)) return text;
  return text.replace(SECRET_SHAPE, "brg1.$1.[redacted]").replace(BEARER, "Bearer [redacted]");
}

/**
 * The log level in force: the `--log-level` flag, else `BRIGADE_LOG_LEVEL` when it names a
 * level, else `warn`.
 *
 * @example
 * resolveLogLevel(undefined, "debug") === "debug";
 */
export function resolveLogLevel(flag: LogLevel | undefined, env: string | undefined): LogLevel {
  if (flag !== undefined) return flag;
  if (env !== undefined && (LOG_LEVELS as readonly string[]).includes(env)) return env as LogLevel;
  return "warn";
}

/**
 * A logger writing `{"ts","level","comp","event",…}` lines (docs/spec/protocol.md §1.4
 * recommendation). Reserved keys in `fields` cannot overwrite the four leading members.
 *
 * @example
 * const log = createNdjsonLogger({ write: (l) => process.stderr.write(l), level: "info", comp: "http" });
 */
export function createNdjsonLogger(options: NdjsonLoggerOptions): AdapterLogger {
  const threshold = RANK[options.level];
  const now = options.now ?? (() => new Date());
  const emit = (level: LogLevel, event: string, fields?: LogFields): void => {
    if (RANK[level] > threshold) return;
    const line: Record<string, string | number | boolean> = {
      ts: now().toISOString(),
      level,
      comp: options.comp,
      event: redactLogText(event),
    };
    if (fields !== undefined) {
      for (const [key, value] of Object.entries(fields)) {
        if (value === undefined || key in line) continue;
        line[key] = typeof value === "string" ? redactLogText(value) : value;
      }
    }
    try {
      options.write(`${JSON.stringify(line)}\n`);
    } catch {
      // A closed stderr must never turn a diagnostic into a failure of the command.
    }
  };
  return {
    error: (event, fields) => emit("error", event, fields),
    warn: (event, fields) => emit("warn", event, fields),
    info: (event, fields) => emit("info", event, fields),
    debug: (event, fields) => emit("debug", event, fields),
    child: (comp) => createNdjsonLogger({ ...options, comp }),
  };
}

/**
 * A logger that drops everything (in-process use without diagnostics).
 *
 * @example
 * new HttpAdapter({ …, logger: silentLogger() });
 */
export function silentLogger(): AdapterLogger {
  const drop = (): void => {};
  const self: AdapterLogger = {
    error: drop,
    warn: drop,
    info: drop,
    debug: drop,
    child: () => self,
  };
  return self;
}
