import { afterEach, describe, expect, test } from "vitest";
import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

type Factory = (store: Store, deps: ServiceDeps) => BrigadeService;

/** Which tokens authenticate after a rotation (what C-58 observes), through the service. */
async function afterRotation(factory?: Factory) {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const service = (factory ?? ((s, deps) => new BrigadeService(s, deps)))(store, systemDeps());
  const alice = await service.createPrincipal();
  const rotated = await service.rotateToken(alice.token);
  if (rotated === null) throw new Error("not rotated");
  return {
    oldWorks: (await service.authenticate(alice.token)) !== null,
    newWorks: (await service.authenticate(rotated.token)) !== null,
  };
}

describe("mutant token_kept", () => {
  test("the real service: only the new token works", async () => {
    expect(await afterRotation()).toEqual({ oldWorks: false, newWorks: true });
  });

  test("the mutant: the old token keeps working beside the new one", async () => {
    expect(await afterRotation(mutantServiceFactory("token_kept"))).toEqual({
      oldWorks: true,
      newWorks: true,
    });
  });
});
