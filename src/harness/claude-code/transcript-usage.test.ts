import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { testdataDir } from "../../../test/support/golden.ts";
import {
  parseTranscriptUsageLine,
  TRANSCRIPT_READ_MAX_BYTES,
  TranscriptUsageReader,
} from "./transcript-usage.ts";

// A transcript shaped like Claude Code 2.1.3xx writes them (contents invented): summary, user
// turn, assistant (opus, 4 + 14,006 + 2,210), a sub-agent's assistant entry, a tool result that
// mentions "assistant", assistant (opus, 6 + 16,216 + 1,834), a synthetic API-error entry, a title.
const FIXTURE = readFileSync(join(testdataDir(import.meta.url), "transcript-session.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => `${line}\n`);
const OPUS = "claude-opus-4-5-20251101";
const FIRST_CONTEXT = 4 + 14_006 + 2_210;
const LATEST_CONTEXT = 6 + 16_216 + 1_834;

/** One main-chain assistant entry with the given model and usage. */
function assistant(model: string, usage: Record<string, unknown>, pad = ""): string {
  return `${JSON.stringify({
    type: "assistant",
    isSidechain: false,
    message: { role: "assistant", model, content: [{ type: "text", text: pad }], usage },
  })}\n`;
}

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brigade-transcript-"));
  path = join(dir, "5d1c.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("parseTranscriptUsageLine", () => {
  test("the fixture's lines: main-chain assistant entries only", () => {
    expect(FIXTURE).toHaveLength(8);
    const parsed = FIXTURE.map((line) => parseTranscriptUsageLine(line));
    expect(parsed).toEqual([
      undefined, // summary
      undefined, // user turn
      { model: OPUS, contextUsedTokens: FIRST_CONTEXT },
      undefined, // sub-agent (isSidechain)
      undefined, // tool result that merely mentions "assistant"
      { model: OPUS, contextUsedTokens: LATEST_CONTEXT },
      undefined, // <synthetic> API error entry
      undefined, // custom title
    ]);
  });

  test("usage rules: cache members optional, input_tokens required, integers within 2^53 − 1", () => {
    const line = (usage: Record<string, unknown>) =>
      parseTranscriptUsageLine(assistant("m", usage));
    expect(line({ input_tokens: 7 })).toEqual({ model: "m", contextUsedTokens: 7 });
    expect(line({ input_tokens: 7, cache_read_input_tokens: null, output_tokens: 99 })).toEqual({
      model: "m",
      contextUsedTokens: 7,
    });
    expect(line({ cache_read_input_tokens: 5 })).toEqual({ model: "m" });
    expect(line({ input_tokens: -1 })).toEqual({ model: "m" });
    expect(line({ input_tokens: 1.5 })).toEqual({ model: "m" });
    expect(line({ input_tokens: "12" })).toEqual({ model: "m" });
    expect(line({ input_tokens: 1, cache_creation_input_tokens: "2" })).toEqual({ model: "m" });
    expect(line({ input_tokens: Number.MAX_SAFE_INTEGER, cache_read_input_tokens: 1 })).toEqual({
      model: "m",
    });
    expect(
      parseTranscriptUsageLine(
        JSON.stringify({ type: "assistant", message: { usage: { input_tokens: 3 } } }),
      ),
    ).toEqual({ contextUsedTokens: 3 });
  });

  test("the model goes through oneLine and is cut at 128 code points", () => {
    const dirty = parseTranscriptUsageLine(
      assistant("claude\n\u202Eopus\u0007 ", { input_tokens: 1 }),
    );
    expect(dirty?.model).toBe("claude opus");
    const long = parseTranscriptUsageLine(assistant("é".repeat(300), { input_tokens: 1 }));
    expect(long?.model).toBe("é".repeat(128));
    expect(parseTranscriptUsageLine(assistant(" \n ", { input_tokens: 1 }))).toEqual({
      contextUsedTokens: 1,
    });
  });

  test("garbage and unknown shapes are undefined, never a throw", () => {
    for (const line of [
      "",
      "assistant",
      '{"type":"assistant"',
      '"assistant"',
      '["assistant"]',
      '{"type":"assistant","message":"text"}',
      '{"type":"assistant","message":{"usage":[1],"model":42}}',
      '{"type":"user","message":{"role":"assistant","model":"m","usage":{"input_tokens":1}}}',
      '\u0000\uFFFD"assistant"\uD800',
    ]) {
      expect(parseTranscriptUsageLine(line)).toBeUndefined();
    }
  });
});

describe("TranscriptUsageReader", () => {
  test("appended in steps: only new bytes are read; values move to the newest entry", () => {
    const reader = new TranscriptUsageReader();
    expect(reader.read(path)).toEqual({ changed: false, bytesRead: 0, skippedBytes: 0 }); // not yet created
    writeFileSync(path, FIXTURE.slice(0, 2).join(""));
    const first = reader.read(path);
    expect(first).toEqual({
      changed: false,
      bytesRead: Buffer.byteLength(FIXTURE.slice(0, 2).join("")),
      skippedBytes: 0,
    });
    expect(reader.model).toBeUndefined();
    appendFileSync(path, FIXTURE[2] as string);
    expect(reader.read(path)).toEqual({
      changed: true,
      bytesRead: Buffer.byteLength(FIXTURE[2] as string),
      skippedBytes: 0,
    });
    expect([reader.model, reader.contextUsedTokens]).toEqual([OPUS, FIRST_CONTEXT]);
    expect(reader.read(path)).toEqual({ changed: false, bytesRead: 0, skippedBytes: 0 });
    appendFileSync(path, FIXTURE.slice(3, 5).join("")); // sub-agent + tool result
    expect(reader.read(path).changed).toBe(false);
    expect(reader.contextUsedTokens).toBe(FIRST_CONTEXT);
    appendFileSync(path, FIXTURE.slice(5).join("")); // newer usage, synthetic entry, title
    expect(reader.read(path).changed).toBe(true);
    expect([reader.model, reader.contextUsedTokens]).toEqual([OPUS, LATEST_CONTEXT]);
  });

  test("a partial last line waits for its end and is read whole", () => {
    const reader = new TranscriptUsageReader();
    writeFileSync(path, FIXTURE.slice(0, 3).join(""));
    reader.read(path);
    const line = FIXTURE[5] as string;
    const cut = 200;
    appendFileSync(path, line.slice(0, cut));
    expect(reader.read(path)).toEqual({ changed: false, bytesRead: cut, skippedBytes: 0 });
    expect(reader.contextUsedTokens).toBe(FIRST_CONTEXT);
    appendFileSync(path, line.slice(cut, -1)); // all but the newline
    expect(reader.read(path).changed).toBe(false);
    appendFileSync(path, "\n");
    expect(reader.read(path)).toEqual({
      changed: true,
      bytesRead: Buffer.byteLength(line),
      skippedBytes: 0,
    });
    expect(reader.contextUsedTokens).toBe(LATEST_CONTEXT);
  });

  test("truncation (the file shrank) and replacement (a new inode) start over", () => {
    const reader = new TranscriptUsageReader();
    writeFileSync(path, FIXTURE.join(""));
    reader.read(path);
    expect(reader.contextUsedTokens).toBe(LATEST_CONTEXT);
    truncateSync(path, 0);
    appendFileSync(path, assistant("claude-sonnet", { input_tokens: 10 }));
    expect(reader.read(path)).toMatchObject({ changed: true, restarted: "truncated" });
    expect([reader.model, reader.contextUsedTokens]).toEqual(["claude-sonnet", 10]);

    const next = join(dir, "next.jsonl");
    writeFileSync(
      next,
      assistant("claude-haiku", { input_tokens: 20 }) + assistant("x", { input_tokens: 21 }),
    );
    renameSync(next, path); // larger than what was read, but another file
    expect(reader.read(path)).toMatchObject({ changed: true, restarted: "replaced" });
    expect([reader.model, reader.contextUsedTokens]).toEqual(["x", 21]);

    // Started over on a file without assistant entries: the values stay as they were.
    truncateSync(path, 0);
    appendFileSync(path, FIXTURE[0] as string);
    expect(reader.read(path)).toMatchObject({ changed: false, restarted: "truncated" });
    expect([reader.model, reader.contextUsedTokens]).toEqual(["x", 21]);
  });

  test("another path (the map changed) starts over; no path or a relative one reads nothing", () => {
    const reader = new TranscriptUsageReader();
    writeFileSync(path, assistant("a", { input_tokens: 1 }));
    reader.read(path);
    const other = join(dir, "other.jsonl");
    writeFileSync(other, assistant("b", { input_tokens: 2 }));
    expect(reader.read(other)).toMatchObject({ changed: true, restarted: "path_changed" });
    expect(reader.model).toBe("b");
    for (const p of [undefined, "", "relative.jsonl"]) {
      expect(reader.read(p)).toEqual({ changed: false, bytesRead: 0, skippedBytes: 0 });
    }
    expect(reader.model).toBe("b");
  });

  test("garbage lines between entries are passed over", () => {
    const reader = new TranscriptUsageReader();
    const garbage = Buffer.concat([
      Buffer.from(assistant("good", { input_tokens: 5 })),
      Buffer.from([0xff, 0xfe, 0x00, 0x22, 0x0a]), // invalid UTF-8 and a NUL
      Buffer.from('{"type":"assistant","message":{"model":"torn"\n'),
      Buffer.from("not json at all\n\n\r\n"),
      Buffer.from('{"type":"assistant","message":{"model":null,"usage":{"input_tokens":-4}}}\n'),
    ]);
    writeFileSync(path, garbage);
    expect(reader.read(path).changed).toBe(true);
    expect([reader.model, reader.contextUsedTokens]).toEqual(["good", 5]);
  });

  test("a line longer than one read is passed over; the lines after it are read", () => {
    const reader = new TranscriptUsageReader({ maxReadBytes: 4_096 });
    writeFileSync(path, assistant("before", { input_tokens: 1 }));
    reader.read(path);
    // A 10 kB assistant entry (its usage must not count) arrives in pieces, then a normal entry.
    const huge = assistant("huge", { input_tokens: 999 }, "x".repeat(10_000));
    appendFileSync(path, huge.slice(0, 3_000));
    expect(reader.read(path).changed).toBe(false);
    appendFileSync(path, huge.slice(3_000, 7_000));
    const mid = reader.read(path);
    expect(mid.changed).toBe(false);
    expect(mid.bytesRead).toBeLessThanOrEqual(4_096);
    appendFileSync(path, huge.slice(7_000));
    expect(reader.read(path).changed).toBe(false);
    appendFileSync(path, assistant("after", { input_tokens: 2 }));
    expect(reader.read(path).changed).toBe(true);
    expect([reader.model, reader.contextUsedTokens]).toEqual(["after", 2]);
  });

  test("a backlog larger than one read: only the last 1 MiB is read, the latest entry wins", () => {
    const reader = new TranscriptUsageReader();
    const entries: string[] = [];
    for (let i = 0; i < 3_000; i += 1) {
      entries.push(assistant(`m-${i}`, { input_tokens: i }, "y".repeat(600)));
    }
    writeFileSync(path, entries.join(""));
    const size = Buffer.byteLength(entries.join(""));
    expect(size).toBeGreaterThan(TRANSCRIPT_READ_MAX_BYTES);
    const outcome = reader.read(path);
    expect(outcome.bytesRead).toBe(TRANSCRIPT_READ_MAX_BYTES);
    expect(outcome.skippedBytes).toBe(size - TRANSCRIPT_READ_MAX_BYTES);
    expect([reader.model, reader.contextUsedTokens]).toEqual(["m-2999", 2_999]);
    // A 3 MiB line appended at once, then one entry: still at most 1 MiB per read.
    appendFileSync(path, `${"z".repeat(3 * 1_048_576)}\n${assistant("tail", { input_tokens: 7 })}`);
    const next = reader.read(path);
    expect(next.bytesRead).toBeLessThanOrEqual(TRANSCRIPT_READ_MAX_BYTES);
    expect([reader.model, reader.contextUsedTokens]).toEqual(["tail", 7]);
  });

  test("a window that starts exactly at a line start keeps that line", () => {
    const line = assistant("edge", { input_tokens: 3 });
    const size = Buffer.byteLength(line);
    // Exactly one line plus one byte of the line before: the window is that byte and the line.
    const reader = new TranscriptUsageReader({ maxReadBytes: size + 1 });
    writeFileSync(path, assistant("old", { input_tokens: 1 }, "p".repeat(50)) + line);
    expect(reader.read(path).changed).toBe(true);
    expect(reader.model).toBe("edge");
  });

  test("a symbolic link is not followed", () => {
    const target = join(dir, "target.jsonl");
    writeFileSync(target, assistant("linked", { input_tokens: 1 }));
    symlinkSync(target, path);
    const reader = new TranscriptUsageReader();
    expect(reader.read(path).bytesRead).toBe(0);
    expect(reader.model).toBeUndefined();
  });
});
