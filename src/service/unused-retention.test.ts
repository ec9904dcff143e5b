import { afterEach, describe, expect, test } from "vitest";
import { BapError } from "../protocol/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/sqlite-store.ts";
import { BrigadeService } from "./brigade-service.ts";
import {
  TEAM_CREATE_RATE,
  UNUSED_PRINCIPAL_RETENTION_MS,
  UNUSED_TEAM_RETENTION_MS,
} from "./service-config.ts";
import { systemDeps } from "./service-deps.ts";

const START = Date.parse("2026-10-02T09:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 86_400_000;

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function fixture() {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const clock = { t: START };
  const service = new BrigadeService(store, { ...systemDeps(), now: () => clock.t });
  const mint = () => service.createPrincipal();
  const advance = (ms: number): void => {
    clock.t += ms;
  };
  return { store, service, clock, mint, advance };
}

const registration = {
  harness: "claude-code",
  harness_version: "2.1.270",
  session_name: "alpha",
  activity: "busy",
  inbound: "accept",
} as const;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (!(error instanceof BapError)) throw error;
    const e = error.toProtocolError();
    return `${e.code}:${e.details?.reason ?? ""}`;
  }
}

describe("team creation is limited per principal", () => {
  test("past the hourly budget: rate_limited create_team with the wait, nothing stored", async () => {
    const { service, mint, advance } = fixture();
    const a = (await mint()).principal_ref;
    for (let i = 0; i < TEAM_CREATE_RATE.per_hour; i += 1) {
      await service.createTeam(a, { team_name: `t${i}` });
      advance(1000);
    }
    try {
      await service.createTeam(a, { team_name: "one-too-many" });
      expect.unreachable();
    } catch (error) {
      const e = (error as BapError).toProtocolError();
      expect(e).toMatchObject({
        code: "rate_limited",
        message: "too many teams created by this principal",
        details: { reason: "create_team" },
      });
      // The oldest of the ten leaves the hour window 1 h after it was created.
      expect(e.retry_after_ms).toBe(HOUR - TEAM_CREATE_RATE.per_hour * 1000);
    }
    // Another principal is not affected; the first one may create again an hour later.
    expect(await codeOf(service.createTeam((await mint()).principal_ref, { team_name: "b" }))).toBe(
      "ok",
    );
    advance(HOUR);
    expect(await codeOf(service.createTeam(a, { team_name: "later" }))).toBe("ok");
  });

  test("past the daily budget, spread over hours: rate_limited create_team", async () => {
    const { service, mint, advance } = fixture();
    const a = (await mint()).principal_ref;
    for (let i = 0; i < TEAM_CREATE_RATE.per_day; i += 1) {
      await service.createTeam(a, { team_name: `t${i}` });
      advance(HOUR / TEAM_CREATE_RATE.per_hour);
    }
    expect(await codeOf(service.createTeam(a, { team_name: "x" }))).toBe(
      "rate_limited:create_team",
    );
  });
});

describe("retention of what was never used", () => {
  test("an unused team goes after 30 days with its creator; the creator's token stops at once", async () => {
    const { service, store, mint, advance } = fixture();
    const owner = await mint();
    expect(await service.authenticate(owner.token)).toBe(owner.principal_ref);
    const team = await service.createTeam(owner.principal_ref, { team_name: "idle" });
    advance(UNUSED_TEAM_RETENTION_MS - 1);
    expect(await service.collectGarbage()).toMatchObject({ teams: 0, principals: 0 });
    advance(1);
    expect(await service.collectGarbage()).toMatchObject({ teams: 1, principals: 1 });
    expect(await store.transact((tx) => tx.getTeam(team.team_ref))).toBeNull();
    // The token was cached by authenticate: the sweep must not leave it working.
    expect(await service.authenticate(owner.token)).toBeNull();
  });

  test("a principal that belongs to nothing goes after 7 days, not before", async () => {
    const { service, mint, advance } = fixture();
    const lone = await mint();
    await service.authenticate(lone.token);
    advance(UNUSED_PRINCIPAL_RETENTION_MS - 1);
    expect(await service.collectGarbage()).toMatchObject({ principals: 0 });
    expect(await service.authenticate(lone.token)).toBe(lone.principal_ref);
    advance(1);
    expect(await service.collectGarbage()).toMatchObject({ principals: 1 });
    expect(await service.authenticate(lone.token)).toBeNull();
  });

  test("a team with a session ever, or a member who ever joined, is kept for good", async () => {
    const { service, store, mint, advance } = fixture();
    const owner = (await mint()).principal_ref;
    const withSession = await service.createTeam(owner, { team_name: "worked" });
    const session = await service.registerSession(owner, withSession.team_ref, registration);
    await service.closeSession(owner, withSession.team_ref, session.session_id);
    const joiner = (await mint()).principal_ref;
    const owner2 = (await mint()).principal_ref;
    const joined = await service.createTeam(owner2, { team_name: "shared" });
    await service.joinTeam(joiner, { join_secret: joined.join_secret });
    await service.leaveTeam(joiner, joined.team_ref);
    // Sessions themselves are collected after 7 days offline: the team's mark outlives them.
    advance(365 * DAY);
    const swept = await service.collectGarbage();
    expect(swept.sessions).toBe(1);
    expect(swept.teams).toBe(0);
    for (const ref of [withSession.team_ref, joined.team_ref]) {
      expect(await store.transact((tx) => tx.getTeam(ref))).not.toBeNull();
    }
    // The joiner left but keeps its membership row: a principal with any membership stays.
    expect(swept.principals).toBe(0);
  });

  test("a team about to be used: a join or a session just before the sweep keeps it", async () => {
    const { service, store, mint, advance } = fixture();
    const owner = (await mint()).principal_ref;
    const late = await service.createTeam(owner, { team_name: "late-join" });
    const owner2 = (await mint()).principal_ref;
    const lateSession = await service.createTeam(owner2, { team_name: "late-session" });
    advance(UNUSED_TEAM_RETENTION_MS - 1);
    await service.joinTeam((await mint()).principal_ref, { join_secret: late.join_secret });
    await service.registerSession(owner2, lateSession.team_ref, registration);
    advance(DAY);
    expect((await service.collectGarbage()).teams).toBe(0);
    for (const ref of [late.team_ref, lateSession.team_ref]) {
      expect(await store.transact((tx) => tx.getTeam(ref))).not.toBeNull();
    }
  });

  test("the creator rejoining its own team does not count as use", async () => {
    const { service, mint, advance } = fixture();
    const owner = (await mint()).principal_ref;
    const team = await service.createTeam(owner, { team_name: "solo" });
    await service.leaveTeam(owner, team.team_ref);
    await service.joinTeam(owner, { join_secret: team.join_secret });
    advance(UNUSED_TEAM_RETENTION_MS);
    expect((await service.collectGarbage()).teams).toBe(1);
  });
});
