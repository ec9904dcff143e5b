import { describe, expect, test } from "vitest";
import { type ServiceFactory, serviceUnderTest } from "../../../test/support/service-under-test.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

/** Which tokens authenticate after a rotation (what C-58 observes), through the service. */
async function afterRotation(factory?: ServiceFactory) {
  const service = serviceUnderTest(factory);
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
