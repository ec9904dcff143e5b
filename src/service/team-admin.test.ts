import { afterEach, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import { BapError } from "../protocol/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/sqlite-store.ts";
import { BrigadeService } from "./brigade-service.ts";
import { systemDeps } from "./service-deps.ts";

const claudeCode = { harness: "claude-code", harness_version: "2.1.270" } as const;

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/**
 * Creator A and member B in T1 (one session each); C in T2; X a principal in no team. The clock
 * is the test's (`clock.now`), so an offer's expiry is a move of it.
 */
async function world() {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const clock = { now: Date.parse("2026-10-02T09:00:00Z") };
  const service = new BrigadeService(store, { ...systemDeps(), now: () => clock.now });
  const [a, b, c, x] = await Promise.all(
    [0, 1, 2, 3].map(async () => (await service.createPrincipal()).principal_ref),
  );
  if (a === undefined || b === undefined || c === undefined || x === undefined)
    throw new Error("principals missing");
  const t1 = await service.createTeam(a, { team_name: "core" });
  await service.joinTeam(b, { join_secret: t1.join_secret });
  const t2 = await service.createTeam(c, { team_name: "other" });
  const T1 = t1.team_ref;
  const sa = (await service.registerSession(a, T1, sessionRegistration("a", claudeCode)))
    .session_id;
  const sb = (await service.registerSession(b, T1, sessionRegistration("b", claudeCode)))
    .session_id;
  return { store, clock, service, a, b, c, x, t1, t2, T1, T2: t2.team_ref, sa, sb };
}

async function wireError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BapError);
    return JSON.stringify(error);
  }
  throw new Error("expected a BapError");
}

const NOT_MEMBER = JSON.stringify({
  code: "unauthorized",
  message: "not an active member of this team",
  retryable: false,
});
const NOT_CREATOR = JSON.stringify({
  code: "unauthorized",
  message: "only the team's creator may do this",
  retryable: false,
  details: { reason: "not_creator" },
});
const NOT_FOUND = JSON.stringify({
  code: "not_found",
  message: "session or message not found",
  retryable: false,
});
const JOIN_REJECTED = JSON.stringify({
  code: "unauthorized",
  message: "the join secret was rejected",
  retryable: false,
});

describe("team.admin: creator only", () => {
  test("a member gets not_creator; a non-member and an unknown team the uniform unauthorized", async () => {
    const { service, b, c, T1 } = await world();
    const verbs = (who: string, team: string) => [
      service.rotateSecret(who, team),
      service.revokeMember(who, team, { principal_ref: who }),
      service.transferTeam(who, team, { principal_ref: who }),
    ];
    for (const call of verbs(b, T1)) expect(await wireError(call)).toBe(NOT_CREATOR);
    for (const team of [T1, "t-doesnotexist"]) {
      for (const call of verbs(c, team)) expect(await wireError(call)).toBe(NOT_MEMBER);
    }
  });

  test("a bad principal_ref is invalid_input naming the member, never its value", async () => {
    const { service, a, T1 } = await world();
    for (const bad of [{}, { principal_ref: "" }, { principal_ref: 7 }]) {
      const error = JSON.parse(
        await wireError(service.revokeMember(a, T1, bad as { principal_ref: string })),
      );
      expect(error.code).toBe("invalid_input");
      expect(error.details.field).toBe("principal_ref");
      const transfer = JSON.parse(
        await wireError(service.transferTeam(a, T1, bad as { principal_ref: string })),
      );
      expect(transfer.details.field).toBe("principal_ref");
    }
  });
});

