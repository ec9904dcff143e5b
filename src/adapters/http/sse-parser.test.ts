import { describe, expect, test } from "vitest";
import { type SseEvent, SseParser } from "./sse-parser.ts";

function parse(options?: { maxLineChars?: number; maxEventChars?: number }): {
  parser: SseParser;
  events: SseEvent[];
} {
  const events: SseEvent[] = [];
  return { parser: new SseParser((e) => events.push(e), options), events };
}

describe("SseParser", () => {
  test("a stream dripped one character at a time parses like one chunk", () => {
    const text = 'event: message\r\nid: m-1\r\ndata: {"a":1}\r\ndata: 2\r\r:keep\n\ndata: x\n\n';
    const { parser, events } = parse();
    for (const ch of text) parser.push(ch);
    expect(events).toEqual([
      { event: "message", data: '{"a":1}\n2', id: "m-1" },
      { event: "message", data: "x", id: "m-1" },
    ]);
  });

  test("a line dripped one character at a time costs linear work: two million pushes make one event", async () => {
    // Linear, this is a fraction of a second. Quadratic work (searching the whole unfinished line
    // again on every push) would take hours: the loop yields now and then so that the suite's
    // test timeout, not a clock read here, ends such a run as a failure.
    const { parser, events } = parse();
    parser.push("data: ");
    const letters = "abcdefghijklmnopqrstuvwxyz";
    for (let i = 0; i < 2_000_000; i++) {
      parser.push(letters[i % 26] ?? "");
      if (i % 20_000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    parser.push("\n\n");
    expect(events).toHaveLength(1);
    expect(events[0]?.data === letters.repeat(76_924).slice(0, 2_000_000)).toBe(true);
  });

  test("pieces of any size, a CR ending one push and its LF starting the next, join in order", () => {
    const { parser, events } = parse();
    const line = Array.from({ length: 300 }, (_, i) => String(i)).join(",");
    let at = 0;
    for (let size = 1; at < line.length; size = (size * 7) % 23 || 1) {
      parser.push(at === 0 ? `data: ${line.slice(0, size)}` : line.slice(at, at + size));
      at += size;
    }
    parser.push("\r");
    parser.push("\ndata: b\r\n\r\n");
    expect(events).toEqual([{ event: "message", data: `${line}\nb`, id: undefined }]);
  });

  test("an over-long line poisons only its own event, in one chunk or dripped", () => {
    const { parser, events } = parse({ maxLineChars: 16 });
    parser.push("data: a\ndata: ");
    parser.push("x".repeat(40));
    parser.push("\n\ndata: next\n\ndata: ");
    for (let i = 0; i < 40; i++) parser.push("y");
    parser.push("\n\ndata: last\n\n");
    expect(events).toEqual([
      { event: "message", data: "next", id: undefined },
      { event: "message", data: "last", id: undefined },
    ]);
  });

  test("the rest of an over-long line is not read as a line of its own, whatever it holds", () => {
    const { parser, events } = parse({ maxLineChars: 16 });
    // The long line's rest is empty, a field of its own, or an id: none of it may end the
    // poisoned event early, let a later data line of that event through, or set the id.
    parser.push("data: a\ndata: ");
    parser.push("x".repeat(40));
    parser.push("\ndata: b\n\n");
    parser.push("data: c\ndata: ");
    parser.push("y".repeat(40));
    parser.push("\nid: forged\ndata: d\n\n");
    parser.push(`id: ${"z".repeat(40)}`);
    parser.push("\r\rid: real\n");
    // An empty chunk between a CR and its LF does not turn the LF into a blank line.
    parser.push("data: e\r");
    parser.push("");
    parser.push("\ndata: f\n\n");
    expect(events).toEqual([{ event: "message", data: "e\nf", id: "real" }]);
  });

  test("many short data lines cannot add up past the event cap; the next event still parses", () => {
    const { parser, events } = parse({ maxLineChars: 100, maxEventChars: 1000 });
    for (let i = 0; i < 10_000; i++) parser.push("data: 0123456789\n");
    parser.push("\n");
    parser.push("data: after\n\n");
    expect(events).toEqual([{ event: "message", data: "after", id: undefined }]);
  });

  test("an event exactly at the cap is delivered", () => {
    const { parser, events } = parse({ maxEventChars: 8 });
    parser.push("data: abc\ndata: def\n\n");
    expect(events).toEqual([{ event: "message", data: "abc\ndef", id: undefined }]);
  });
});
