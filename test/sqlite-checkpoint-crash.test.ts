import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureBuilt, exited, REPO_ROOT } from "./support/server-process.ts";

// A process killed while its store commits and its checkpointer thread copies and restarts the
// log must lose no acknowledged write and leave a sound file. The writer runs the built store
// (a child cannot run the TypeScript sources) with the worker started at once and restarting the
// log every few frames, so a kill lands in every phase of it.

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "brigade-checkpoint-crash-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How much a round's checkpoints must have grown the database file before the kill, bytes. */
const CHECKPOINTED_BYTES = 200_000;

const WRITER = `
const { openSqliteStore } = await import(process.argv[1]);
const store = openSqliteStore(process.argv[2], {
  checkpointer: { startLogBytes: 0, minIntervalMs: 1, maxIntervalMs: 5, targetFrames: 16, restartFrames: 32 },
});
let n = Number(process.argv[3]);
for (;;) {
  const batch = [];
  for (let i = 0; i < 50; i += 1) {
    const k = n++;
    const row = { principal_ref: "p-" + k, token_digest: "d-" + k + "-" + "x".repeat(300), created_at: k };
    batch.push(store.transact((tx) => tx.insertPrincipal(row)).then(() => process.stdout.write(k + "\\n")));
  }
  await Promise.all(batch);
}
`;

/**
 * Runs the writer from `first` until `acks` writes were acknowledged and its checkpointer has put
 * rows into the database file (which only a checkpoint does while the writer runs), then SIGKILLs
 * it.
 */
async function writeThenKill(path: string, first: number, acks: number): Promise<number[]> {
  const before = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  const entry = pathToFileURL(join(REPO_ROOT, "dist/store/sqlite/index.js")).href;
  const child = spawn(
    process.execPath,
    ["--input-type=module", "-e", WRITER, entry, path, String(first)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const acked: number[] = [];
  let buffered = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    buffered += text;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) acked.push(Number(line));
    if (acked.length >= acks && statSync(path).size > before + CHECKPOINTED_BYTES) {
      child.kill("SIGKILL");
    }
  });
  await exited(child);
  return acked;
}

describe("a SQLite store killed while its checkpointer runs", () => {
  test("keeps every acknowledged write and a sound file, kill after kill", async () => {
    const path = join(dir, "crash.db");
    let first = 0;
    const acked: number[] = [];
    for (const acks of [1500, 2500, 4000]) {
      const round = await writeThenKill(path, first, acks);
      expect(round.length).toBeGreaterThanOrEqual(acks);
      acked.push(...round);
      first += 1_000_000;
      const db = new Database(path);
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      const present = new Set(
        (db.prepare("SELECT created_at FROM principals").all() as { created_at: number }[]).map(
          (row) => row.created_at,
        ),
      );
      db.close();
      expect(acked.filter((k) => !present.has(k))).toEqual([]);
    }
  });
});
