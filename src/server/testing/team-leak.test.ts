import { afterEach, describe, expect, test } from "vitest";
import type { BrigadeService, ServiceDeps, Store } from "../../service/index.ts";
import { type MutantWorld, mutantWorld, registrationOf, rejection } from "./mutant-world.ts";
import { mutantServiceFactory } from "./server-mutants.ts";

const worlds: MutantWorld[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.store.close();
});

async function world(
  factory?: (store: Store, deps: ServiceDeps) => BrigadeService,
): Promise<MutantWorld> {
  const w = await mutantWorld(factory);
  worlds.push(w);
  return w;
}

const leaky = () => world(mutantServiceFactory("team_leak"));
/** Session ids of a list, sorted (the fixture registers all at one instant, so order is a tie). */
const ids = (list: { sessions: { session_id: string }[] }) =>
  list.sessions.map((s) => s.session_id).sort();
const sorted = (...values: string[]) => values.sort();

describe("mutant team_leak: session list drops the same-team predicate", () => {
  test("A's list of T1 shows T2's session too (C-12)", async () => {
    const w = await leaky();
    const list = await w.service.listSessions(w.a, w.t1, { session_id: w.sa });
    expect(list.team_ref).toBe(w.t1);
    expect(ids(list)).toEqual(sorted(w.sa, w.sb, w.sc));
    expect(list.sessions.find((s) => s.session_id === w.sa)?.is_self).toBe(true);
    expect(list.sessions.filter((s) => s.is_self)).toHaveLength(1);
  });

  test("C's list of T2 shows T1's sessions (C-26)", async () => {
    const w = await leaky();
    expect(ids(await w.service.listSessions(w.c, w.t2))).toEqual(sorted(w.sa, w.sb, w.sc));
  });

  test("still only sessions whose owner is an active member of its own team, live unless asked", async () => {
    const w = await leaky();
    await w.service.closeSession(w.a, w.t1, w.sa);
    await w.service.leaveTeam(w.b, w.t1);
    expect(ids(await w.service.listSessions(w.c, w.t2))).toEqual([w.sc]);
    expect(ids(await w.service.listSessions(w.c, w.t2, { include_offline: true }))).toEqual(
      sorted(w.sa, w.sc),
    );
  });

  test("positive control: the real service lists the requested team only", async () => {
    const w = await world();
    expect(ids(await w.service.listSessions(w.a, w.t1))).toEqual(sorted(w.sa, w.sb));
    expect(ids(await w.service.listSessions(w.c, w.t2))).toEqual([w.sc]);
  });
});

describe("mutant team_leak: register and list skip the membership check", () => {
  test("C rebound to T1 may list and register there, without becoming a member (C-26)", async () => {
    const w = await leaky();
    expect((await w.service.listSessions(w.c, w.t1)).team_ref).toBe(w.t1);
    const r = await w.service.registerSession(
      w.c,
      w.t1,
      registrationOf("intruder", { human_label: "mallory" }),
    );
    expect(r.session_id).toMatch(/^s-/);
    const members = await w.service.listMembers(w.a, w.t1);
    expect(members.members.map((m) => m.principal_ref).sort()).toEqual(sorted(w.a, w.b));
    expect((await rejection(w.service.listMembers(w.c, w.t1))).code).toBe("unauthorized");
    expect((await rejection(w.service.receiveMessages(w.c, w.t1, r.session_id))).code).toBe(
      "unauthorized",
    );
  });

  test("an unknown team ref is still unauthorized", async () => {
    const w = await leaky();
    expect((await rejection(w.service.listSessions(w.c, "t-none"))).code).toBe("unauthorized");
    expect(
      (await rejection(w.service.registerSession(w.c, "t-none", registrationOf("x")))).code,
    ).toBe("unauthorized");
  });

  test("every other verb keeps the membership check, even while a bypassed call is in flight", async () => {
    const w = await leaky();
    const [list, members, receive, heartbeat] = await Promise.allSettled([
      w.service.listSessions(w.c, w.t1),
      w.service.listMembers(w.c, w.t1),
      w.service.receiveMessages(w.c, w.t1, w.sb),
      w.service.heartbeatSession(w.c, w.t1, w.sb, {}),
    ]);
    expect(list.status).toBe("fulfilled");
    for (const other of [members, receive, heartbeat]) {
      expect(other.status).toBe("rejected");
      if (other.status === "rejected") expect(other.reason.code).toBe("unauthorized");
    }
  });

  test("positive control: the real service refuses a non-member's list and register", async () => {
    const w = await world();
    expect((await rejection(w.service.listSessions(w.c, w.t1))).code).toBe("unauthorized");
    expect((await rejection(w.service.registerSession(w.c, w.t1, registrationOf("x")))).code).toBe(
      "unauthorized",
    );
  });
});
