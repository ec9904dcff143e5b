import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, test } from "vitest";
import { until } from "../../../test/support/until.ts";
import type { PrincipalRow } from "../../service/store.ts";
import { openSqliteStore } from "./sqlite-store.ts";
import { WalCheckpointer } from "./wal-checkpointer.ts";

const dir = mkdtempSync(join(tmpdir(), "brigade-checkpointer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const principal = (n: number): PrincipalRow => ({
  principal_ref: `p-${n}`,
  token_digest: `digest-${n}-${"x".repeat(200)}`,
  created_at: n,
});

describe("checkpoints on a worker thread", () => {
  test("the worker copies the log into the database and starts it over, so the log stays small; every row persists", async () => {
    const path = join(dir, "worker.db");
    const store = openSqliteStore(path, {
      checkpointer: { startLogBytes: 0, minIntervalMs: 5, maxIntervalMs: 5, restartFrames: 64 },
    });
    const before = statSync(path).size;
    for (let batch = 0; batch < 40; batch += 1) {
      const copied = statSync(path).size;
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          store.transact((tx) => tx.insertPrincipal(principal(batch * 100 + i))),
        ),
      );
      // The batch's rows reach the database file while the store is open: only a checkpoint puts
      // them there, and the connection that commits runs none. Waiting for it between batches
      // keeps a loaded machine, whose worker thread runs late, from writing past every checkpoint.
      await until("the worker's checkpoint", () => statSync(path).size > copied, 10_000);
    }
    expect(statSync(path).size).toBeGreaterThan(before + 100_000);
    // 4,000 rows of about 300 bytes were written: without the log starting over (after a
    // checkpoint copied it all, by the worker's RESTART or at the next commit) it would hold well
    // over a megabyte.
    expect(statSync(`${path}-wal`).size).toBeLessThan(1_000_000);
    await store.close();
    const probe = new Database(path, { readonly: true });
    expect(probe.prepare("SELECT COUNT(*) AS n FROM principals").get()).toEqual({ n: 4000 });
    probe.close();
  });

  test("a worker that cannot open its database ends and says so once; stop is idempotent", async () => {
    let failures = 0;
    const checkpointer = WalCheckpointer.start(join(dir, "no-such.db"), {
      onFailure: () => {
        failures += 1;
      },
    });
    await until("the failed worker's end", () => checkpointer.ended, 10_000);
    expect(failures).toBe(1);
    await checkpointer.stop();
    await checkpointer.stop();
    expect(failures).toBe(1);
  });

  test("a worker stopped by its owner is no failure", async () => {
    const path = join(dir, "stopped.db");
    await openSqliteStore(path, { checkpointer: false }).close();
    let failures = 0;
    const checkpointer = WalCheckpointer.start(path, {
      onFailure: () => {
        failures += 1;
      },
    });
    await checkpointer.stop();
    expect(checkpointer.ended).toBe(true);
    expect(failures).toBe(0);
  });
});

describe("another connection's write lock", () => {
  test("is waited for off the event loop: timers run meanwhile, and the unit commits once it is free", async () => {
    const path = join(dir, "busy.db");
    const store = openSqliteStore(path);
    await store.transact((tx) => tx.insertPrincipal(principal(1)));
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    let done = false;
    const unit = store
      .transact((tx) => tx.insertPrincipal(principal(2)))
      .then(() => {
        done = true;
      });
    let ticks = 0;
    await until("timers while the lock is held", () => ++ticks > 20 && !done, 5_000);
    expect(done).toBe(false);
    other.exec("COMMIT");
    other.close();
    await unit;
    expect(await store.transact((tx) => tx.principalByTokenDigest(principal(2).token_digest))).toBe(
      "p-2",
    );
    await store.close();
  });

  test("held past busyTimeoutMs, the batch's units fail with SQLITE_BUSY and the store goes on", async () => {
    const path = join(dir, "busy-timeout.db");
    const store = openSqliteStore(path, { busyTimeoutMs: 50 });
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    await expect(store.transact((tx) => tx.insertPrincipal(principal(1)))).rejects.toMatchObject({
      code: "SQLITE_BUSY",
    });
    other.exec("ROLLBACK");
    other.close();
    await store.transact((tx) => tx.insertPrincipal(principal(1)));
    await store.close();
  });
});
