import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { InvitationRow, Store, StoreTx } from "./store.ts";
import { registerAckContract } from "./store-ack-contract.ts";
import { registerBlobContract } from "./store-blob-contract.ts";
import { contractMessage as message, contractSession as session } from "./store-contract-rows.ts";
import { registerDashboardContract } from "./store-dashboard-contract.ts";
import { registerFetchContract } from "./store-fetch-contract.ts";
import { registerSendContract } from "./store-send-contract.ts";

/** Builds a fresh, empty store for one test. */
export type StoreFactory = () => Store | Promise<Store>;

const MINUTE = 60_000;

/** Two principals, one team with both active, sessions `s-a` (p-a) and `s-b` (p-b). */
async function seed(tx: StoreTx): Promise<void> {
  for (const p of ["p-a", "p-b", "p-c"]) {
    await tx.insertPrincipal({ principal_ref: p, token_digest: `digest-${p}`, created_at: 1 });
  }
  await tx.insertTeam({
    team_ref: "t-1",
    team_name: "core",
    secret_digest: "secret-digest",
    creator_principal_ref: "p-a",
    offered_to_principal_ref: null,
    offer_expires_at: null,
    created_at: 1,
  });
  for (const p of ["p-a", "p-b"]) {
    await tx.putMembership({
      team_ref: "t-1",
      principal_ref: p,
      human_label: p === "p-a" ? "dana" : null,
      status: "active",
      joined_at: p === "p-a" ? 1 : 2,
      updated_at: 1,
    });
  }
  await tx.insertSession(session("s-a"));
  await tx.insertSession(session("s-b", { principal_ref: "p-b", created_at: 1_000_001 }));
}

/**
 * Registers the store contract tests (vitest) for one {@link Store} implementation: every store
 * must pass them unchanged. Call at module top level of a `*.test.ts` file.
 *
 * @example
 * registerStoreContract("sqlite (memory)", () => openSqliteStore(":memory:"));
 */
