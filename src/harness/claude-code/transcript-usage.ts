import { closeSync, readSync, type Stats } from "node:fs";
import { isAbsolute } from "node:path";
import { oneLine } from "../../formats/sanitize/index.ts";
import { openLocalFile } from "../../local-files/index.ts";

/** Most bytes of a transcript one {@link TranscriptUsageReader.read} reads (1 MiB). */
export const TRANSCRIPT_READ_MAX_BYTES = 1_048_576;

/** Longest model name kept, code points (docs/spec/protocol.md §7 `max_model_chars`). */
export const TRANSCRIPT_MODEL_MAX_CODEPOINTS = 128;

/**
 * Why a {@link TranscriptUsageReader} started the file over: `replaced` (another file now stands
 * at the path: a new inode or device), `truncated` (the file shrank below the bytes already read),
 * `path_changed` (the by-pid map names another transcript).
 *
 * @example TRANSCRIPT_RESTART_REASONS.includes("truncated") === true
 */
export const TRANSCRIPT_RESTART_REASONS = ["replaced", "truncated", "path_changed"] as const;

/** One reason of {@link TRANSCRIPT_RESTART_REASONS}. */
export type TranscriptRestartReason = (typeof TRANSCRIPT_RESTART_REASONS)[number];

/** What one transcript line said, when it is a main-chain assistant entry. */
export interface TranscriptLineUsage {
  /** The model name through `oneLine(…, 128)`; absent when missing, synthetic or empty. */
  readonly model?: string;
  /** input + cache_read + cache_creation input tokens; absent when the usage is unusable. */
  readonly contextUsedTokens?: number;
}

/** What one {@link TranscriptUsageReader.read} did (for the log and tests; no transcript text). */
export interface TranscriptReadOutcome {
  /** The latest model or context size differs from before this read. */
  readonly changed: boolean;
  /** Bytes read from the file by this call. */
  readonly bytesRead: number;
  /** Set when this read started the file over. */
  readonly restarted?: TranscriptRestartReason;
  /** Bytes passed over unread because more than one read's worth had piled up. */
  readonly skippedBytes: number;
}

// Claude Code writes `"type":"assistant"` on each assistant entry; a line without this text
// cannot be one, and most lines (tool results, user turns) are dropped without a JSON parse.
const ASSISTANT_MARK = '"assistant"';
// Claude Code's own placeholder entries (an API error, an interrupted turn) carry this model
// and a zero usage: they say nothing about the conversation's context.
const SYNTHETIC_MODEL = "<synthetic>";
const NEWLINE = 0x0a;

/**
 * Reads one line of a Claude Code transcript (JSONL in an internal, version-dependent format,
 * docs/spec/claude-code.md §1.2) for the two values a heartbeat may carry. Only entries shaped like
 * `{"type":"assistant","message":{"model":"…","usage":{"input_tokens":n,
 * "cache_read_input_tokens":n,"cache_creation_input_tokens":n,"output_tokens":n}}}` count;
 * sub-agent entries (`isSidechain: true`) and the `<synthetic>` model are passed over. Context
 * used = input + cache_read + cache_creation (absent cache members count 0; `input_tokens` must
 * be a non-negative integer, the sum at most 2^53 − 1). `undefined` for anything else, garbage
 * included. Never throws.
 *
 * @example parseTranscriptUsageLine('{"type":"assistant","message":{"model":"claude-x","usage":{"input_tokens":3,"cache_read_input_tokens":100}}}') // { model: "claude-x", contextUsedTokens: 103 }
 */
export function parseTranscriptUsageLine(line: string): TranscriptLineUsage | undefined {
  if (!line.includes(ASSISTANT_MARK)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.type !== "assistant" || value.isSidechain === true) {
    return undefined;
  }
  const message = value.message;
  if (!isRecord(message)) return undefined;
  const rawModel = message.model;
  if (rawModel === SYNTHETIC_MODEL) return undefined;
  const model =
    typeof rawModel === "string" ? oneLine(rawModel, TRANSCRIPT_MODEL_MAX_CODEPOINTS) : "";
  const tokens = contextTokens(message.usage);
  if (model === "" && tokens === undefined) return undefined;
  return {
    ...(model === "" ? {} : { model }),
    ...(tokens === undefined ? {} : { contextUsedTokens: tokens }),
  };
}

