import { describe, expect, test } from "vitest";
import type { JsonValue } from "./json-value.ts";
import { NdjsonDecoder, type NdjsonLineIssue, readNdjson } from "./ndjson-decoder.ts";
import { ndjsonLine } from "./ndjson-writer.ts";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function decodeChunks(chunks: Uint8Array[], maxLineBytes?: number) {
  const values: JsonValue[] = [];
  const issues: NdjsonLineIssue[] = [];
  const decoder = new NdjsonDecoder({
    onValue: (v) => values.push(v),
    onIssue: (i) => issues.push(i),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return { values, issues };
}

describe("NdjsonDecoder", () => {
  const stream = utf8(
    '{"event":"ready","session_id":"s-é"}\n\n{"event":"message","message":{"body":"a\\nb 😀"}}\r\n{"type":"close"}',
  );
  const expected = [
    { event: "ready", session_id: "s-é" },
    { event: "message", message: { body: "a\nb 😀" } },
    { type: "close" },
  ];

  test("splits one chunk into values; blank lines skipped; final unterminated line parsed", () => {
    expect(decodeChunks([stream])).toEqual({ values: expected, issues: [] });
  });

  test("gives the same values when the stream is split at every byte boundary", () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      expect(decodeChunks([stream.subarray(0, cut), stream.subarray(cut)]).values).toEqual(
        expected,
      );
    }
  });

  test("gives the same values when fed one byte at a time", () => {
    const bytes = [...stream].map((b) => new Uint8Array([b]));
    expect(decodeChunks(bytes).values).toEqual(expected);
  });

  test("drops an oversize line, reports it once, and keeps reading", () => {
    const big = `{"body":"${"x".repeat(200)}"}`;
    const input = utf8(`{"n":1}\n${big}\n{"n":2}\n`);
    for (const chunkSize of [1, 7, 64, input.length]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < input.length; i += chunkSize)
        chunks.push(input.subarray(i, i + chunkSize));
      const { values, issues } = decodeChunks(chunks, 100);
      expect(values).toEqual([{ n: 1 }, { n: 2 }]);
      expect(issues).toHaveLength(1);
      expect(issues[0]?.reason).toBe("too_long");
      expect(issues[0]?.line).toBe(2);
      expect(issues[0]?.bytes).toBeGreaterThan(100);
    }
  });

  test("a line of exactly the cap passes", () => {
    const line = `"${"x".repeat(98)}"`; // 100 bytes
    expect(decodeChunks([utf8(`${line}\n`)], 100).values).toEqual(["x".repeat(98)]);
  });

  test("an oversize final line without a newline is dropped", () => {
    const { values, issues } = decodeChunks([utf8(`{"n":1}\n"${"x".repeat(300)}`)], 100);
    expect(values).toEqual([{ n: 1 }]);
    expect(issues.map((i) => i.reason)).toEqual(["too_long"]);
  });

  test("bad lines are reported (without content) and reading continues", () => {
    const input = new Uint8Array([
      ...utf8('{"a":1}\nnot json\n{"d":1,"d":2}\n'),
      0xff,
      0x0a,
      ...utf8('{"b":2}\n'),
    ]);
    const { values, issues } = decodeChunks([input]);
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(issues).toEqual([
      { line: 2, reason: "malformed_json", bytes: 8 },
      { line: 3, reason: "duplicate_member", bytes: 13 },
      { line: 4, reason: "not_utf8", bytes: 1 },
    ]);
  });

  test("the default cap is 1 MiB", () => {
    const ok = `"${"x".repeat(1_048_574)}"`;
    const tooBig = `"${"x".repeat(1_048_575)}"`;
    const { values, issues } = decodeChunks([utf8(`${ok}\n${tooBig}\n1\n`)]);
    expect(values).toHaveLength(2);
    expect(values[1]).toBe(1);
    expect(issues.map((i) => i.reason)).toEqual(["too_long"]);
  });
});

describe("readNdjson", () => {
  test("reads an async byte stream", async () => {
    async function* source() {
      yield utf8('{"a":');
      yield utf8('1}\n{"b"');
      yield utf8(":2}\n");
    }
    const out: JsonValue[] = [];
    for await (const v of readNdjson(source())) out.push(v);
    expect(out).toEqual([{ a: 1 }, { b: 2 }]);
  });
});

describe("ndjsonLine", () => {
  test("one physical line; \\n, \\r, U+2028, U+2029 escaped; round-trips", () => {
    const body = 'line1\nline2\r\u2028\u2029\nAuthorization: Bearer x\n{"event":"ready"}';
    const line = ndjsonLine({ event: "message", message: { body } });
    expect(line.endsWith("\n")).toBe(true);
    const content = line.slice(0, -1);
    expect(content).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(content).toContain("\\u2028");
    expect(content).toContain("\\u2029");
    expect(JSON.parse(content)).toEqual({ event: "message", message: { body } });
    expect(decodeChunks([utf8(line + line)]).values).toHaveLength(2);
  });

  test("the spec's acked line", () => {
    expect(ndjsonLine({ event: "acked", message_ids: ["m-7f3a"], unknown: [] })).toBe(
      '{"event":"acked","message_ids":["m-7f3a"],"unknown":[]}\n',
    );
  });
});
