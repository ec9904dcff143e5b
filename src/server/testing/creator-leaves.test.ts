import { describe, expect, test } from "vitest";
import { type ServiceFactory, teamUnderTest } from "../../../test/support/service-under-test.ts";
import { BapError } from "../../protocol/index.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

/** What C-56 observes of a creator leaving a team with another member, through the service. */
async function creatorLeaving(factory?: ServiceFactory) {
  const { service, creator, members, teamRef } = await teamUnderTest(factory, 1);
  const [member = ""] = members;
  const leave = await service.leaveTeam(creator, teamRef).then(
    () => "left",
    (error: unknown) => (error instanceof BapError ? error.code : "thrown"),
  );
  const memberLeaves = (await service.leaveTeam(member, teamRef)).left;
  return { leave, creatorStillIn: await service.isActiveMember(creator, teamRef), memberLeaves };
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
