import { describe, expect, test } from "vitest";
import { type ServiceFactory, teamUnderTest } from "../../../test/support/service-under-test.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

/** Who administers after an offer and after its acceptance (what C-50 and C-57 observe). */
async function handOver(factory?: ServiceFactory) {
  const { service, creator, members, teamRef } = await teamUnderTest(factory, 1);
  const [heir = ""] = members;
  const admins = async (who: string) =>
    service.rotateSecret(who, teamRef).then(
      () => true,
      () => false,
    );
  await service.transferTeam(creator, teamRef, { principal_ref: heir });
  const offered = { creator: await admins(creator), heir: await admins(heir) };
  await service.acceptTransfer(heir, teamRef);
  const accepted = { creator: await admins(creator), heir: await admins(heir) };
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