export function registerStoreContract(name: string, factory: StoreFactory): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await factory();
      await store.transact(seed);
    });
    afterEach(async () => {
      await store.close();
    });

    test("principals are found by token digest only", async () => {
      expect(await store.transact((tx) => tx.principalByTokenDigest("digest-p-a"))).toBe("p-a");
      expect(await store.transact((tx) => tx.principalByTokenDigest("nope"))).toBeNull();
    });

    test("replacePrincipalToken replaces only the digest it names, once", async () => {
      const replace = (from: string, to: string) =>
        store.transact((tx) => tx.replacePrincipalToken("p-a", from, to));
      expect(await replace("digest-p-b", "stolen")).toBe(false);
      expect(await replace("digest-p-a", "digest-p-a-2")).toBe(true);
      expect(await replace("digest-p-a", "digest-p-a-3")).toBe(false);
      expect(await store.transact((tx) => tx.principalByTokenDigest("digest-p-a"))).toBeNull();
      expect(await store.transact((tx) => tx.principalByTokenDigest("digest-p-a-2"))).toBe("p-a");
      expect(await store.transact((tx) => tx.principalByTokenDigest("digest-p-b"))).toBe("p-b");
    });

    test("teams and memberships round-trip; putMembership replaces", async () => {
      const team = await store.transact((tx) => tx.getTeam("t-1"));
      expect(team?.team_name).toBe("core");
      expect(await store.transact((tx) => tx.getTeam("t-x"))).toBeNull();
      await store.transact((tx) =>
        tx.putMembership({
          team_ref: "t-1",
          principal_ref: "p-b",
          human_label: "lee",
          status: "left",
          joined_at: 2,
          updated_at: 5,
        }),
      );
      const m = await store.transact((tx) => tx.getMembership("t-1", "p-b"));
      expect(m).toEqual({
        team_ref: "t-1",
        principal_ref: "p-b",
        human_label: "lee",
        status: "left",
        joined_at: 2,
        updated_at: 5,
      });
      expect(await store.transact((tx) => tx.getMembership("t-1", "p-c"))).toBeNull();
    });

    test("invitations: found by digest or id within their team only; one use per call while active", async () => {
      const invitation = (id: string, over: Partial<InvitationRow> = {}): InvitationRow => ({
        invitation_id: id,
        team_ref: "t-1",
        secret_digest: `digest-${id}`,
        created_by: "p-a",
        max_uses: 2,
        uses: 0,
        created_at: 10,
        expires_at: 1_000,
        last_used_at: null,
        revoked_at: null,
        ...over,
      });
      await store.transact(async (tx) => {
        await tx.insertInvitation(invitation("i-1"));
        await tx.insertInvitation(invitation("i-2", { created_at: 10 }));
        await tx.insertInvitation(invitation("i-3", { created_at: 20, max_uses: 1 }));
      });
      const get = (id: string) => store.transact((tx) => tx.getInvitation("t-1", id));
      expect(await get("i-1")).toEqual(invitation("i-1"));
      expect(await store.transact((tx) => tx.getInvitation("t-2", "i-1"))).toBeNull();
      expect(await store.transact((tx) => tx.invitationByDigest("t-1", "digest-i-2"))).toEqual(
        invitation("i-2"),
      );
      expect(await store.transact((tx) => tx.invitationByDigest("t-2", "digest-i-2"))).toBeNull();
      expect(await store.transact((tx) => tx.invitationByDigest("t-1", "nope"))).toBeNull();

      const use = (id: string, now: number) => store.transact((tx) => tx.useInvitation(id, now));
      expect(await use("i-1", 100)).toBe(true);
      expect(await use("i-1", 200)).toBe(true);
      expect(await use("i-1", 300)).toBe(false);
      expect(await get("i-1")).toMatchObject({ uses: 2, last_used_at: 200 });
      expect(await use("i-2", 1_000)).toBe(false);
      expect(await use("i-2", 999)).toBe(true);
      expect(await use("i-nope", 1)).toBe(false);

      // Revoking takes an active invitation only, and ends its uses.
      expect(await store.transact((tx) => tx.revokeInvitation("i-1", 400))).toBe(false);
      expect(await store.transact((tx) => tx.revokeInvitation("i-2", 1_000))).toBe(false);
      expect(await store.transact((tx) => tx.revokeInvitation("i-2", 400))).toBe(true);
      expect(await store.transact((tx) => tx.revokeInvitation("i-2", 500))).toBe(false);
      expect(await get("i-2")).toMatchObject({ uses: 1, revoked_at: 400 });
      expect(await use("i-2", 450)).toBe(false);

      await store.transact((tx) => tx.insertInvitation(invitation("i-4", { created_at: 20 })));
      expect(await store.transact((tx) => tx.revokeActiveInvitations("t-1", 600))).toBe(2);
      expect(await store.transact((tx) => tx.revokeActiveInvitations("t-1", 700))).toBe(0);
      expect((await get("i-3"))?.revoked_at).toBe(600);

      const listed = await store.transact((tx) => tx.listInvitations("t-1", 3));
      expect(listed.map((i) => i.invitation_id)).toEqual(["i-4", "i-3", "i-2"]);
      expect(await store.transact((tx) => tx.listInvitations("t-2", 10))).toEqual([]);
      expect(await store.transact((tx) => tx.invitationsCreatedSince("t-1", 10))).toEqual({
        count: 2,
        oldest: 20,
      });
      expect(await store.transact((tx) => tx.invitationsCreatedSince("t-2", 0))).toEqual({
        count: 0,
        oldest: null,
      });
    });

    test("invitations: uses racing in separate units never pass max_uses", async () => {
      await store.transact((tx) =>
        tx.insertInvitation({
          invitation_id: "i-race",
          team_ref: "t-1",
          secret_digest: "digest-race",
          created_by: "p-a",
          max_uses: 3,
          uses: 0,
          created_at: 1,
          expires_at: 10_000,
          last_used_at: null,
          revoked_at: null,
        }),
      );
      const taken = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store.transact((tx) => tx.useInvitation("i-race", 100 + i)),
        ),
      );
      expect(taken.filter(Boolean)).toHaveLength(3);
      expect((await store.transact((tx) => tx.getInvitation("t-1", "i-race")))?.uses).toBe(3);
    });

    test("invitations: the sweep takes those that ended before its bound, and an unused team's", async () => {
      const base: InvitationRow = {
        invitation_id: "",
        team_ref: "t-1",
        secret_digest: "",
        created_by: "p-a",
        max_uses: 1,
        uses: 0,
        created_at: 1,
        expires_at: 10_000,
        last_used_at: null,
        revoked_at: null,
      };
      const rows: InvitationRow[] = [
        { ...base, invitation_id: "i-expired", expires_at: 50 },
        { ...base, invitation_id: "i-revoked", revoked_at: 50 },
        { ...base, invitation_id: "i-used", uses: 1, last_used_at: 50 },
        { ...base, invitation_id: "i-used-late", uses: 1, last_used_at: 150 },
        { ...base, invitation_id: "i-live" },
        { ...base, invitation_id: "i-revoked-late", revoked_at: 150 },
      ];
      await store.transact(async (tx) => {
        for (const row of rows)
          await tx.insertInvitation({ ...row, secret_digest: row.invitation_id });
      });
      const bounds = {
        ackedBefore: 0,
        unackedCreatedBefore: 0,
        sessionOfflineBefore: 0,
        joinFailuresBefore: 0,
        invitationEndedBefore: 100,
        unusedTeamCreatedBefore: 0,
        unusedPrincipalCreatedBefore: 0,
        limit: 100,
      };
      expect((await store.transact((tx) => tx.collectGarbage(bounds))).invitations).toBe(3);
      const left = await store.transact((tx) => tx.listInvitations("t-1", 10));
      expect(left.map((i) => i.invitation_id).sort()).toEqual([
        "i-live",
        "i-revoked-late",
        "i-used-late",
      ]);
    });

    test("updateTeam replaces the secret digest, the creator and the offer, nothing else", async () => {
      const before = await store.transact((tx) => tx.getTeam("t-1"));
      if (before === null) throw new Error("seeded team missing");
      await store.transact(async (tx) => {
        await tx.insertTeam({ ...before, team_ref: "t-2", secret_digest: "other" });
        await tx.updateTeam({
          ...before,
          team_name: "ignored",
          created_at: 99,
          secret_digest: "rotated",
          creator_principal_ref: "p-b",
          offered_to_principal_ref: "p-c",
          offer_expires_at: 604_800_123,
        });
      });
      expect(await store.transact((tx) => tx.getTeam("t-1"))).toEqual({
        ...before,
        secret_digest: "rotated",
        creator_principal_ref: "p-b",
        offered_to_principal_ref: "p-c",
        offer_expires_at: 604_800_123,
      });
      expect((await store.transact((tx) => tx.getTeam("t-2")))?.secret_digest).toBe("other");
    });

    test("a revoked membership keeps its row, drops off the roster and hides its sessions", async () => {
      const active = await store.transact((tx) => tx.getMembership("t-1", "p-b"));
      if (active === null) throw new Error("seeded membership missing");
      await store.transact((tx) =>
        tx.putMembership({ ...active, status: "revoked", updated_at: 9 }),
      );
      expect((await store.transact((tx) => tx.getMembership("t-1", "p-b")))?.status).toBe(
        "revoked",
      );
      const roster = await store.transact((tx) => tx.listActiveMembers("t-1", 1_000_000));
      expect(roster.map((m) => m.principal_ref)).toEqual(["p-a"]);
      const sessions = await store.transact((tx) =>
        tx.listTeamSessions("t-1", { now: 1_000_000, includeOffline: true, limit: 10 }),
      );
      expect(sessions.map((s) => s.session_id)).toEqual(["s-a"]);
    });

    test("a unit that throws leaves nothing behind and rejects with its own error", async () => {
      const boom = new Error("boom");
      await expect(
        store.transact(async (tx) => {
          await tx.insertMessage(message("m-1"));
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await store.transact((tx) => tx.getMessage("m-1"))).toBeNull();
    });

    test("sessions round-trip and update replaces every column", async () => {
      const s = await store.transact((tx) => tx.getSession("s-a"));
      expect(s).toEqual(session("s-a"));
      const changed = session("s-a", {
        session_name: "renamed",
        model: "m",
        context_used_tokens: Number.MAX_SAFE_INTEGER,
        closed_at: 5,
        session_description: "d",
      });
      await store.transact((tx) => tx.updateSession(changed));
      expect(await store.transact((tx) => tx.getSession("s-a"))).toEqual(changed);
      expect(await store.transact((tx) => tx.getSession("s-zz"))).toBeNull();
    });

    test("updateOpenSession writes an open session and leaves a closed one as it is", async () => {
      const renamed = session("s-a", { session_name: "renamed", closed_at: 5 });
      expect(await store.transact((tx) => tx.updateOpenSession(renamed))).toBe(true);
      expect(await store.transact((tx) => tx.getSession("s-a"))).toEqual(renamed);
      const reopened = session("s-a", { session_name: "again", closed_at: null });
      expect(await store.transact((tx) => tx.updateOpenSession(reopened))).toBe(false);
      expect(await store.transact((tx) => tx.getSession("s-a"))).toEqual(renamed);
      expect(await store.transact((tx) => tx.updateOpenSession(session("s-zz")))).toBe(false);
    });

    test("live delivery round-trips through insert, update and the team listing", async () => {
      await store.transact((tx) =>
        tx.insertSession(
          session("s-gate", {
            live_delivery: "inbound_gate",
            live_delivery_at: 1_000_008,
            created_at: 1_000_009,
          }),
        ),
      );
      const gate = await store.transact((tx) => tx.getSession("s-gate"));
      expect([gate?.live_delivery, gate?.live_delivery_at]).toEqual(["inbound_gate", 1_000_008]);
      await store.transact((tx) =>
        tx.updateSession(session("s-a", { live_delivery: "yes", live_delivery_at: 2_000_000 })),
      );
      const listed = await store.transact((tx) =>
        tx.listTeamSessions("t-1", { now: 1_000_000, includeOffline: true, limit: 10 }),
      );
      expect(listed.map((s) => [s.session_id, s.live_delivery, s.live_delivery_at])).toEqual([
        ["s-a", "yes", 2_000_000],
        ["s-b", null, null],
        ["s-gate", "inbound_gate", 1_000_008],
      ]);
    });

    test("listTeamSessions: active members only, live filter, limit, oldest first", async () => {
      await store.transact(async (tx) => {
        await tx.insertSession(
          session("s-old", { lease_until: 500, created_at: 1_000_002, last_seen_at: 400 }),
        );
        await tx.insertSession(session("s-closed", { closed_at: 7, created_at: 1_000_003 }));
      });
      const live = await store.transact((tx) =>
        tx.listTeamSessions("t-1", { now: 1_000_000, includeOffline: false, limit: 10 }),
      );
      expect(live.map((s) => s.session_id)).toEqual(["s-a", "s-b"]);
      expect(live[0]?.human_label).toBe("dana");
      expect(live[1]?.human_label).toBeNull();
      const all = await store.transact((tx) =>
        tx.listTeamSessions("t-1", { now: 1_000_000, includeOffline: true, limit: 10 }),
      );
      expect(all.map((s) => s.session_id)).toEqual(["s-a", "s-b", "s-old", "s-closed"]);
      const cut = await store.transact((tx) =>
        tx.listTeamSessions("t-1", { now: 1_000_000, includeOffline: true, limit: 3 }),
      );
      expect(cut).toHaveLength(3);
      const edge = await store.transact((tx) =>
        tx.listTeamSessions("t-1", { now: 1_090_000, includeOffline: false, limit: 10 }),
      );
      expect(edge.map((s) => s.session_id)).toEqual(["s-a", "s-b"]);
      const after = await store.transact((tx) =>
        tx.listTeamSessions("t-1", { now: 1_090_001, includeOffline: false, limit: 10 }),
      );
      expect(after).toEqual([]);
      await store.transact((tx) =>
        tx.putMembership({
          team_ref: "t-1",
          principal_ref: "p-b",
          human_label: null,
          status: "left",
          joined_at: 2,
          updated_at: 3,
        }),
      );
      const withoutLeaver = await store.transact((tx) =>
        tx.listTeamSessions("t-1", { now: 1_000_000, includeOffline: true, limit: 10 }),
      );
      expect(withoutLeaver.map((s) => s.session_id)).not.toContain("s-b");
    });

    test("closeOpenSessions closes only the principal's open sessions in the team", async () => {
      await store.transact((tx) => tx.insertSession(session("s-a2", { closed_at: 3 })));
      const closed = await store.transact((tx) => tx.closeOpenSessions("t-1", "p-a", 42));
      expect(closed).toEqual(["s-a"]);
      expect((await store.transact((tx) => tx.getSession("s-a")))?.closed_at).toBe(42);
      expect((await store.transact((tx) => tx.getSession("s-a2")))?.closed_at).toBe(3);
      expect((await store.transact((tx) => tx.getSession("s-b")))?.closed_at).toBeNull();
    });

    test("roster aggregates: last_seen_at and live session count", async () => {
      await store.transact((tx) =>
        tx.insertSession(session("s-a2", { last_seen_at: 1_000_500, closed_at: 9 })),
      );
      const members = await store.transact((tx) => tx.listActiveMembers("t-1", 1_000_000));
      expect(members).toEqual([
        {
          principal_ref: "p-a",
          human_label: "dana",
          joined_at: 1,
          last_seen_at: 1_000_500,
          live_session_count: 1,
        },
        {
          principal_ref: "p-b",
          human_label: null,
          joined_at: 2,
          last_seen_at: 1_000_000,
          live_session_count: 1,
        },
      ]);
    });

    test("sliding-window counts are strict (> since) and report the oldest", async () => {
      await store.transact(async (tx) => {
        await tx.insertMessage(message("m-1", { created_at: 100 }));
        await tx.insertMessage(message("m-2", { created_at: 200, acked_at: 250 }));
        await tx.insertMessage(message("m-3", { created_at: 300, sender_session_id: "s-x" }));
        await tx.recordJoinFailure("p-a", 100);
        await tx.recordJoinFailure("p-a", 200);
      });
      expect(await store.transact((tx) => tx.sentBySessionSince("s-a", 100))).toEqual({
        count: 1,
        oldest: 200,
      });
      expect(await store.transact((tx) => tx.sentBySessionSince("s-a", 99))).toEqual({
        count: 2,
        oldest: 100,
      });
      expect(await store.transact((tx) => tx.sentByPrincipalSince("p-a", 0))).toEqual({
        count: 3,
        oldest: 100,
      });
      expect(await store.transact((tx) => tx.sentBySessionSince("s-a", 300))).toEqual({
        count: 0,
        oldest: null,
      });
      expect(await store.transact((tx) => tx.joinFailuresSince("p-a", 150))).toEqual({
        count: 1,
        oldest: 200,
      });
      expect(await store.transact((tx) => tx.sessionsCreatedSince("p-a", 0))).toEqual({
        count: 1,
        oldest: 1_000_000,
      });
    });

    test("idempotency key lookup is scoped to the sender session", async () => {
      await store.transact((tx) => tx.insertMessage(message("m-1", { idempotency_key: "k" })));
      expect(
        (await store.transact((tx) => tx.messageByIdempotencyKey("s-a", "k")))?.message_id,
      ).toBe("m-1");
      expect(await store.transact((tx) => tx.messageByIdempotencyKey("s-b", "k"))).toBeNull();
      await expect(
        store.transact((tx) => tx.insertMessage(message("m-2", { idempotency_key: "k" }))),
      ).rejects.toThrow();
    });

    test("unacked counts, inbox order, ack semantics", async () => {
      await store.transact(async (tx) => {
        await tx.insertMessage(message("m-3", { created_at: 50 }));
        await tx.insertMessage(message("m-1", { created_at: 50 }));
        await tx.insertMessage(
          message("m-2", { sender_session_id: "s-x", sender_principal_ref: "p-b" }),
        );
        await tx.insertMessage(message("m-4", { recipient_session_id: "s-a" }));
      });
      expect(await store.transact((tx) => tx.unackedFromTo("s-a", "s-b"))).toBe(2);
      expect(await store.transact((tx) => tx.unackedFor("s-b"))).toBe(3);
      const inbox = await store.transact((tx) => tx.listUnacked("s-b", 10));
      expect(inbox.map((m) => m.message_id)).toEqual(["m-3", "m-1", "m-2"]);
      expect((await store.transact((tx) => tx.listUnacked("s-b", 2))).length).toBe(2);
      expect(await store.transact((tx) => tx.ackMessage("m-3", "s-b", 77))).toBe(true);
      expect(await store.transact((tx) => tx.ackMessage("m-3", "s-b", 99))).toBe(true);
      expect((await store.transact((tx) => tx.getMessage("m-3")))?.acked_at).toBe(77);
      expect(await store.transact((tx) => tx.ackMessage("m-4", "s-b", 77))).toBe(false);
      expect(await store.transact((tx) => tx.ackMessage("m-none", "s-b", 77))).toBe(false);
      expect(await store.transact((tx) => tx.unackedFor("s-b"))).toBe(2);
      expect(
        (await store.transact((tx) => tx.listUnacked("s-b", 10))).map((m) => m.message_id),
      ).toEqual(["m-1", "m-2"]);
    });

    test("latestHopCount picks the most recent message inside the window", async () => {
      await store.transact(async (tx) => {
        await tx.insertMessage(message("m-1", { created_at: 1000, hop_count: 4 }));
        await tx.insertMessage(message("m-2", { created_at: 2000, hop_count: 2 }));
      });
      expect(await store.transact((tx) => tx.latestHopCount("s-a", "s-b", 0))).toBe(2);
      expect(await store.transact((tx) => tx.latestHopCount("s-a", "s-b", 2000))).toBeNull();
      expect(await store.transact((tx) => tx.latestHopCount("s-b", "s-a", 0))).toBeNull();
    });

    test("collectGarbage honours every bound and the batch limit", async () => {
      const now = 100 * MINUTE;
      await store.transact(async (tx) => {
        await tx.insertMessage(message("m-acked-old", { acked_at: 10 }));
        await tx.insertMessage(message("m-acked-new", { acked_at: now }));
        await tx.insertMessage(message("m-unacked-old", { created_at: 10 }));
        await tx.insertMessage(message("m-unacked-old2", { created_at: 11 }));
        await tx.insertMessage(message("m-unacked-new", { created_at: now }));
        await tx.insertSession(session("s-dead", { lease_until: 10, created_at: 1 }));
        await tx.insertSession(session("s-dead-msg", { lease_until: 10, created_at: 1 }));
        await tx.insertMessage(message("m-to-dead", { recipient_session_id: "s-dead-msg" }));
        await tx.recordJoinFailure("p-a", 10);
        await tx.recordJoinFailure("p-a", now);
      });
      const bounds = {
        ackedBefore: 20,
        unackedCreatedBefore: 20,
        sessionOfflineBefore: 20,
        joinFailuresBefore: 20,
        invitationEndedBefore: 20,
        unusedTeamCreatedBefore: 0,
        unusedPrincipalCreatedBefore: 0,
        limit: 1,
      };
      const first = await store.transact((tx) => tx.collectGarbage(bounds));
      expect(first).toEqual({
        messages: 2,
        sessions: 1,
        join_failures: 1,
        invitations: 0,
        teams: 0,
        principals: 0,
      });
      const second = await store.transact((tx) => tx.collectGarbage(bounds));
      expect(second).toEqual({
        messages: 1,
        sessions: 0,
        join_failures: 0,
        invitations: 0,
        teams: 0,
        principals: 0,
      });
      const left = await store.transact(async (tx) => [
        await tx.getMessage("m-acked-new"),
        await tx.getMessage("m-unacked-new"),
        await tx.getMessage("m-to-dead"),
        await tx.getSession("s-dead"),
        await tx.getSession("s-dead-msg"),
        await tx.getSession("s-a"),
      ]);
      expect(left.map((x) => x !== null)).toEqual([true, true, true, false, true, true]);
      expect(await store.transact((tx) => tx.joinFailuresSince("p-a", 0))).toEqual({
        count: 1,
        oldest: now,
      });
    });

    test("collectGarbage takes unused teams with their creator, then principals that belong to nothing", async () => {
      const team = (ref: string, creator: string, createdAt: number) => ({
        team_ref: ref,
        team_name: ref,
        secret_digest: "d",
        creator_principal_ref: creator,
        offered_to_principal_ref: null,
        offer_expires_at: null,
        created_at: createdAt,
      });
      const member = (teamRef: string, principalRef: string) => ({
        team_ref: teamRef,
        principal_ref: principalRef,
        human_label: null,
        status: "active" as const,
        joined_at: 10,
        updated_at: 10,
      });
      await store.transact(async (tx) => {
        for (const p of ["p-lone", "p-lone-new", "p-u1", "p-u2", "p-used", "p-joiner"]) {
          await tx.insertPrincipal({
            principal_ref: p,
            token_digest: `digest-${p}`,
            created_at: p === "p-lone-new" ? 500 : 10,
          });
        }
        // t-unused: only its creator, never a session → collected with its creator.
        await tx.insertTeam(team("t-unused", "p-u1", 10));
        await tx.putMembership(member("t-unused", "p-u1"));
        // An invitation nobody used does not keep a team: it goes with the team.
        await tx.insertInvitation({
          invitation_id: "i-unused",
          team_ref: "t-unused",
          secret_digest: "digest-i-unused",
          created_by: "p-u1",
          max_uses: 1,
          uses: 0,
          created_at: 10,
          expires_at: Number.MAX_SAFE_INTEGER,
          last_used_at: null,
          revoked_at: null,
        });
        // t-young: unused but younger than the bound → kept.
        await tx.insertTeam(team("t-young", "p-u2", 500));
        await tx.putMembership(member("t-young", "p-u2"));
        // t-marked: marked used (its session may since have been collected) → kept.
        await tx.insertTeam(team("t-marked", "p-used", 10));
        await tx.putMembership(member("t-marked", "p-used"));
        await tx.markTeamUsed("t-marked", 20);
        // t-joined: a second member, even one that left → kept (never relies on the mark alone).
        await tx.insertTeam(team("t-joined", "p-used", 10));
        await tx.putMembership(member("t-joined", "p-used"));
        await tx.putMembership({ ...member("t-joined", "p-joiner"), status: "left" });
      });
      const bounds = {
        ackedBefore: 0,
        unackedCreatedBefore: 0,
        sessionOfflineBefore: 0,
        joinFailuresBefore: 0,
        invitationEndedBefore: 0,
        unusedTeamCreatedBefore: 100,
        unusedPrincipalCreatedBefore: 100,
        limit: 100,
      };
      const counts = await store.transact((tx) => tx.collectGarbage(bounds));
      expect(counts).toMatchObject({ teams: 1, principals: 3 });
      const kept = await store.transact(async (tx) => ({
        teams: await Promise.all(
          ["t-unused", "t-young", "t-marked", "t-joined", "t-1"].map(
            async (t) => (await tx.getTeam(t)) !== null,
          ),
        ),
        principals: await Promise.all(
          ["p-lone", "p-lone-new", "p-u1", "p-u2", "p-used", "p-joiner", "p-a", "p-c"].map(
            async (p) => (await tx.principalByTokenDigest(`digest-${p}`)) !== null,
          ),
        ),
        creatorMembership: await tx.getMembership("t-unused", "p-u1"),
        invitation: await tx.getInvitation("t-unused", "i-unused"),
      }));
      expect(kept.teams).toEqual([false, true, true, true, true]);
      // p-c (seeded at time 1, member of nothing) goes too; p-a is the seed team's member.
      expect(kept.principals).toEqual([false, true, false, true, true, true, true, false]);
      expect(kept.creatorMembership).toBeNull();
      expect(kept.invitation).toBeNull();
    });

    test("teamsCreatedSince counts the teams a principal created inside the window", async () => {
      await store.transact(async (tx) => {
        for (const [ref, at] of [
          ["t-2", 100],
          ["t-3", 200],
        ] as const) {
          await tx.insertTeam({
            team_ref: ref,
            team_name: ref,
            secret_digest: "d",
            creator_principal_ref: "p-b",
            offered_to_principal_ref: null,
            offer_expires_at: null,
            created_at: at,
          });
        }
      });
      expect(await store.transact((tx) => tx.teamsCreatedSince("p-b", 0))).toEqual({
        count: 2,
        oldest: 100,
      });
      expect(await store.transact((tx) => tx.teamsCreatedSince("p-b", 100))).toEqual({
        count: 1,
        oldest: 200,
      });
      expect(await store.transact((tx) => tx.teamsCreatedSince("p-c", 0))).toEqual({
        count: 0,
        oldest: null,
      });
    });

    test("sentMessages: newest first or by id, own messages only, with the recipient's end", async () => {
      await store.transact(async (tx) => {
        await tx.insertMessage(message("m-1", { created_at: 10, summary: "first" }));
        await tx.insertMessage(message("m-2", { created_at: 20 }));
        await tx.insertMessage(
          message("m-3", { sender_session_id: "s-b", recipient_session_id: "s-a", created_at: 30 }),
        );
      });
      const latest = await store.transact((tx) => tx.sentMessages("s-a", { limit: 5 }));
      expect(latest.map((r) => r.message_id)).toEqual(["m-2", "m-1"]);
      expect(latest[1]).toEqual({
        message_id: "m-1",
        recipient_session_id: "s-b",
        sent_to_session_id: null,
        summary: "first",
        created_at: 10,
        acked_at: null,
        disposition: null,
        disposition_at: null,
        released_at: null,
        recipient_closed_at: null,
        recipient_lease_until: 1_090_000,
        attachments: null,
      });
      expect(
        (await store.transact((tx) => tx.sentMessages("s-a", { limit: 1 }))).map(
          (r) => r.message_id,
        ),
      ).toEqual(["m-2"]);
      const byId = await store.transact((tx) =>
        tx.sentMessages("s-a", { messageIds: ["m-3", "m-1", "m-none", "m-1"] }),
      );
      expect(byId.map((r) => r.message_id)).toEqual(["m-1"]);
    });

    test("sentByPrincipal: the principal's messages in the team, from every sender id, newest first", async () => {
      await store.transact(async (tx) => {
        await tx.insertMessage(message("m-1", { created_at: 10 }));
        await tx.insertMessage(message("m-2", { sender_session_id: "p-a", created_at: 30 }));
        await tx.insertMessage(
          message("m-3", {
            sender_principal_ref: "p-b",
            sender_session_id: "s-b",
            recipient_session_id: "s-a",
            created_at: 20,
          }),
        );
        await tx.insertMessage(message("m-4", { team_ref: "t-other", created_at: 40 }));
      });
      const rows = await store.transact((tx) => tx.sentByPrincipal("t-1", "p-a", 5));
      expect(rows.map((r) => [r.message_id, r.sender_session_id])).toEqual([
        ["m-2", "p-a"],
        ["m-1", "s-a"],
      ]);
      expect(rows[1]).toMatchObject({ recipient_session_id: "s-b", acked_at: null });
      expect(
        (await store.transact((tx) => tx.sentByPrincipal("t-1", "p-a", 1))).map(
          (r) => r.message_id,
        ),
      ).toEqual(["m-2"]);
    });

    test("setDisposition: only unacked messages addressed to the session; the time of the first report", async () => {
      await store.transact(async (tx) => {
        await tx.insertMessage(message("m-1"));
        await tx.insertMessage(message("m-2", { acked_at: 5 }));
      });
      const set = (id: string, to: string, d: "held" | "refused", at: number) =>
        store.transact((tx) => tx.setDisposition(id, to, d, at));
      expect(await set("m-1", "s-a", "held", 100)).toBe(false);
      expect(await set("m-2", "s-b", "held", 100)).toBe(false);
      expect(await set("m-none", "s-b", "held", 100)).toBe(false);
      expect(await set("m-1", "s-b", "held", 100)).toBe(true);
      expect(await set("m-1", "s-b", "held", 200)).toBe(true);
      let row = (await store.transact((tx) => tx.sentMessages("s-a", { messageIds: ["m-1"] })))[0];
      expect([row?.disposition, row?.disposition_at]).toEqual(["held", 100]);
      expect(await set("m-1", "s-b", "refused", 300)).toBe(true);
      row = (await store.transact((tx) => tx.sentMessages("s-a", { messageIds: ["m-1"] })))[0];
      expect([row?.disposition, row?.disposition_at]).toEqual(["refused", 300]);
      const m2 = (await store.transact((tx) => tx.sentMessages("s-a", { messageIds: ["m-2"] })))[0];
      expect(m2?.disposition).toBeNull();
    });

    test("adoptMessages: the oldest unacked, up to the limit, re-addressed and held", async () => {
      await store.transact(async (tx) => {
        await tx.insertSession(session("s-b2", { principal_ref: "p-b", created_at: 1_000_002 }));
        await tx.insertMessage(message("m-1", { created_at: 10 }));
        await tx.insertMessage(message("m-2", { created_at: 20, acked_at: 25 }));
        await tx.insertMessage(message("m-3", { created_at: 30 }));
        await tx.insertMessage(message("m-4", { created_at: 40 }));
      });
      const moved = await store.transact((tx) => tx.adoptMessages("s-b", "s-b2", 500, 2));
      expect(moved.map((r) => [r.message_id, r.recipient_session_id])).toEqual([
        ["m-1", "s-b2"],
        ["m-3", "s-b2"],
      ]);
      const rows = await store.transact((tx) =>
        tx.sentMessages("s-a", { messageIds: ["m-1", "m-2", "m-4"] }),
      );
      expect(
        rows.map((r) => [
          r.message_id,
          r.recipient_session_id,
          r.sent_to_session_id,
          r.disposition,
        ]),
      ).toEqual([
        ["m-1", "s-b2", "s-b", "held"],
        ["m-2", "s-b", null, null],
        ["m-4", "s-b", null, null],
      ]);
      expect(await store.transact((tx) => tx.unackedFor("s-b2"))).toBe(2);
      expect(await store.transact((tx) => tx.ackMessage("m-1", "s-b2", 600))).toBe(true);
      // A second move keeps the first recipient.
      await store.transact(async (tx) => {
        await tx.insertSession(session("s-b3", { principal_ref: "p-b", created_at: 1_000_003 }));
      });
      const again = await store.transact((tx) => tx.adoptMessages("s-b2", "s-b3", 700, 10));
      expect(again.map((r) => r.message_id)).toEqual(["m-3"]);
      const m3 = (await store.transact((tx) => tx.sentMessages("s-a", { messageIds: ["m-3"] })))[0];
      expect([m3?.recipient_session_id, m3?.sent_to_session_id]).toEqual(["s-b3", "s-b"]);
    });
    test("insertMessage with a state: a copied report, move and release read back as they were", async () => {
      await store.transact(async (tx) => {
        await tx.insertSession(session("s-b2", { principal_ref: "p-b", created_at: 1_000_002 }));
        await tx.insertMessage(message("m-1", { recipient_session_id: "s-b2" }), {
          sent_to_session_id: "s-b",
          disposition: "held",
          disposition_at: 40,
          released_at: 45,
        });
        await tx.insertMessage(message("m-2", { acked_at: 60 }), {
          sent_to_session_id: null,
          disposition: "refused",
          disposition_at: 50,
          released_at: null,
        });
        // A release the recipient's person made, with no other state (what a copy may meet).
        await tx.insertMessage(message("m-3"), {
          sent_to_session_id: null,
          disposition: null,
          disposition_at: null,
          released_at: 55,
        });
      });
      const rows = await store.transact((tx) =>
        tx.sentMessages("s-a", { messageIds: ["m-1", "m-2", "m-3"] }),
      );
      expect(
        rows.map((r) => [
          r.recipient_session_id,
          r.sent_to_session_id,
          r.disposition_at,
          r.released_at,
          r.acked_at,
        ]),
      ).toEqual([
        ["s-b2", "s-b", 40, 45, null],
        ["s-b", null, 50, null, 60],
        ["s-b", null, null, 55, null],
      ]);
      // The released, unacknowledged messages are what the recipient's heartbeat is told.
      expect(await store.transact((tx) => tx.releasedFor("s-b2", 10))).toEqual(["m-1"]);
      expect(await store.transact((tx) => tx.releasedFor("s-b", 10))).toEqual(["m-3"]);
      expect(await store.transact((tx) => tx.unackedFor("s-b2"))).toBe(1);
      expect(await store.transact((tx) => tx.ackMessage("m-1", "s-b2", 70))).toBe(true);
    });
    registerSendContract(() => store);
    registerFetchContract(() => store);
    registerAckContract(() => store);
    registerBlobContract(() => store);
    registerDashboardContract(() => store);

    test("transact after close rejects", async () => {
      const other = await factory();
      await other.close();
      await expect(other.transact((tx) => tx.getTeam("t-1"))).rejects.toThrow();
    });
  });
}
