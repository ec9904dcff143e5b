import { afterEach, describe, expect, test } from "vitest";
import type { StoreTx } from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";
import { DecoratedStore, overrideTx } from "./decorated-store.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function open(): SqliteStore {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  return store;
}

const team = {
  team_name: "one",
  secret_digest: "00",
  creator_principal_ref: "p-1",
  offered_to_principal_ref: null,
  offer_expires_at: null,
  created_at: 1,
};

describe("overrideTx", () => {
  test("replaces only the given members; the others reach the real transaction", async () => {
    const store = open();
    await store.transact(async (tx) => {
      await tx.insertPrincipal({ principal_ref: "p-1", token_digest: "ab", created_at: 1 });
      await tx.insertTeam({ ...team, team_ref: "t-1" });
    });
    const seen = await store.transact(async (tx) => {
      const view = overrideTx(tx, { getTeam: async () => null });
      return { overridden: await view.getTeam("t-1"), real: await view.getMembership("t-1", "p") };
    });
    expect(seen).toEqual({ overridden: null, real: null });
    const real = await store.transact((tx) => overrideTx(tx, {}).getTeam("t-1"));
    expect(real?.team_name).toBe("one");
  });
});

describe("DecoratedStore", () => {
  const marker = (calls: string[], label: string) => (tx: StoreTx) =>
    overrideTx(tx, {
      getTeam: async (ref) => {
        calls.push(label);
        return tx.getTeam(ref);
      },
    });

  test("`always` decorates every unit; close closes the inner store", async () => {
    const calls: string[] = [];
    const inner = openSqliteStore(":memory:");
    const store = new DecoratedStore(inner, marker(calls, "always"));
    await store.transact((tx) => tx.getTeam("t"));
    await store.transact((tx) => tx.getTeam("t"));
    expect(calls).toEqual(["always", "always"]);
    await store.close();
    await expect(inner.transact((tx) => tx.getTeam("t"))).rejects.toThrow();
  });

  test("withNextTransaction decorates the one unit the call opens synchronously, and no other", async () => {
    const calls: string[] = [];
    const store = new DecoratedStore(open());
    const [first, second] = store.withNextTransaction(marker(calls, "once"), () => [
      store.transact((tx) => tx.getTeam("t")),
      store.transact((tx) => tx.getTeam("t")),
    ]);
    await Promise.all([first, second]);
    await store.transact((tx) => tx.getTeam("t"));
    expect(calls).toEqual(["once"]);
  });

  test("a unit opened after the call's first await is not decorated", async () => {
    const calls: string[] = [];
    const store = new DecoratedStore(open());
    await store.withNextTransaction(marker(calls, "once"), async () => {
      await Promise.resolve();
      return store.transact((tx) => tx.getTeam("t"));
    });
    expect(calls).toEqual([]);
  });
});
