import { MAX_NDJSON_LINE_BYTES } from "../limits.ts";
import { decodeUtf8Strict } from "./json-document.ts";
import type { JsonValue } from "./json-value.ts";
import { parseStrictJson } from "./strict-json.ts";

/** Why a line was dropped. */
export const NDJSON_LINE_ISSUES = [
  "too_long",
  "not_utf8",
  "malformed_json",
  "duplicate_member",
] as const;

/** A dropped-line reason. */
export type NdjsonLineIssueReason = (typeof NDJSON_LINE_ISSUES)[number];

/** A dropped line, reported without its content (it may hold a body or a secret). */
export interface NdjsonLineIssue {
  /** 1-based line number in the stream. */
  readonly line: number;
  readonly reason: NdjsonLineIssueReason;
  /** Bytes of the line seen (for `too_long`: seen when it crossed the cap). */
  readonly bytes: number;
}

/** Callbacks and cap of an {@link NdjsonDecoder}. */
export interface NdjsonDecoderOptions {
  /** Called with each parsed JSON value, in stream order. */
  readonly onValue: (value: JsonValue) => void;
  /** Called for every dropped line; reading always continues. */
  readonly onIssue?: (issue: NdjsonLineIssue) => void;
  /** Line cap in bytes, excluding the `\n`; defaults to 1 MiB. */
  readonly maxLineBytes?: number;
}

const NEWLINE = 0x0a;

/**
 * Push-style NDJSON decoder (docs/spec/protocol.md §5) for watch stdout and stdin: feed byte chunks
 * with `push` (split anywhere, even inside a UTF-8 sequence), then `end()`. Each `\n`-terminated
 * line is parsed strictly (UTF-8, duplicate members refused); blank lines are skipped; a final line
 * without `\n` is parsed at `end()`. A line over the cap is dropped **without buffering it** and
 * reported once as `too_long`; bad lines are reported through `onIssue`. Never throws on input.
 *
 * @example
 * const decoder = new NdjsonDecoder({ onValue: (v) => events.push(v), onIssue: (i) => log(i.reason) });
 * process.stdin.on("data", (chunk) => decoder.push(chunk)).on("end", () => decoder.end());
 */
export class NdjsonDecoder {
  readonly #onValue: (value: JsonValue) => void;
  readonly #onIssue: ((issue: NdjsonLineIssue) => void) | undefined;
  readonly #maxLineBytes: number;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #discarding = false;
  #line = 1;

  /** Creates a decoder delivering to `options.onValue`. */
  constructor(options: NdjsonDecoderOptions) {
    this.#onValue = options.onValue;
    this.#onIssue = options.onIssue;
    this.#maxLineBytes = options.maxLineBytes ?? MAX_NDJSON_LINE_BYTES;
  }

  /** Feeds the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    let start = 0;
    const length = chunk.length;
    while (start < length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? length : newline;
      const segmentBytes = end - start;
      if (this.#discarding) {
        if (newline !== -1) {
          this.#discarding = false;
          this.#line++;
        }
      } else if (this.#pendingBytes + segmentBytes > this.#maxLineBytes) {
        this.#report("too_long", this.#pendingBytes + segmentBytes);
        this.#pending = [];
        this.#pendingBytes = 0;
        if (newline === -1) this.#discarding = true;
        else this.#line++;
      } else if (newline === -1) {
        this.#pending.push(chunk.slice(start, end));
        this.#pendingBytes += segmentBytes;
      } else {
        this.#completeLine(chunk.subarray(start, end));
      }
      if (newline === -1) return;
      start = newline + 1;
    }
  }

  /** Ends the stream: a final unterminated line is parsed; an oversize one stays dropped. */
  end(): void {
    if (!this.#discarding && this.#pendingBytes > 0) this.#completeLine(new Uint8Array(0));
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#discarding = false;
  }

  #completeLine(tail: Uint8Array): void {
    let bytes = tail;
    if (this.#pending.length > 0) {
      bytes = new Uint8Array(this.#pendingBytes + tail.length);
      let offset = 0;
      for (const part of this.#pending) {
        bytes.set(part, offset);
        offset += part.length;
      }
      bytes.set(tail, offset);
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    this.#parseLine(bytes);
    this.#line++;
  }

  #parseLine(bytes: Uint8Array): void {
    let blank = true;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (b !== 0x20 && b !== 0x0d && b !== 0x09) {
        blank = false;
        break;
      }
    }
    if (blank) return;
    const text = decodeUtf8Strict(bytes);
    if (text === undefined) {
      this.#report("not_utf8", bytes.length);
      return;
    }
    const parsed = parseStrictJson(text);
    if (parsed.ok) this.#onValue(parsed.value);
    else this.#report(parsed.reason, bytes.length);
  }

  #report(reason: NdjsonLineIssueReason, bytes: number): void {
    this.#onIssue?.({ line: this.#line, reason, bytes });
  }
}

/**
 * Reads JSON values from an async byte stream (a Node readable, a web stream iterator …) as an
 * async iterable, with the {@link NdjsonDecoder} rules; `onIssue` hears about dropped lines.
 *
 * @example
 * for await (const value of readNdjson(child.stdout, { onIssue: (i) => warn(i) })) {
 *   const event = validateWatchEvent(value);
 * }
 */
export async function* readNdjson(
  source: AsyncIterable<Uint8Array>,
  options?: Omit<NdjsonDecoderOptions, "onValue">,
): AsyncGenerator<JsonValue, void, undefined> {
  const ready: JsonValue[] = [];
  const decoder = new NdjsonDecoder({
    onValue: (value) => ready.push(value),
    ...(options?.onIssue === undefined ? {} : { onIssue: options.onIssue }),
    ...(options?.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
  });
  for await (const chunk of source) {
    decoder.push(chunk);
    yield* drain(ready);
  }
  decoder.end();
  yield* drain(ready);
}

function* drain(ready: JsonValue[]): Generator<JsonValue, void, undefined> {
  // Copy first: shift() per value would be quadratic for a chunk holding many lines.
  const values = ready.splice(0, ready.length);
  for (const value of values) yield value;
}
