import { describe, expect, test } from "vitest";
import { serviceUnderTest } from "../../test/support/service-under-test.ts";
import { sessionRegistration } from "../../test/support/session-registration.ts";

/** A service with alice, the creator of a team, and a session of hers in it. */
async function world() {
  const service = serviceUnderTest();
  const alice = await service.createPrincipal();
  const team = await service.createTeam(alice.principal_ref, { team_name: "core" });
  const session = (
    await service.registerSession(alice.principal_ref, team.team_ref, sessionRegistration("a"))
  ).session_id;
  return { service, alice, T: team.team_ref, session };
}

describe("rotateToken", () => {
  test("the new token is the same principal at once; the old one, cached before, is refused at once", async () => {
    const { service, alice, T, session } = await world();
    expect(await service.authenticate(alice.token)).toBe(alice.principal_ref);
    const rotated = await service.rotateToken(alice.token);
    if (rotated === null) throw new Error("not rotated");
    expect(rotated.principal_ref).toBe(alice.principal_ref);
    expect(rotated.token).not.toBe(alice.token);
    expect(rotated.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await service.authenticate(alice.token)).toBeNull();
    expect(await service.authenticate(alice.token, true)).toBeNull();
    expect(await service.authenticate(rotated.token)).toBe(alice.principal_ref);
    // The same member, with the same session.
    const listed = await service.listSessions(alice.principal_ref, T, { session_id: session });
    expect(listed.sessions.map((s) => s.session_id)).toEqual([session]);
    // The old token rotates nothing any more; the new one can rotate again.
    expect(await service.rotateToken(alice.token)).toBeNull();
    expect((await service.rotateToken(rotated.token))?.principal_ref).toBe(alice.principal_ref);
  });

  test("an unknown or malformed token changes nothing; of two rotations with one token exactly one wins", async () => {
    const { service, alice } = await world();
    for (const token of ["", "x".repeat(600), "never-minted"]) {
      expect(await service.rotateToken(token)).toBeNull();
    }
    expect(await service.authenticate(alice.token)).toBe(alice.principal_ref);
    const both = await Promise.all([
      service.rotateToken(alice.token),
      service.rotateToken(alice.token),
    ]);
    const winners = both.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(await service.authenticate(winners[0]?.token ?? "")).toBe(alice.principal_ref);
    expect(await service.authenticate(alice.token)).toBeNull();
  });
});
