import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, test } from "vitest";
import type { PrincipalRow } from "../../service/store.ts";
import { openSqliteStore, SqliteStoreSyncError } from "./sqlite-store.ts";

const dir = mkdtempSync(join(tmpdir(), "brigade-walsync-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const principal = (n: number): PrincipalRow => ({
  principal_ref: `p-${n}`,
  token_digest: `d-${n}`,
  created_at: n,
});

/** A sync seam the test completes by hand. */
function heldSyncs() {
  const held: Array<(error: Error | null) => void> = [];
  return {
    held,
    syncWal: (_fd: number, done: (error: Error | null) => void) => {
      held.push(done);
    },
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await turn();
}

describe("WAL sync off the event loop", () => {
  test("a unit settles only after a sync that started after its COMMIT; the next batch runs meanwhile", async () => {
    const path = join(dir, "held.db");
    const { held, syncWal } = heldSyncs();
    const store = openSqliteStore(path, { syncWal });
    let firstDone = false;
    const first = store
      .transact((tx) => tx.insertPrincipal(principal(1)))
      .then(() => {
        firstDone = true;
      });
    await turns(3);
    expect(store.commits).toBe(1);
    expect(held).toHaveLength(1);
    expect(firstDone).toBe(false);

    // While sync 1 is in flight the next batch runs and commits; it reads batch 1's row.
    let secondValue: string | null | undefined;
    const second = store
      .transact(async (tx) => {
        await tx.insertPrincipal(principal(2));
        return tx.principalByTokenDigest("d-1");
      })
      .then((v) => {
        secondValue = v;
      });
    await turns(3);
    expect(store.commits).toBe(2);
    expect(held).toHaveLength(1); // one sync at a time

    (held.shift() as (e: Error | null) => void)(null);
    await first;
    expect(firstDone).toBe(true);
    await turns(2);
    // Batch 2 committed after sync 1 started: it waits for sync 2.
    expect(secondValue).toBeUndefined();
    expect(held).toHaveLength(1);
    (held.shift() as (e: Error | null) => void)(null);
    await second;
    expect(secondValue).toBe("p-1");
    expect(store.syncs).toBe(2);

    const probe = new Database(path, { readonly: true });
    expect(probe.pragma("journal_mode", { simple: true })).toBe("wal");
    probe.close();
    const closing = store.close();
    await closing;
  });

  test("a unit that failed or only read after an unsynced write waits for that write's sync (its answer may rest on it), and starts none of its own", async () => {
    const { held, syncWal } = heldSyncs();
    const store = openSqliteStore(join(dir, "reject.db"), { syncWal });
    const write = store.transact((tx) => tx.insertPrincipal(principal(1)));
    await turns(3);
    expect(held).toHaveLength(1);
    let settled = 0;
    const failing = store
      .transact(async (tx) => {
        await tx.principalByTokenDigest("d-1");
        throw new Error("refused");
      })
      .catch((error: unknown) => {
        settled += 1;
        return error;
      });
    const reading = store
      .transact((tx) => tx.principalByTokenDigest("d-1"))
      .then((value) => {
        settled += 1;
        return value;
      });
    await turns(3);
    expect(store.commits).toBe(2);
    expect(settled).toBe(0);
    (held.shift() as (e: Error | null) => void)(null);
    await write;
    expect(((await failing) as Error).message).toBe("refused");
    expect(await reading).toBe("p-1");
    await turns(2);
    // Nothing was written after the first sync started: no second sync was asked for.
    expect(held).toHaveLength(0);
    expect(store.syncs).toBe(1);
    await store.close();
  });

  test("a unit that only reads while every write is synced settles at its COMMIT, starting no sync", async () => {
    const { held, syncWal } = heldSyncs();
    const store = openSqliteStore(join(dir, "read-only.db"), { syncWal });
    await expect(store.transact((tx) => tx.getTeam("t-1"))).resolves.toBeNull();
    await expect(
      store.transact(async () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(store.commits).toBe(2);
    expect(held).toHaveLength(0);
    await store.close();
  });

  test("in one batch, the units before its first write settle with the earlier commits; the writer and every unit after it wait for the batch's sync", async () => {
    const { held, syncWal } = heldSyncs();
    const store = openSqliteStore(join(dir, "mixed.db"), { syncWal });
    const order: string[] = [];
    const done = (name: string) => () => {
      order.push(name);
    };
    const before = store.transact((tx) => tx.getTeam("t-1")).then(done("read before"));
    const write = store.transact((tx) => tx.insertPrincipal(principal(1))).then(done("write"));
    const after = store.transact((tx) => tx.getTeam("t-1")).then(done("read after"));
    await turns(3);
    expect(store.commits).toBe(1);
    expect(order).toEqual(["read before"]);
    expect(held).toHaveLength(1);
    (held.shift() as (e: Error | null) => void)(null);
    await Promise.all([before, write, after]);
    expect(order).toEqual(["read before", "write", "read after"]);
    await store.close();
  });

  test("the health probe waits for a sync started after it, even when nothing was written", async () => {
    const { held, syncWal } = heldSyncs();
    const store = openSqliteStore(join(dir, "probe.db"), { syncWal });
    let probed = false;
    const probe = store.probe().then(() => {
      probed = true;
    });
    await turns(3);
    expect(held).toHaveLength(1);
    expect(probed).toBe(false);
    (held.shift() as (e: Error | null) => void)(null);
    await probe;
    expect(store.syncs).toBe(1);
    await store.close();
  });

  test("a failed sync rejects the waiting units and every later unit", async () => {
    const { held, syncWal } = heldSyncs();
    const store = openSqliteStore(join(dir, "broken.db"), { syncWal });
    const waiting = store.transact((tx) => tx.insertPrincipal(principal(1)));
    await turns(3);
    (held.shift() as (e: Error | null) => void)(new Error("EIO"));
    await expect(waiting).rejects.toBeInstanceOf(SqliteStoreSyncError);
    await expect(store.transact((tx) => tx.getTeam("t-1"))).rejects.toBeInstanceOf(
      SqliteStoreSyncError,
    );
    await store.close();
  });

  test("the real fdatasync: concurrent units resolve, share syncs, and persist", async () => {
    const path = join(dir, "real.db");
    const store = openSqliteStore(path);
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        store.transact((tx) => tx.insertPrincipal(principal(i))),
      ),
    );
    expect(store.syncs).toBeGreaterThanOrEqual(1);
    expect(store.syncs).toBeLessThanOrEqual(store.commits);
    await store.close();
    const probe = new Database(path, { readonly: true });
    expect(probe.prepare("SELECT COUNT(*) AS n FROM principals").get()).toEqual({ n: 200 });
    probe.close();
  });

  test("a memory store has no log to sync: units settle at COMMIT", async () => {
    const store = openSqliteStore(":memory:", {
      syncWal: () => {
        throw new Error("must not be called");
      },
    });
    await store.transact((tx) => tx.insertPrincipal(principal(1)));
    expect(store.syncs).toBe(0);
    await store.close();
  });
});
