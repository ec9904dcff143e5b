import { afterEach, describe, expect, test } from "vitest";
import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";
import { rejection } from "./mutant-world.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

type Factory = (store: Store, deps: ServiceDeps) => BrigadeService;

/** What C-48, C-49, C-50 and C-57 observe, through the service alone. */
async function adminEffects(factory?: Factory) {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const service = (factory ?? ((s, deps) => new BrigadeService(s, deps)))(store, systemDeps());
  const [a, b, x, y, z] = await Promise.all(
    [0, 1, 2, 3, 4].map(async () => (await service.createPrincipal()).principal_ref),
  );
  if (a === undefined || b === undefined || x === undefined || y === undefined || z === undefined)
    throw new Error("principals");
  const team = await service.createTeam(a, { team_name: "ops" });
  const T = team.team_ref;
  await service.joinTeam(b, { join_secret: team.join_secret });
  await service.joinTeam(y, { join_secret: team.join_secret });
  const joins = async (who: string, secret: string) =>
    service.joinTeam(who, { join_secret: secret }).then(
      () => true,
      () => false,
    );
  const rotated = await service.rotateSecret(a, T);
  const oldAdmits = await joins(x, team.join_secret);
  const newAdmits = await joins(z, rotated.join_secret);
  await service.revokeMember(a, T, { principal_ref: b });
  const revokedShutOut = (await rejection(service.listMembers(b, T))).code === "unauthorized";
  const revokedRejoins = await joins(b, team.join_secret);
  await service.transferTeam(a, T, { principal_ref: y });
  await service.acceptTransfer(y, T).catch(() => undefined);
  const newCreatorAdmins = await service.rotateSecret(y, T).then(
    () => true,
    () => false,
  );
  return { oldAdmits, newAdmits, revokedShutOut, revokedRejoins, newCreatorAdmins };
}

describe("mutant weak_admin", () => {
  test("the real service: old secret dead, revoked member barred, transfer hands over", async () => {
    expect(await adminEffects()).toEqual({
      oldAdmits: false,
      newAdmits: true,
      revokedShutOut: true,
      revokedRejoins: false,
      newCreatorAdmins: true,
    });
  });

  test("the mutant: the old secret admits (the new one does not), a revoked member rejoins, a transfer is never offered", async () => {
    expect(await adminEffects(mutantServiceFactory("weak_admin"))).toEqual({
      oldAdmits: true,
      newAdmits: false,
      revokedShutOut: true,
      revokedRejoins: true,
      newCreatorAdmins: false,
    });
  });
});
