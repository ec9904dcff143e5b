import { describe, expect, test } from "vitest";
import { cleanupsAfterEach } from "./support/cleanups.ts";
import { twoPostgresProcesses } from "./support/postgres-two-processes.ts";
import { sessionRegistration } from "./support/session-registration.ts";
import { until } from "./support/until.ts";

// Two "processes" on one database (each its own store: pool, LISTEN connection, safety poll, and
// its own service), in one test process so that one of them can lose its notifications.
const cleanups = cleanupsAfterEach();

describe("two processes, the membership notification lost", () => {
  test("a membership ended through the other process ends the watch here within the 5 s bound", async () => {
    // The other process announces its messages but never the end of a membership.
    const processes = await twoPostgresProcesses(
      cleanups,
      "msweep",
      { pollMs: 2000 },
      { pollMs: 2000, silent: ["memberships"] },
    );
    const here = processes.here.service;
    const there = processes.there.service;
    const hereFeed = processes.here.feed;
    await until("the LISTEN connection", () => hereFeed.broadcast.listening, 5000);

    const a = (await there.createPrincipal()).principal_ref;
    const b = (await there.createPrincipal()).principal_ref;
    const c = (await there.createPrincipal()).principal_ref;
    const team = await there.createTeam(a, { team_name: "core" });
    await there.joinTeam(b, { join_secret: team.join_secret });
    await there.joinTeam(c, { join_secret: team.join_secret });
    const T = team.team_ref;
    const ended = new Set<string>();
    for (const [principal, name] of [
      [b, "b"],
      [c, "c"],
      [a, "a"],
    ] as const) {
      const session = (await there.registerSession(principal, T, sessionRegistration(name)))
        .session_id;
      await here.subscribe(principal, T, session, {
        onMessages: () => {},
        onRevoked: () => ended.add(name),
      });
    }
    // Still active: a sweep ends nothing.
    await hereFeed.memberships?.sweep();
    expect(ended.size).toBe(0);

    const start = Date.now();
    await there.leaveTeam(b, T);
    await there.revokeMember(a, T, { principal_ref: c });
    await until("both watches ended", () => ended.size === 2, 5000);
    expect(Date.now() - start).toBeLessThan(5000);
    expect([...ended].sort()).toEqual(["b", "c"]);
    expect(here.watchSubscriptionCount).toBe(1);
  });
});
