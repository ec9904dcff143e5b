import { afterEach, describe, expect, test } from "vitest";
import { BapError, digestJoinSecret, parseJoinSecret } from "../protocol/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/sqlite-store.ts";
import { BrigadeService } from "./brigade-service.ts";
import { randomIdGenerator, systemDeps } from "./service-deps.ts";

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const HOUR = 3_600_000;

/**
 * Creator A and member B in T1; C creates T2; X, Y, Z principals in no team. The clock is the
 * test's (`clock.now`), so expiry is a move of it.
 */
async function world() {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const clock = { now: Date.parse("2026-10-02T09:00:00Z") };
  const base = systemDeps();
  const service = new BrigadeService(store, {
    ...base,
    now: () => clock.now,
    newId: randomIdGenerator(base.randomBytes),
  });
  const [a, b, c, x, y, z] = await Promise.all(
    [0, 1, 2, 3, 4, 5].map(async () => (await service.createPrincipal()).principal_ref),
  );
  if ([a, b, c, x, y, z].some((p) => p === undefined)) throw new Error("principals missing");
  const p = (v: string | undefined) => v as string;
  const t1 = await service.createTeam(p(a), { team_name: "core" });
  await service.joinTeam(p(b), { join_secret: t1.join_secret });
  const t2 = await service.createTeam(p(c), { team_name: "other" });
  return {
    store,
    clock,
    service,
    a: p(a),
    b: p(b),
    c: p(c),
    x: p(x),
    y: p(y),
    z: p(z),
    t1,
    T1: t1.team_ref,
    T2: t2.team_ref,
  };
}

async function wireError(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BapError);
    return JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
  }
  throw new Error("expected a BapError");
}

const JOIN_REJECTED = {
  code: "unauthorized",
  message: "the join secret was rejected",
  retryable: false,
};
const spent = (reason: string, message: string) => ({
  code: "unauthorized",
  message,
  retryable: false,
  details: { reason },
});
const USED = spent("invitation_used", "the invitation was already used");
const EXPIRED = spent("invitation_expired", "the invitation has expired");
const REVOKED = spent("invitation_revoked", "the invitation was revoked");
const NOT_FOUND = { code: "not_found", message: "session or message not found", retryable: false };
const NOT_MEMBER = {
  code: "unauthorized",
  message: "not an active member of this team",
  retryable: false,
};
const NOT_CREATOR = {
  code: "unauthorized",
  message: "only the team's creator may do this",
  retryable: false,
  details: { reason: "not_creator" },
};

