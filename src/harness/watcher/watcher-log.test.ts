import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { fileWatcherLog, WATCHER_LOG_MAX_BYTES } from "./watcher-log.ts";

let root: string;
let path: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "brigade-log-"));
  path = join(root, "logs", "watcher-4242.log");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("fileWatcherLog", () => {
  test("NDJSON lines, private files and folder, fields cut to 200, the token redacted", () => {
    const log = fileWatcherLog(root, path, ["tok-secret-1"], { now: () => 0 });
    log.write("info", "watcher_started", { session_id: "s-1", count: 2, live: true });
    log.write("warn", "odd", { note: `x${"y".repeat(300)}`, leak: "before tok-secret-1 after" });
    expect(lines(path)).toEqual([
      {
        at: "1970-01-01T00:00:00.000Z",
        level: "info",
        event: "watcher_started",
        session_id: "s-1",
        count: 2,
        live: true,
      },
      {
        at: "1970-01-01T00:00:00.000Z",
        level: "warn",
        event: "odd",
        note: `x${"y".repeat(199)}`,
        leak: "before [redacted] after",
      },
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, "logs")).mode & 0o777).toBe(0o700);
  });

  test("a token across the 200-character cut or in JSON-escaped text is still redacted", () => {
    const token = 'T0KEN-abc"def\\ghijklmnop';
    const log = fileWatcherLog(root, path, [token], { now: () => 0 });
    log.write("warn", "odd", { cut: `${"x".repeat(180)}${token}`, escaped: `a ${token} b` });
    const text = readFileSync(path, "utf8");
    expect(text).not.toContain("T0KEN");
    expect(lines(path)[0]).toMatchObject({ escaped: "a [redacted] b" });
  });

  test("never writes through a symlink at the log path; an existing loose log is made 0600", () => {
    const log = fileWatcherLog(root, path, [], { now: () => 0 });
    log.write("info", "first");
    chmodSync(path, 0o644);
    log.write("info", "second");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const target = join(root, "elsewhere.txt");
    writeFileSync(target, "untouched\n");
    rmSync(path);
    symlinkSync(target, path);
    fileWatcherLog(root, path, [], { now: () => 0 }).write("info", "third");
    expect(readFileSync(target, "utf8")).toBe("untouched\n");
  });

  test("rotates to .1 at 5 MB (replacing an older .1); no line is split across files", () => {
    expect(WATCHER_LOG_MAX_BYTES).toBe(5_000_000);
    const log = fileWatcherLog(root, path, []);
    const fields: Record<string, string> = {};
    for (let i = 0; i < 50; i += 1) fields[`f${i}`] = "v".repeat(200);
    const lineBytes = (): number => readFileSync(path).length;
    log.write("debug", "fill", fields);
    const one = lineBytes();
    const perFile = Math.floor(WATCHER_LOG_MAX_BYTES / one);
    for (let i = 1; i < perFile; i += 1) log.write("debug", "fill", fields);
    expect(existsSync(`${path}.1`)).toBe(false);
    expect(statSync(path).size).toBe(perFile * one);
    log.write("debug", "fill", fields); // would pass 5 MB: rotated first
    expect(statSync(`${path}.1`).size).toBe(perFile * one);
    expect(statSync(path).size).toBe(one);
    for (let i = 0; i < perFile; i += 1) log.write("debug", "fill", fields); // second rotation
    expect(statSync(`${path}.1`).size).toBe(perFile * one);
    expect(statSync(path).size).toBe(one);
    for (const file of [path, `${path}.1`]) {
      expect(lines(file).every((l) => l.event === "fill")).toBe(true);
    }
  });

  test("a new writer counts the existing file's size; an unwritable log never throws", () => {
    fileWatcherLog(root, path, [], { maxBytes: 200 }).write("info", "a", { x: "y".repeat(100) });
    const again = fileWatcherLog(root, path, [], { maxBytes: 200 });
    again.write("info", "b", { x: "y".repeat(100) });
    expect(lines(`${path}.1`).map((l) => l.event)).toEqual(["a"]);
    expect(lines(path).map((l) => l.event)).toEqual(["b"]);
    const blocked = fileWatcherLog(root, join(path, "not-a-folder", "x.log"), []);
    expect(() => blocked.write("info", "c")).not.toThrow();
  });
});