describe("team rotate-secret", () => {
  test("the old secret is refused at once, the new one admits; members stay members", async () => {
    const { service, a, b, x, t1, T1 } = await world();
    const rotated = await service.rotateSecret(a, T1);
    expect(rotated).toEqual({
      team_ref: T1,
      team_name: "core",
      join_secret: expect.any(String),
      invitations_revoked: 0,
    });
    expect(rotated.join_secret).not.toBe(t1.join_secret);
    expect(rotated.join_secret.startsWith(`brg1.${T1}.`)).toBe(true);
    expect(await wireError(service.joinTeam(x, { join_secret: t1.join_secret }))).toBe(
      JOIN_REJECTED,
    );
    expect((await service.joinTeam(x, { join_secret: rotated.join_secret })).team_ref).toBe(T1);
    const roster = await service.listMembers(b, T1);
    expect(roster.members.map((m) => m.principal_ref).sort()).toEqual([a, b, x].sort());
    const again = await service.rotateSecret(a, T1);
    expect(await wireError(service.joinTeam(x, { join_secret: rotated.join_secret }))).toBe(
      JOIN_REJECTED,
    );
    expect(again.join_secret).not.toBe(rotated.join_secret);
  });

  test("a member who left cannot come back with the old secret", async () => {
    const { service, a, b, t1, T1 } = await world();
    await service.leaveTeam(b, T1);
    await service.rotateSecret(a, T1);
    expect(await wireError(service.joinTeam(b, { join_secret: t1.join_secret }))).toBe(
      JOIN_REJECTED,
    );
  });
});

describe("team revoke-member", () => {
  test("closes the member's sessions, ends its watches, shuts it out; its sent messages stay", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    const sent = await service.sendMessage(b, T1, {
      sender_session_id: sb,
      recipient_session_id: sa,
      body: "before the ban",
    });
    let revoked = 0;
    await service.subscribe(b, T1, sb, { onMessages: () => {}, onRevoked: () => (revoked += 1) });
    expect(await service.revokeMember(a, T1, { principal_ref: b })).toEqual({
      team_ref: T1,
      principal_ref: b,
      revoked: true,
    });
    expect(revoked).toBe(1);
    expect(await wireError(service.listSessions(b, T1))).toBe(NOT_MEMBER);
    expect(await wireError(service.listMembers(b, T1))).toBe(NOT_MEMBER);
    expect(
      await wireError(
        service.sendMessage(b, T1, { sender_session_id: sb, recipient_session_id: sa, body: "x" }),
      ),
    ).toBe(NOT_MEMBER);
    expect(
      await wireError(service.registerSession(b, T1, sessionRegistration("again", claudeCode))),
    ).toBe(NOT_MEMBER);
    const listed = await service.listSessions(a, T1, { include_offline: true });
    expect(listed.sessions.map((s) => s.session_id)).toEqual([sa]);
    expect((await service.listMembers(a, T1)).members.map((m) => m.principal_ref)).toEqual([a]);
    const inbox = await service.receiveMessages(a, T1, sa);
    expect(inbox.messages.map((m) => m.message_id)).toEqual([sent.message_id]);
    expect(await service.isActiveMember(b, T1)).toBe(false);
  });

  test("a rejoin is refused with the old secret and with a rotated one, byte-identically", async () => {
    const { service, a, b, x, t1, T1 } = await world();
    await service.revokeMember(a, T1, { principal_ref: b });
    expect(await wireError(service.joinTeam(b, { join_secret: t1.join_secret }))).toBe(
      JOIN_REJECTED,
    );
    const rotated = await service.rotateSecret(a, T1);
    expect(await wireError(service.joinTeam(b, { join_secret: rotated.join_secret }))).toBe(
      JOIN_REJECTED,
    );
    expect((await service.joinTeam(x, { join_secret: rotated.join_secret })).team_ref).toBe(T1);
  });

  test("a member who left can be revoked; revoking again succeeds; its token still works elsewhere", async () => {
    const { service, a, b, c, T1, t2 } = await world();
    await service.joinTeam(b, { join_secret: t2.join_secret });
    await service.leaveTeam(b, T1);
    const result = await service.revokeMember(a, T1, { principal_ref: b });
    expect(result.revoked).toBe(true);
    expect(await service.revokeMember(a, T1, { principal_ref: b })).toEqual(result);
    const other = await service.listMembers(b, t2.team_ref);
    expect(other.members.map((m) => m.principal_ref).sort()).toEqual([b, c].sort());
  });

  test("the creator cannot revoke itself; a stranger or another team's member is not_found", async () => {
    const { service, a, c, x, T1 } = await world();
    const self = JSON.parse(await wireError(service.revokeMember(a, T1, { principal_ref: a })));
    expect(self).toEqual({
      code: "conflict",
      message: "the request conflicts with the current state",
      retryable: false,
      details: { reason: "team_creator" },
    });
    for (const stranger of [c, x, "p-doesnotexist"]) {
      expect(await wireError(service.revokeMember(a, T1, { principal_ref: stranger }))).toBe(
        NOT_FOUND,
      );
    }
    expect(await service.isActiveMember(a, T1)).toBe(true);
  });
});

