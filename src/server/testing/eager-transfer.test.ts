import { afterEach, describe, expect, test } from "vitest";
import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

type Factory = (store: Store, deps: ServiceDeps) => BrigadeService;

/** Who administers after an offer and after its acceptance (what C-50 and C-57 observe). */
async function handOver(factory?: Factory) {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const service = (factory ?? ((s, deps) => new BrigadeService(s, deps)))(store, systemDeps());
  const [a, b] = await Promise.all(
    [0, 1].map(async () => (await service.createPrincipal()).principal_ref),
  );
  if (a === undefined || b === undefined) throw new Error("principals");
  const team = await service.createTeam(a, { team_name: "ops" });
  const T = team.team_ref;
  await service.joinTeam(b, { join_secret: team.join_secret });
  const admins = async (who: string) =>
    service.rotateSecret(who, T).then(
      () => true,
      () => false,
    );
  await service.transferTeam(a, T, { principal_ref: b });
  const offered = { creator: await admins(a), heir: await admins(b) };
  await service.acceptTransfer(b, T);
  const accepted = { creator: await admins(a), heir: await admins(b) };
  return { offered, accepted };
}

describe("mutant eager_transfer", () => {
  test("the real service: the creator administers until the member accepts", async () => {
    expect(await handOver()).toEqual({
      offered: { creator: true, heir: false },
      accepted: { creator: false, heir: true },
    });
  });

  test("the mutant: the member administers the moment it is offered the team", async () => {
    expect(await handOver(mutantServiceFactory("eager_transfer"))).toEqual({
      offered: { creator: false, heir: true },
      accepted: { creator: false, heir: true },
    });
  });
});
