import { afterEach, describe, expect, test } from "vitest";
import { BapError } from "../../protocol/index.ts";
import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

type Factory = (store: Store, deps: ServiceDeps) => BrigadeService;

/** What C-56 observes of a creator leaving a team with another member, through the service. */
async function creatorLeaving(factory?: Factory) {
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
  const leave = await service.leaveTeam(a, T).then(
    () => "left",
    (error: unknown) => (error instanceof BapError ? error.code : "thrown"),
  );
  const memberLeaves = (await service.leaveTeam(b, T)).left;
  return { leave, creatorStillIn: await service.isActiveMember(a, T), memberLeaves };
}

describe("mutant creator_leaves", () => {
  test("the real service: the creator stays until the others are gone; a member leaves", async () => {
    expect(await creatorLeaving()).toEqual({
      leave: "conflict",
      creatorStillIn: true,
      memberLeaves: true,
    });
  });

  test("the mutant: the creator walks out of a team with a member in it", async () => {
    expect(await creatorLeaving(mutantServiceFactory("creator_leaves"))).toEqual({
      leave: "left",
      creatorStillIn: false,
      memberLeaves: true,
    });
  });
});