describe("team transfer", () => {
  test("is an offer: nothing changes until the member accepts; then the new creator administers and the old one cannot", async () => {
    const { service, a, b, T1 } = await world();
    expect(await service.transferTeam(a, T1, { principal_ref: b })).toEqual({
      team_ref: T1,
      creator_principal_ref: a,
      offered_to_principal_ref: b,
      expires_at: "2026-10-09T09:00:00.000Z",
    });
    // Offered, not handed over: the creator is still the creator, the member still is not.
    expect(await wireError(service.rotateSecret(b, T1))).toBe(NOT_CREATOR);
    expect((await service.rotateSecret(a, T1)).team_ref).toBe(T1);
    expect(JSON.parse(await wireError(service.leaveTeam(a, T1))).details).toEqual({
      reason: "team_creator",
    });
    expect(await service.acceptTransfer(b, T1)).toEqual({
      team_ref: T1,
      creator_principal_ref: b,
      previous_creator_principal_ref: a,
    });
    expect(await wireError(service.acceptTransfer(b, T1))).toBe(NOT_FOUND);
    expect(await wireError(service.rotateSecret(a, T1))).toBe(NOT_CREATOR);
    expect(await wireError(service.transferTeam(a, T1, { principal_ref: a }))).toBe(NOT_CREATOR);
    expect(await service.isActiveMember(a, T1)).toBe(true);
    expect((await service.rotateSecret(b, T1)).team_ref).toBe(T1);
    // Handed on, the old creator may leave like any member.
    expect((await service.leaveTeam(a, T1)).left).toBe(true);
  });

  test("only the member offered the team accepts it; a new offer replaces the last, one to oneself withdraws it", async () => {
    const { service, a, b, c, x, t1, T1 } = await world();
    await service.joinTeam(x, { join_secret: t1.join_secret });
    await service.transferTeam(a, T1, { principal_ref: b });
    expect(await wireError(service.acceptTransfer(x, T1))).toBe(NOT_FOUND);
    expect(await wireError(service.acceptTransfer(a, T1))).toBe(NOT_FOUND);
    expect(await wireError(service.acceptTransfer(c, T1))).toBe(NOT_MEMBER);
    expect((await service.transferTeam(a, T1, { principal_ref: x })).offered_to_principal_ref).toBe(
      x,
    );
    expect(await wireError(service.acceptTransfer(b, T1))).toBe(NOT_FOUND);
    expect(await service.transferTeam(a, T1, { principal_ref: a })).toEqual({
      team_ref: T1,
      creator_principal_ref: a,
      offered_to_principal_ref: null,
      expires_at: null,
    });
    expect(await wireError(service.acceptTransfer(x, T1))).toBe(NOT_FOUND);
    expect((await service.rotateSecret(a, T1)).team_ref).toBe(T1);
  });

  test("an offer lapses when its member leaves or is removed, and never comes back with a rejoin", async () => {
    const { service, a, b, x, t1, T1 } = await world();
    await service.joinTeam(x, { join_secret: t1.join_secret });
    await service.transferTeam(a, T1, { principal_ref: b });
    await service.leaveTeam(b, T1);
    await service.joinTeam(b, { join_secret: t1.join_secret });
    expect(await wireError(service.acceptTransfer(b, T1))).toBe(NOT_FOUND);
    await service.transferTeam(a, T1, { principal_ref: x });
    await service.revokeMember(a, T1, { principal_ref: x });
    expect(await wireError(service.acceptTransfer(x, T1))).toBe(NOT_MEMBER);
    expect((await service.rotateSecret(a, T1)).team_ref).toBe(T1);
  });

  test("only an active member can be offered the team", async () => {
    const { service, a, b, c, x, T1 } = await world();
    await service.leaveTeam(b, T1);
    for (const target of [b, c, x, "p-doesnotexist"]) {
      expect(await wireError(service.transferTeam(a, T1, { principal_ref: target }))).toBe(
        NOT_FOUND,
      );
    }
    expect((await service.rotateSecret(a, T1)).team_ref).toBe(T1);
  });
});