describe("team invite", () => {
  test("single use and 24 hours by default; a join secret of its own, stored only as a digest", async () => {
    const { store, clock, service, a, x, y, T1 } = await world();
    const invite = await service.createInvitation(a, T1, {});
    expect(invite).toMatchObject({ team_ref: T1, team_name: "core", max_uses: 1 });
    expect(invite.expires_at).toBe(new Date(clock.now + 24 * HOUR).toISOString());
    expect(invite.invitation_id).toMatch(/^i-[0-9a-f]{20}$/);
    const parsed = parseJoinSecret(invite.invitation ?? "");
    if (!parsed.ok) throw new Error("not a join secret");
    expect(parsed.value.teamRef).toBe(T1);
    const row = await store.transact((tx) => tx.getInvitation(T1, invite.invitation_id));
    expect(row?.secret_digest).toBe(digestJoinSecret(parsed.value));
    expect(JSON.stringify(row)).not.toContain(parsed.value.revealSecretHalf());

    const joined = await service.joinTeam(x, {
      join_secret: invite.invitation,
      human_label: "Xena",
    });
    expect(joined).toEqual({ team_ref: T1, team_name: "core", principal_ref: x, rejoined: false });
    expect(await service.isActiveMember(x, T1)).toBe(true);
    expect(await wireError(service.joinTeam(y, { join_secret: invite.invitation }))).toEqual(USED);
    expect(await service.isActiveMember(y, T1)).toBe(false);
  });

  test("the team's own secret keeps admitting beside invitations", async () => {
    const { service, a, x, t1, T1 } = await world();
    await service.createInvitation(a, T1, { max_uses: 5 });
    expect((await service.joinTeam(x, { join_secret: t1.join_secret })).team_ref).toBe(T1);
  });

  test("--uses N admits N people; a member rejoining with it takes no use", async () => {
    const { service, a, x, y, z, T1 } = await world();
    const invite = await service.createInvitation(a, T1, { max_uses: 2 });
    const secret = invite.invitation;
    await service.joinTeam(x, { join_secret: secret });
    expect((await service.joinTeam(x, { join_secret: secret })).rejoined).toBe(true);
    await service.joinTeam(y, { join_secret: secret });
    expect((await service.joinTeam(y, { join_secret: secret })).rejoined).toBe(true);
    expect(await wireError(service.joinTeam(z, { join_secret: secret }))).toEqual(USED);
    const [listed] = (await service.listInvitations(a, T1)).invitations;
    expect(listed).toMatchObject({ state: "used", uses: 2, max_uses: 2 });
  });

  test("a member who left needs a live invitation: a used one does not bring it back", async () => {
    const { service, a, x, T1 } = await world();
    const invite = await service.createInvitation(a, T1, {});
    await service.joinTeam(x, { join_secret: invite.invitation });
    await service.leaveTeam(x, T1);
    expect(await wireError(service.joinTeam(x, { join_secret: invite.invitation }))).toEqual(USED);
    const again = await service.createInvitation(a, T1, {});
    expect((await service.joinTeam(x, { join_secret: again.invitation })).rejoined).toBe(true);
  });

  test("expires at its time, to the millisecond, on the server's clock", async () => {
    const { clock, service, a, x, y, T1 } = await world();
    const invite = await service.createInvitation(a, T1, { expires_in_seconds: 60, max_uses: 2 });
    clock.now += 59_999;
    await service.joinTeam(x, { join_secret: invite.invitation });
    clock.now += 1;
    expect(await wireError(service.joinTeam(y, { join_secret: invite.invitation }))).toEqual(
      EXPIRED,
    );
    const [listed] = (await service.listInvitations(a, T1)).invitations;
    expect(listed).toMatchObject({ state: "expired", uses: 1 });
  });

  test("revoked by its creator: refused with its own line; revoking is idempotent and keeps how an invitation ended", async () => {
    const { service, a, x, y, T1 } = await world();
    const live = await service.createInvitation(a, T1, {});
    const used = await service.createInvitation(a, T1, {});
    await service.joinTeam(x, { join_secret: used.invitation });
    const target = (i: { invitation_id: string }) => ({ invitation_id: i.invitation_id });
    expect(await service.revokeInvitation(a, T1, target(live))).toEqual({
      team_ref: T1,
      invitation_id: live.invitation_id,
      state: "revoked",
    });
    expect((await service.revokeInvitation(a, T1, target(live))).state).toBe("revoked");
    expect((await service.revokeInvitation(a, T1, target(used))).state).toBe("used");
    expect(await wireError(service.joinTeam(y, { join_secret: live.invitation }))).toEqual(REVOKED);
    const states = (await service.listInvitations(a, T1)).invitations.map((i) => i.state);
    expect(states).toEqual(["used", "revoked"]);
  });

  test("a rotation revokes every active invitation (and says how many); used ones stay used", async () => {
    const { service, a, x, y, T1 } = await world();
    const used = await service.createInvitation(a, T1, {});
    await service.joinTeam(x, { join_secret: used.invitation });
    const live = [
      await service.createInvitation(a, T1, {}),
      await service.createInvitation(a, T1, {}),
    ];
    const rotated = await service.rotateSecret(a, T1);
    expect(rotated.invitations_revoked).toBe(2);
    for (const invite of live) {
      expect(await wireError(service.joinTeam(y, { join_secret: invite.invitation }))).toEqual(
        REVOKED,
      );
    }
    const states = (await service.listInvitations(a, T1)).invitations.map((i) => i.state);
    expect(states).toEqual(["revoked", "revoked", "used"]);
    expect((await service.rotateSecret(a, T1)).invitations_revoked).toBe(0);
    // An invitation made after the rotation admits.
    const fresh = await service.createInvitation(a, T1, {});
    expect((await service.joinTeam(y, { join_secret: fresh.invitation })).team_ref).toBe(T1);
  });

  test("a removed member, a forged or another team's invitation: the uniform rejection, and no use taken", async () => {
    const { service, a, b, c, x, T1, T2 } = await world();
    const invite = await service.createInvitation(a, T1, {});
    const secret = invite.invitation ?? "";
    await service.revokeMember(a, T1, { principal_ref: b });
    expect(await wireError(service.joinTeam(b, { join_secret: secret }))).toEqual(JOIN_REJECTED);
    const half = secret.slice(secret.lastIndexOf(".") + 1);
    const forged = `${secret.slice(0, -2)}${secret.endsWith("AA") ? "BB" : "AA"}`;
    const elsewhere = `brg1.${T2}.${half}`;
    const foreign = await service.createInvitation(c, T2, {});
    const crossed = `brg1.${T1}.${(foreign.invitation ?? "").split(".").at(-1)}`;
    for (const join_secret of [forged, elsewhere, crossed, `brg1.t-nothere.${half}`]) {
      expect(await wireError(service.joinTeam(x, { join_secret }))).toEqual(JOIN_REJECTED);
    }
    // The invitation is still whole: nothing above took its one use.
    expect((await service.joinTeam(x, { join_secret: secret })).team_ref).toBe(T1);
  });

  test("failed joins with spent invitations count toward the join limiter", async () => {
    const { service, a, x, y, T1 } = await world();
    const invite = await service.createInvitation(a, T1, {});
    await service.joinTeam(x, { join_secret: invite.invitation });
    for (let i = 0; i < 10; i += 1) {
      expect(
        (await wireError(service.joinTeam(y, { join_secret: invite.invitation }))).details,
      ).toEqual({
        reason: "invitation_used",
      });
    }
    expect(
      (await wireError(service.joinTeam(y, { join_secret: invite.invitation }))).details,
    ).toEqual({
      reason: "join_attempts",
    });
  });

  test("joins racing for the last use: exactly as many as it has get in", async () => {
    const { service, a, T1 } = await world();
    const invite = await service.createInvitation(a, T1, { max_uses: 3 });
    const joiners = await Promise.all(
      Array.from({ length: 10 }, async () => (await service.createPrincipal()).principal_ref),
    );
    const outcomes = await Promise.all(
      joiners.map((p) =>
        service.joinTeam(p, { join_secret: invite.invitation }).then(
          () => "joined",
          (error: unknown) => (error as BapError).details?.reason,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "joined")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "invitation_used")).toHaveLength(7);
    expect((await service.listMembers(a, T1)).members).toHaveLength(2 + 3);
  });

  test("bounds: uses 1..100, expiry 1 s..7 days, JSON integers only, each refusal naming its member", async () => {
    const { service, a, T1 } = await world();
    const bad: [Record<string, unknown>, string, string][] = [
      [{ max_uses: 0 }, "max_uses", "out_of_range"],
      [{ max_uses: 101 }, "max_uses", "out_of_range"],
      [{ max_uses: 1.5 }, "max_uses", "invalid_value"],
      [{ max_uses: "2" }, "max_uses", "invalid_value"],
      [{ expires_in_seconds: 0 }, "expires_in_seconds", "out_of_range"],
      [{ expires_in_seconds: 604_801 }, "expires_in_seconds", "out_of_range"],
    ];
    for (const [request, field, reason] of bad) {
      const error = await wireError(service.createInvitation(a, T1, request));
      expect(error.code).toBe("invalid_input");
      expect(error.details).toMatchObject({ field, reason });
    }
    const widest = await service.createInvitation(a, T1, {
      max_uses: 100,
      expires_in_seconds: 604_800,
    });
    expect(widest.max_uses).toBe(100);
  });

  test("only the creator invites, lists and revokes; strangers learn nothing", async () => {
    const { service, a, b, c, T1, T2 } = await world();
    const invite = await service.createInvitation(a, T1, {});
    const target = { invitation_id: invite.invitation_id };
    const calls = (who: string, team: string) => [
      service.createInvitation(who, team, {}),
      service.listInvitations(who, team),
      service.revokeInvitation(who, team, target),
    ];
    for (const call of calls(b, T1)) expect(await wireError(call)).toEqual(NOT_CREATOR);
    for (const team of [T1, "t-doesnotexist"]) {
      for (const call of calls(c, team)) expect(await wireError(call)).toEqual(NOT_MEMBER);
    }
    for (const id of ["i-00000000000000000000", invite.invitation_id.toUpperCase()]) {
      expect(await wireError(service.revokeInvitation(a, T1, { invitation_id: id }))).toEqual(
        NOT_FOUND,
      );
    }
    // Another team's invitation id is unknown here too.
    const other = await service.createInvitation(c, T2, {});
    expect(
      await wireError(service.revokeInvitation(a, T1, { invitation_id: other.invitation_id })),
    ).toEqual(NOT_FOUND);
  });

  test("the list is newest first and never carries a secret; at most 100 a day per team", async () => {
    const { clock, service, a, T1 } = await world();
    const made: string[] = [];
    for (let i = 0; i < 100; i += 1) {
      const invite = await service.createInvitation(a, T1, {});
      made.push(invite.invitation ?? "");
      clock.now += 1;
    }
    const refused = await wireError(service.createInvitation(a, T1, {}));
    expect(refused).toMatchObject({
      code: "rate_limited",
      retryable: true,
      details: { reason: "create_invitation" },
    });
    expect(refused.retry_after_ms).toBe(24 * HOUR - 100);
    const listed = await service.listInvitations(a, T1);
    expect(listed.invitations).toHaveLength(100);
    expect(listed.truncated).toBe(false);
    const text = JSON.stringify(listed);
    for (const secret of made) {
      expect(text).not.toContain(secret.slice(secret.lastIndexOf(".") + 1));
    }
    const created = listed.invitations.map((i) => i.created_at);
    expect(created).toEqual([...created].sort().reverse());
    clock.now += 24 * HOUR;
    expect((await service.createInvitation(a, T1, {})).max_uses).toBe(1);
  });

  test("ended invitations are swept 7 days after they ended; active ones stay", async () => {
    const { clock, service, a, x, T1 } = await world();
    const used = await service.createInvitation(a, T1, {});
    await service.joinTeam(x, { join_secret: used.invitation });
    const live = await service.createInvitation(a, T1, { expires_in_seconds: 604_800 });
    clock.now += 7 * 24 * HOUR - 1;
    expect((await service.collectGarbage(clock.now)).invitations).toBe(0);
    clock.now += 1;
    expect((await service.collectGarbage(clock.now)).invitations).toBe(1);
    const ids = (await service.listInvitations(a, T1)).invitations.map((i) => i.invitation_id);
    expect(ids).toEqual([live.invitation_id]);
  });
});

describe("team label and the creator in team members", () => {
  test("a member sets its own label; the roster names the creator", async () => {
    const { service, a, b, c, T1 } = await world();
    expect(await service.setLabel(b, T1, { human_label: "Bo <b>" })).toEqual({
      team_ref: T1,
      principal_ref: b,
      human_label: "Bo <b>",
    });
    const roster = await service.listMembers(a, T1);
    expect(roster.creator_principal_ref).toBe(a);
    expect(roster.members.find((m) => m.principal_ref === b)?.human_label).toBe("Bo <b>");
    expect(await wireError(service.setLabel(c, T1, { human_label: "x" }))).toEqual(NOT_MEMBER);
    for (const human_label of ["", "é".repeat(129), 7]) {
      const error = await wireError(service.setLabel(b, T1, { human_label }));
      expect(error).toMatchObject({ code: "invalid_input", details: { field: "human_label" } });
    }
    expect(await service.setLabel(b, T1, { human_label: "é".repeat(128) })).toMatchObject({
      human_label: "é".repeat(128),
    });
  });
});
