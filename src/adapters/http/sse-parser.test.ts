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

  test("an over-long line poisons only its own event", () => {
    const { parser, events } = parse({ maxLineChars: 16 });
    parser.push("data: a\ndata: ");
    parser.push("x".repeat(40));
    parser.push("\n\ndata: next\n\n");
    expect(events).toEqual([{ event: "message", data: "next", id: undefined }]);
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
