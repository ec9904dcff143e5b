import { describe, expect, test } from "vitest";
import { type ServiceFactory, teamUnderTest } from "../../../test/support/service-under-test.ts";
import { sessionRegistration } from "../../../test/support/session-registration.ts";
import { BapError } from "../../protocol/index.ts";
import { rejection } from "./mutant-world.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

/** What C-55 observes of sends to the sessions of members who are gone, through the service. */
async function reach(factory?: ServiceFactory) {
  const { service, creator: a, members, teamRef: T } = await teamUnderTest(factory, 2);
  const [b = "", c = ""] = members;
  const sa = (await service.registerSession(a, T, sessionRegistration("a"))).session_id;
  const sb = (await service.registerSession(b, T, sessionRegistration("b"))).session_id;
  const sc = (await service.registerSession(c, T, sessionRegistration("c"))).session_id;
  await service.revokeMember(a, T, { principal_ref: b });
  await service.leaveTeam(c, T);
  const answer = async (to: string): Promise<string> => {
    const send = { sender_session_id: sa, recipient_session_id: to, body: "x" };
    return service.sendMessage(a, T, send).then(
      () => "accepted",
      (error: unknown) => (error instanceof BapError ? error.code : "thrown"),
    );
  };
  const removedSender = (
    await rejection(
      service.sendMessage(b, T, { sender_session_id: sb, recipient_session_id: sa, body: "x" }),
    )
  ).code;
  return { removed: await answer(sb), left: await answer(sc), removedSender };
}

describe("mutant removed_reachable", () => {
  test("the real service: the sessions of a removed and a departed member do not exist", async () => {
    expect(await reach()).toEqual({
      removed: "not_found",
      left: "not_found",
      removedSender: "unauthorized",
    });
  });

  test("the mutant: both are reached, and a removed sender is still refused", async () => {
    expect(await reach(mutantServiceFactory("removed_reachable"))).toEqual({
      removed: "accepted",
      left: "accepted",
      removedSender: "unauthorized",
    });
  });
});
