import { afterEach, describe, expect, test } from "vitest";
import { BrigadeService, type ServiceDeps, type Store, systemDeps } from "../../service/index.ts";
import { openSqliteStore, type SqliteStore } from "../../store/sqlite/index.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

type Factory = (store: Store, deps: ServiceDeps) => BrigadeService;

/** Who gets in with a one-use invitation, a revoked one and an expired one (what C-80..C-86 see). */
async function admissions(factory?: Factory) {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const clock = { now: Date.parse("2026-10-02T09:00:00Z") };
  const service = (factory ?? ((s, deps) => new BrigadeService(s, deps)))(store, {
    ...systemDeps(),
    now: () => clock.now,
  });
  const principal = async () => (await service.createPrincipal()).principal_ref;
  const creator = await principal();
  const T = (await service.createTeam(creator, { team_name: "ops" })).team_ref;
  const joins = async (secret: string | undefined) =>
    service.joinTeam(await principal(), { join_secret: secret }).then(
      () => "in",
      (error: { details?: { reason?: string } }) => error.details?.reason ?? "rejected",
    );
  const once = (await service.createInvitation(creator, T, {})).invitation;
  const revoked = await service.createInvitation(creator, T, {});
  await service.revokeInvitation(creator, T, { invitation_id: revoked.invitation_id });
  const expiring = (await service.createInvitation(creator, T, { expires_in_seconds: 1 }))
    .invitation;
  const oneUse = [await joins(once), await joins(once), await joins(once)];
  clock.now += 1000;
  return {
    oneUse,
    revoked: await joins(revoked.invitation),
    expired: await joins(expiring),
    listedUses: (await service.listInvitations(creator, T)).invitations.map((i) => i.uses),
  };
}

describe("mutant invitation_reuse", () => {
  test("the real service: one use admits one person", async () => {
    expect(await admissions()).toEqual({
      oneUse: ["in", "invitation_used", "invitation_used"],
      revoked: "invitation_revoked",
      expired: "invitation_expired",
      listedUses: [0, 0, 1],
    });
  });

  test("the mutant: one use admits everyone, uncounted; revocation and expiry still hold", async () => {
    expect(await admissions(mutantServiceFactory("invitation_reuse"))).toEqual({
      oneUse: ["in", "in", "in"],
      revoked: "invitation_revoked",
      expired: "invitation_expired",
      listedUses: [0, 0, 1],
    });
  });
});