function contextTokens(usage: unknown): number | undefined {
  if (!isRecord(usage)) return undefined;
  const input = count(usage.input_tokens, false);
  const read = count(usage.cache_read_input_tokens, true);
  const created = count(usage.cache_creation_input_tokens, true);
  if (input === undefined || read === undefined || created === undefined) return undefined;
  const sum = input + read + created;
  return Number.isSafeInteger(sum) ? sum : undefined;
}

function count(value: unknown, optional: boolean): number | undefined {
  if (value === undefined || value === null) return optional ? 0 : undefined;
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Limits of a {@link TranscriptUsageReader}. */
export interface TranscriptUsageReaderOptions {
  /** Most bytes read per call (default {@link TRANSCRIPT_READ_MAX_BYTES}, at least 2). */
  readonly maxReadBytes?: number;
  /**
   * Called with every whole line read, in file order, before the values are taken (lines passed
   * over unread are not given): another reader of the same file (the delivery confirmations)
   * rides on this one read. Must not throw.
   */
  readonly onLine?: (line: string) => void;
  /** Called when the reader passes bytes over unread or starts the file over. */
  readonly onGap?: () => void;
}

/**
 * The latest model and context size of one Claude Code session, read incrementally from its
 * transcript (a best-effort reading of an undocumented format; docs/41-watcher.md). Each
 * {@link read} reads only the bytes appended since the last one, at most `maxReadBytes` (1 MiB):
 * when more has piled up (or at the first read of a large file) it jumps to the last
 * `maxReadBytes` and drops the torn line there. A partial last line is read again next time; a
 * line longer than one read is passed over; a file that shrank, or another file at the path
 * (new inode), is started over. The file is opened read-only, without following a symlink, and
 * must be a regular file. Nothing read is kept but the two values, and they only ever move to a
 * newer entry's: a transcript without assistant entries leaves them as they were. Never throws.
 *
 * @example const reader = new TranscriptUsageReader(); reader.read(map.transcript_path); reader.model // "claude-x" or undefined
 */
export class TranscriptUsageReader {
  readonly #maxReadBytes: number;
  readonly #onLine: ((line: string) => void) | undefined;
  readonly #onGap: (() => void) | undefined;
  #path: string | undefined;
  #identity: string | undefined;
  #offset = 0;
  /** The byte at `#offset` is inside a line already given up on: drop through the next `\n`. */
  #skipping = false;
  #model: string | undefined;
  #contextUsedTokens: number | undefined;

  constructor(options: TranscriptUsageReaderOptions = {}) {
    this.#maxReadBytes = Math.max(2, options.maxReadBytes ?? TRANSCRIPT_READ_MAX_BYTES);
    this.#onLine = options.onLine;
    this.#onGap = options.onGap;
  }

  /** The latest model name seen (`oneLine`, ≤ 128 code points), if any. */
  get model(): string | undefined {
    return this.#model;
  }

  /** The latest context size seen, tokens, if any. */
  get contextUsedTokens(): number | undefined {
    return this.#contextUsedTokens;
  }

  /**
   * Reads what was appended to the transcript at `path` since the last call. `undefined`, `""`
   * or a relative path reads nothing (the values stay). Never throws.
   *
   * @example reader.read("/home/dana/.claude/projects/w/5d1c.jsonl").changed
   */
  read(path: string | undefined): TranscriptReadOutcome {
    const none: TranscriptReadOutcome = { changed: false, bytesRead: 0, skippedBytes: 0 };
    if (path === undefined || path === "" || !isAbsolute(path)) return none;
    let restarted: TranscriptRestartReason | undefined;
    if (path !== this.#path) {
      if (this.#path !== undefined) {
        restarted = "path_changed";
        this.#onGap?.();
      }
      this.#path = path;
      this.#startOver();
    }
    const opened = openLocalFile(path);
    // not a regular file (a FIFO never hangs the open), a symlink, missing: nothing to read
    if (!opened.ok) return withRestart(none, restarted);
    const fd = opened.fd;
    try {
      return this.#readOpen(fd, opened.stats, restarted);
    } catch {
      return withRestart(none, restarted);
    } finally {
      closeSync(fd);
    }
  }

  #startOver(): void {
    this.#identity = undefined;
    this.#offset = 0;
    this.#skipping = false;
  }

  #readOpen(
    fd: number,
    info: Stats,
    restartedBefore: TranscriptRestartReason | undefined,
  ): TranscriptReadOutcome {
    let restarted = restartedBefore;
    const identity = `${info.dev}:${info.ino}`;
    if (this.#identity !== undefined && this.#identity !== identity) {
      restarted = "replaced";
      this.#onGap?.();
      this.#startOver();
    } else if (info.size < this.#offset) {
      restarted = "truncated";
      this.#onGap?.();
      this.#startOver();
    }
    this.#identity = identity;
    const size = info.size;
    let skippedBytes = 0;
    if (size - this.#offset > this.#maxReadBytes) {
      // Only the latest entry matters: jump to the tail. The byte at the new offset belongs to
      // the line before the window (or is its `\n`), so dropping through the first `\n` keeps
      // every whole line of the window.
      const target = size - this.#maxReadBytes;
      skippedBytes = target - this.#offset;
      this.#offset = target;
      this.#onGap?.();
      this.#skipping = true;
    }
    const wanted = size - this.#offset;
    if (wanted <= 0) return withRestart({ changed: false, bytesRead: 0, skippedBytes }, restarted);
    const data = Buffer.allocUnsafe(wanted);
    let length = 0;
    while (length < wanted) {
      const n = readSync(fd, data, length, wanted - length, this.#offset + length);
      if (n === 0) break;
      length += n;
    }
    const changed = this.#consume(data.subarray(0, length));
    return withRestart({ changed, bytesRead: length, skippedBytes }, restarted);
  }

  /** Takes the whole lines of `data` (read at `#offset`) and moves `#offset` past them. */
  #consume(data: Buffer): boolean {
    let start = 0;
    if (this.#skipping) {
      const end = data.indexOf(NEWLINE);
      if (end < 0) {
        this.#offset += data.length;
        return false;
      }
      start = end + 1;
      this.#skipping = false;
    }
    const last = data.lastIndexOf(NEWLINE);
    if (last < start) {
      // No whole line yet. A partial line is read again next time, unless it already fills a
      // whole read: then it can never be taken, and is passed over to its end.
      if (data.length - start >= this.#maxReadBytes) {
        this.#offset += data.length;
        this.#skipping = true;
      } else {
        this.#offset += start;
      }
      return false;
    }
    this.#offset += last + 1;
    const lines = data.toString("utf8", start, last).split("\n");
    if (this.#onLine !== undefined) for (const line of lines) this.#onLine(line);
    return this.#takeLatest(lines);
  }

  /** Scans `lines` from the newest back until both values are found. */
  #takeLatest(lines: readonly string[]): boolean {
    let model: string | undefined;
    let tokens: number | undefined;
    for (
      let i = lines.length - 1;
      i >= 0 && (model === undefined || tokens === undefined);
      i -= 1
    ) {
      const usage = parseTranscriptUsageLine(lines[i] as string);
      if (usage === undefined) continue;
      model ??= usage.model;
      tokens ??= usage.contextUsedTokens;
    }
    let changed = false;
    if (model !== undefined && model !== this.#model) {
      this.#model = model;
      changed = true;
    }
    if (tokens !== undefined && tokens !== this.#contextUsedTokens) {
      this.#contextUsedTokens = tokens;
      changed = true;
    }
    return changed;
  }
}

function withRestart(
  outcome: TranscriptReadOutcome,
  restarted: TranscriptRestartReason | undefined,
): TranscriptReadOutcome {
  return restarted === undefined ? outcome : { ...outcome, restarted };
}
