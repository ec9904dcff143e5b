/** One Server-Sent Event: its `event:` name (default `message`), joined `data:` lines and `id:`. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

/**
 * Incremental `text/event-stream` parser (the WHATWG event-stream rules we need): lines end with
 * `\n`, `\r\n` or `\r`; `:` lines are comments (keep-alives, reported through `onComment`);
 * `event`, `data`, `id` fields accumulate until a blank line dispatches; a single space after the
 * colon is dropped; `data` lines join with `\n`; an event without data is not dispatched. Text
 * chunks may split anywhere. A line longer than `maxLineChars`, or `data` lines adding up to more
 * than `maxEventChars` (both default 4 MiB of UTF-16 units), poisons only its own event: it is
 * dropped with every field it set (its `id` too), the rest of the over-long line is discarded up
 * to its line end, nothing of it is kept, and the next event parses normally.
 *
 * @example
 * const parser = new SseParser((e) => events.push(e));
 * parser.push("event: ready\ndata: {}\n\n");
 */
export class SseParser {
  readonly #onEvent: (event: SseEvent) => void;
  readonly #onComment: (() => void) | undefined;
  readonly #maxLineChars: number;
  readonly #maxEventChars: number;
  /** The unfinished last line, in the pieces it arrived in. */
  #partial: string[] = [];
  #partialChars = 0;
  #skipLeadingLf = false;
  #event = "";
  #data: string[] = [];
  #dataChars = 0;
  /** The last event id of an event that was not poisoned; it carries over to later events. */
  #id: string | undefined;
  /** The id as the event being read sets it; kept only if that event is not poisoned. */
  #eventId: string | undefined;
  #poisoned = false;
  /** The rest of an over-long line is still arriving: it is discarded up to its line end. */
  #discardingLine = false;

  constructor(
    onEvent: (event: SseEvent) => void,
    options?: {
      readonly onComment?: () => void;
      readonly maxLineChars?: number;
      readonly maxEventChars?: number;
    },
  ) {
    this.#onEvent = onEvent;
    this.#onComment = options?.onComment;
    this.#maxLineChars = options?.maxLineChars ?? 4 * 1024 * 1024;
    this.#maxEventChars = options?.maxEventChars ?? 4 * 1024 * 1024;
  }

  /**
   * Feeds decoded text. The work stays near-linear however the text is split: only the new text
   * is searched for line ends, and the unfinished line is kept in a few pieces joined once when
   * its end arrives, so a stream dripped one character at a time cannot pin the CPU.
   */
  push(text: string): void {
    // An empty chunk between a CR and its LF must not forget the CR.
    if (text === "") return;
    let chunk = text;
    if (this.#skipLeadingLf && chunk.startsWith("\n")) chunk = chunk.slice(1);
    this.#skipLeadingLf = false;
    let start = 0;
    const lineEnd = /[\r\n]/g;
    for (let found = lineEnd.exec(chunk); found !== null; found = lineEnd.exec(chunk)) {
      const end = found.index;
      const line = this.#takeLine(chunk.slice(start, end));
      if (this.#discardingLine) this.#discardingLine = false;
      else this.#line(line);
      if (chunk[end] === "\r") {
        if (end + 1 < chunk.length) {
          start = chunk[end + 1] === "\n" ? end + 2 : end + 1;
        } else {
          this.#skipLeadingLf = true;
          start = end + 1;
        }
      } else {
        start = end + 1;
      }
      lineEnd.lastIndex = start;
    }
    if (start === chunk.length || this.#discardingLine) return;
    this.#partialChars += chunk.length - start;
    if (this.#partialChars > this.#maxLineChars) {
      this.#poisoned = true;
      this.#discardingLine = true;
      this.#partial = [];
      this.#partialChars = 0;
      return;
    }
    // Merged like a binary counter: each piece stays over twice as long as the one after it, so
    // there are few pieces however small the chunks, and each character is copied O(log n) times.
    let piece = chunk.slice(start);
    for (let last = this.#partial.at(-1); last !== undefined; last = this.#partial.at(-1)) {
      if (last.length > 2 * piece.length) break;
      this.#partial.pop();
      piece = [last, piece].join("");
    }
    this.#partial.push(piece);
  }

  /** The whole line ending with `tail`: the pieces kept from earlier pushes, then `tail`. */
  #takeLine(tail: string): string {
    if (this.#partial.length === 0) return tail;
    this.#partial.push(tail);
    const line = this.#partial.join("");
    this.#partial = [];
    this.#partialChars = 0;
    return line;
  }

  #line(line: string): void {
    if (line === "") {
      if (this.#poisoned) this.#eventId = this.#id;
      else this.#id = this.#eventId;
      if (!this.#poisoned && this.#data.length > 0) {
        this.#onEvent({
          event: this.#event === "" ? "message" : this.#event,
          data: this.#data.join("\n"),
          id: this.#id,
        });
      }
      this.#event = "";
      this.#data = [];
      this.#dataChars = 0;
      this.#poisoned = false;
      return;
    }
    if (line.startsWith(":")) {
      this.#onComment?.();
      return;
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.#event = value;
        break;
      case "data":
        // Many short lines must not add up to an unbounded event either.
        if (this.#poisoned) break;
        this.#dataChars += value.length + 1;
        if (this.#dataChars > this.#maxEventChars) {
          this.#poisoned = true;
          this.#data = [];
          break;
        }
        this.#data.push(value);
        break;
      case "id":
        if (!value.includes("\0")) this.#eventId = value;
        break;
      default:
        break;
    }
  }
}