const OFFER_EXPIRED = JSON.stringify({
  code: "unauthorized",
  message: "the offer of this team has expired: ask its creator to offer it again",
  retryable: false,
  details: { reason: "transfer_offer_expired" },
});
const WEEK_MS = 7 * 24 * 3600 * 1000;

describe("a transfer offer's time [ours]", () => {
  test("stands 7 days: accepted in its last millisecond; at its end refused as expired, cleared, the creator's still", async () => {
    for (const late of [false, true]) {
      const { store, clock, service, a, b, T1 } = await world();
      const made = clock.now;
      await service.transferTeam(a, T1, { principal_ref: b });
      const row = await store.transact((tx) => tx.getTeam(T1));
      expect([row?.offered_to_principal_ref, row?.offer_expires_at]).toEqual([b, made + WEEK_MS]);
      clock.now = made + WEEK_MS - (late ? 0 : 1);
      if (!late) {
        expect((await service.acceptTransfer(b, T1)).creator_principal_ref).toBe(b);
        continue;
      }
      expect(await wireError(service.acceptTransfer(b, T1))).toBe(OFFER_EXPIRED);
      // The lapsed offer is gone for good: the refusal committed its clearing.
      const after = await store.transact((tx) => tx.getTeam(T1));
      expect([after?.offered_to_principal_ref, after?.offer_expires_at]).toEqual([null, null]);
      expect(after?.creator_principal_ref).toBe(a);
      expect(await wireError(service.acceptTransfer(b, T1))).toBe(NOT_FOUND);
      expect(await wireError(service.rotateSecret(b, T1))).toBe(NOT_CREATOR);
      expect((await service.rotateSecret(a, T1)).team_ref).toBe(T1);
    }
  });

  test("only its member learns it expired; a new offer starts a new time; expires_in_seconds 1..604,800", async () => {
    const { clock, service, a, b, x, t1, T1 } = await world();
    await service.joinTeam(x, { join_secret: t1.join_secret });
    const made = await service.transferTeam(a, T1, { principal_ref: b, expires_in_seconds: 60 });
    expect(made.expires_at).toBe(new Date(clock.now + 60_000).toISOString());
    clock.now += 60_000;
    expect(await wireError(service.acceptTransfer(x, T1))).toBe(NOT_FOUND);
    // Offered again, the member has a new week from now.
    await service.transferTeam(a, T1, { principal_ref: b });
    clock.now += WEEK_MS - 1;
    expect((await service.acceptTransfer(b, T1)).creator_principal_ref).toBe(b);
    for (const seconds of [0, 604_801, 1.5, "60"]) {
      const refused = JSON.parse(
        await wireError(
          service.transferTeam(b, T1, { principal_ref: a, expires_in_seconds: seconds }),
        ),
      );
      expect([refused.code, refused.details.field]).toEqual([
        "invalid_input",
        "expires_in_seconds",
      ]);
    }
    const longest = await service.transferTeam(b, T1, {
      principal_ref: a,
      expires_in_seconds: 604_800,
    });
    expect(longest.expires_at).toBe(new Date(clock.now + WEEK_MS).toISOString());
  });
});

describe("a creator who leaves", () => {
  test("is refused while another member is active, and nothing changes; alone, it may leave", async () => {
    const { service, a, b, T1, sa } = await world();
    expect(JSON.parse(await wireError(service.leaveTeam(a, T1)))).toEqual({
      code: "conflict",
      message: "the request conflicts with the current state",
      retryable: false,
      details: { reason: "team_creator" },
    });
    expect(await service.isActiveMember(a, T1)).toBe(true);
    const listed = await service.listSessions(a, T1, { session_id: sa });
    expect(listed.sessions.map((s) => s.session_id)).toContain(sa);
    expect((await service.rotateSecret(a, T1)).team_ref).toBe(T1);
    // Once the others are gone there is nobody to hand the team to.
    await service.leaveTeam(b, T1);
    expect(await service.leaveTeam(a, T1)).toEqual({ team_ref: T1, principal_ref: a, left: true });
    expect(await service.isActiveMember(a, T1)).toBe(false);
  });
});
