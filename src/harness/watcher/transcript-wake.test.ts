import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { until } from "../../../test/support/until.ts";
import { TranscriptWake, type WatchFile } from "./transcript-wake.ts";

const dirs: string[] = [];
const wakes: TranscriptWake[] = [];
afterEach(() => {
  for (const wake of wakes.splice(0)) wake.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "transcript-wake-"));
  dirs.push(dir);
  return dir;
}

test("an append to the followed file calls back; after close nothing does", async () => {
  const path = join(folder(), "t.jsonl");
  writeFileSync(path, "");
  let calls = 0;
  const wake = new TranscriptWake(() => calls++);
  wakes.push(wake);
  wake.follow(path);
  appendFileSync(path, "{}\n");
  await until("the change seen", () => calls > 0, 5_000);
  wake.close();
  const before = calls;
  appendFileSync(path, "{}\n");
  await new Promise((r) => setTimeout(r, 200));
  expect(calls).toBe(before);
});

test("a missing file or an undefined path is no error, and is tried again at the next follow", () => {
  const opened: string[] = [];
  const fake: WatchFile = (path) => {
    opened.push(path);
    if (opened.length === 1) throw Object.assign(new Error("gone"), { code: "ENOENT" });
    return { close: () => {} };
  };
  const wake = new TranscriptWake(() => {}, fake);
  wake.follow(undefined);
  wake.follow("/x/t.jsonl");
  wake.follow("/x/t.jsonl");
  wake.follow("/x/t.jsonl");
  expect(opened).toEqual(["/x/t.jsonl", "/x/t.jsonl"]);
});

test("a new path closes the old watch and opens the new one", () => {
  const events: string[] = [];
  const fake: WatchFile = (path) => {
    events.push(`open ${path}`);
    return { close: () => events.push(`close ${path}`) };
  };
  const wake = new TranscriptWake(() => {}, fake);
  wake.follow("/a");
  wake.follow("/b");
  wake.close();
  expect(events).toEqual(["open /a", "close /a", "open /b", "close /b"]);
});
