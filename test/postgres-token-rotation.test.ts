import { describe, expect, test } from "vitest";
import {
  BrigadeService,
  SHARED_STORE_PRINCIPAL_MAX_AGE_MS,
  systemDeps,
} from "../src/service/index.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import { cleanupsAfterEach } from "./support/cleanups.ts";
import { freshPostgresSchema } from "./support/postgres-schema.ts";

const cleanups = cleanupsAfterEach();

describe("two processes on one database, a token replaced through the other", () => {
  test("the old token, cached here, is refused here once its answer is 2 s old; the new one works here at once", async () => {
    const schema = await freshPostgresSchema("rotate");
    cleanups.push(schema.drop);
    // Two "processes": each its own store and service (and so its own principal cache); the
    // cache's clock is this test's.
    let now = Date.now();
    const deps = { ...systemDeps(), now: () => now };
    const [hereStore, thereStore] = [
      await openPostgresStore(schema.url),
      await openPostgresStore(schema.url),
    ];
    cleanups.push(
      () => hereStore.close(),
      () => thereStore.close(),
    );
    const here = new BrigadeService(hereStore, deps);
    const there = new BrigadeService(thereStore, deps);

    const alice = await there.createPrincipal();
    expect(await here.authenticate(alice.token)).toBe(alice.principal_ref);
    const rotated = await there.rotateToken(alice.token);
    if (rotated === null) throw new Error("not rotated");
    expect(await there.authenticate(alice.token)).toBeNull();
    expect(await here.authenticate(rotated.token)).toBe(alice.principal_ref);
    // Here the old token's answer stands until it is older than the bound, not one moment more.
    now += SHARED_STORE_PRINCIPAL_MAX_AGE_MS;
    expect(await here.authenticate(alice.token)).toBe(alice.principal_ref);
    now += 1;
    expect(await here.authenticate(alice.token)).toBeNull();
    // A rotation always reads the store: the old token replaces nothing through either process.
    expect(await here.rotateToken(alice.token)).toBeNull();
    expect(await here.authenticate(rotated.token)).toBe(alice.principal_ref);
  });
});
