import pg from "pg";
import { afterAll, describe, expect, test, vi } from "vitest";
import { freshPostgresSchema } from "../../../test/support/postgres-schema.ts";
import { sessionRegistration } from "../../../test/support/session-registration.ts";
import { until } from "../../../test/support/until.ts";
import { BrigadeService } from "../../service/brigade-service.ts";
import type { MembershipRow, MessageRow, SessionRow, Store, StoreTx } from "../../service/store.ts";
import { registerStoreContract } from "../../service/store-contract.ts";
import { contractSession } from "../../service/store-contract-rows.ts";
import { sendThrough } from "../../service/store-send-contract.ts";
import { ACK_STATEMENT } from "./postgres-ack.ts";
import { FETCH_STATEMENT } from "./postgres-fetch.ts";
import { openPostgresStore } from "./postgres-store.ts";

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

registerStoreContract("postgres", async () => {
  const schema = await freshPostgresSchema("contract");
  drops.push(schema.drop);
  return openPostgresStore(schema.url);
});

describe("PostgresTx: adoption and sends share the recipient's lock", () => {
  test("sends racing an adoption into one inbox never pass the inbox cap", async () => {
    const schema = await freshPostgresSchema("adopt");
    drops.push(schema.drop);
    const store = await openPostgresStore(schema.url);
    try {
      const session = (id: string, principal: string): SessionRow =>
        contractSession(id, {
          principal_ref: principal,
          session_name: id,
          harness: "test",
          harness_version: "1",
          lease_until: Date.now() + 90_000,
          last_seen_at: Date.now(),
          created_at: Date.now(),
        });
      const message = (id: string, from: string, to: string): MessageRow => ({
        message_id: id,
        team_ref: "t-1",
        sender_principal_ref: from === "s-a" ? "p-a" : "p-c",
        sender_session_id: from,
        sender_session_name: from,
        sender_human_label: null,
        recipient_session_id: to,
        summary: null,
        body: "b",
        reply_to: null,
        hop_count: 0,
        created_at: Date.now() - 2 * 3_600_000,
        acked_at: null,
        idempotency_key: null,
      });
      await store.transact(async (tx) => {
        for (const p of ["p-a", "p-b", "p-c"]) {
          await tx.insertPrincipal({ principal_ref: p, token_digest: `d-${p}`, created_at: 1 });
        }
        await tx.insertTeam({
          team_ref: "t-1",
          team_name: "core",
          secret_digest: "d",
          creator_principal_ref: "p-a",
          offered_to_principal_ref: null,
          offer_expires_at: null,
          created_at: 1,
        });
        for (const p of ["p-a", "p-b", "p-c"]) {
          await tx.putMembership({
            team_ref: "t-1",
            principal_ref: p,
            human_label: null,
            status: "active",
            joined_at: 1,
            updated_at: 1,
          });
        }
        await tx.insertSession(session("s-a", "p-a"));
        await tx.insertSession(session("s-c", "p-c"));
        await tx.insertSession({ ...session("s-old", "p-b"), closed_at: 1 });
        await tx.insertSession(session("s-new", "p-b"));
        // 58 in the new session's inbox from five senders (each under the pair cap), sent two hours
        // ago (outside every send window).
        for (let i = 0; i < 58; i++) {
          await tx.insertMessage(message(`m-${i}`, `s-fill-${i % 5}`, "s-new"));
        }
        for (let i = 0; i < 5; i++) await tx.insertMessage(message(`m-old-${i}`, "s-a", "s-old"));
      });
      const sends: Promise<unknown>[] = [];
      await store.transact(async (tx) => {
        const room = 60 - (await tx.unackedFor("s-new"));
        // Two sends into the room this unit counted, while it holds it.
        for (const id of ["m-race-1", "m-race-2"]) {
          sends.push(
            sendThrough(store, {
              principalRef: "p-c",
              senderSessionId: "s-c",
              recipientSessionId: "s-new",
              messageId: id,
            }),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.adoptMessages("s-old", "s-new", Date.now(), room);
      });
      const outcomes = await Promise.all(sends);
      // Both were refused for the full inbox, not for an earlier limit.
      expect(outcomes).toMatchObject([
        { ok: false, reason: "recipient_inbox_full" },
        { ok: false, reason: "recipient_inbox_full" },
      ]);
      expect(await store.transact((tx) => tx.unackedFor("s-new"))).toBe(60);
    } finally {
      await store.close();
    }
  });
});

describe("PostgresStore: a watch's fetch and ack", () => {
  test("answers a watch's fetch with one prepared statement on one connection", async () => {
    const schema = await freshPostgresSchema("fetch");
    drops.push(schema.drop);
    const store = await openPostgresStore(schema.url, { poolMax: 1 });
    const query = vi.spyOn(pg.Client.prototype, "query");
    try {
      query.mockClear();
      const outcome = await store.fetchMessages({
        principalRef: "p-none",
        teamRef: "t-none",
        sessionId: "s-none",
        messageIds: ["m-1", "m-2"],
      });
      expect(outcome).toEqual({ ok: false, refusal: "unauthorized" });
      expect(query).toHaveBeenCalledTimes(1);
      expect(query.mock.calls[0]?.[0]).toMatchObject({ name: FETCH_STATEMENT });
    } finally {
      query.mockRestore();
      await store.close();
    }
  });

  test("answers an ack with one prepared statement on one connection", async () => {
    const schema = await freshPostgresSchema("ack");
    drops.push(schema.drop);
    const store = await openPostgresStore(schema.url, { poolMax: 1 });
    const query = vi.spyOn(pg.Client.prototype, "query");
    try {
      query.mockClear();
      const outcome = await store.ackMessages({
        principalRef: "p-none",
        teamRef: "t-none",
        sessionId: "s-none",
        messageIds: ["m-1"],
        at: 1,
      });
      expect(outcome).toEqual({ ok: false, refusal: "unauthorized" });
      expect(query).toHaveBeenCalledTimes(1);
      expect(query.mock.calls[0]?.[0]).toMatchObject({ name: ACK_STATEMENT });
    } finally {
      query.mockRestore();
      await store.close();
    }
  });
});

/**
 * A store whose units pause, once armed, right before the first write `pauses` picks (a method
 * name of `StoreTx` and its first argument): the unit has read everything it decides on and holds
 * what it holds. `release` lets it go on.
 */
function pausingStore(inner: Store, pauses: (method: string, row: unknown) => boolean) {
  let armed = false;
  let reached = false;
  let release = (): void => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pausing = (tx: StoreTx): StoreTx =>
    new Proxy(tx, {
      get: (target, name) => {
        const value: unknown = Reflect.get(target, name, target);
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (armed && typeof name === "string" && pauses(name, args[0])) {
            armed = false;
            reached = true;
            await gate;
          }
          return value.apply(target, args);
        };
      },
    });
  const store: Store = new Proxy(inner, {
    get(target, property) {
      if (property === "transact") {
        return <T>(unit: (tx: StoreTx) => Promise<T>) => target.transact((tx) => unit(pausing(tx)));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    store,
    arm: () => {
      armed = true;
    },
    reached: () => reached,
    release,
  };
}

describe("PostgresTx: a team's membership changes are serialized", () => {
  test.each(["join", "leave", "register"] as const)(
    "a revocation racing the member's %s is never lost",
    async (verb) => {
      const schema = await freshPostgresSchema("revoke_race");
      drops.push(schema.drop);
      const inner = await openPostgresStore(schema.url);
      const watcher = new pg.Client({ connectionString: schema.url });
      await watcher.connect();
      try {
        const setup = new BrigadeService(inner);
        const creator = (await setup.createPrincipal()).principal_ref;
        const member = (await setup.createPrincipal()).principal_ref;
        const team = await setup.createTeam(creator, { team_name: "core" });
        await setup.joinTeam(member, { join_secret: team.join_secret });
        const paused = pausingStore(
          inner,
          (method, row) =>
            method === "putMembership" &&
            (row as MembershipRow).principal_ref === member &&
            (row as MembershipRow).status !== "revoked",
        );
        const service = new BrigadeService(paused.store);

        paused.arm();
        const racing =
          verb === "join"
            ? service.joinTeam(member, { join_secret: team.join_secret })
            : verb === "leave"
              ? service.leaveTeam(member, team.team_ref)
              : service.registerSession(member, team.team_ref, {
                  ...sessionRegistration("m"),
                  human_label: "m@example.org",
                });
        const settledRace = racing.then(
          () => "done",
          () => "refused",
        );
        await until("the member's unit to pause before its write", () => paused.reached());
        let revoked = false;
        const revoking = service
          .revokeMember(creator, team.team_ref, { principal_ref: member })
          .finally(() => {
            revoked = true;
          });
        // The revocation either finishes while the member's unit is paused (the two are not
        // ordered, and the paused write then lands over it) or waits for it on a lock, which is
        // the order this test asks for.
        await until("the revocation to finish or to wait for a lock", async () => {
          if (revoked) return true;
          const waiting = await watcher.query(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          return (waiting.rowCount ?? 0) > 0;
        });
        paused.release();
        await settledRace;
        await revoking;

        const stored = await inner.transact((tx) => tx.getMembership(team.team_ref, member));
        expect(stored?.status).toBe("revoked");
        await expect(
          setup.joinTeam(member, { join_secret: team.join_secret }),
        ).rejects.toMatchObject({ code: "unauthorized" });
      } finally {
        await watcher.end();
        await inner.close();
      }
    },
  );
});

describe("PostgresTx: the retention sweep and a join to an unused team", () => {
  test("a sweep that meets a join on its way leaves the team; the join succeeds", async () => {
    const schema = await freshPostgresSchema("sweep_race");
    drops.push(schema.drop);
    const inner = await openPostgresStore(schema.url);
    try {
      const setup = new BrigadeService(inner);
      const creator = (await setup.createPrincipal()).principal_ref;
      const member = (await setup.createPrincipal()).principal_ref;
      const team = await setup.createTeam(creator, { team_name: "fresh" });
      const paused = pausingStore(
        inner,
        (method, row) =>
          method === "putMembership" && (row as MembershipRow).principal_ref === member,
      );
      const service = new BrigadeService(paused.store);

      paused.arm();
      const joining = service.joinTeam(member, { join_secret: team.join_secret }).then(
        () => "joined",
        (error: unknown) => (error as { code?: string }).code,
      );
      await until("the join to pause before its write", () => paused.reached());
      // Every bound but the unused team's keeps its rows: only the team is a candidate.
      const swept = await inner.transact((tx) =>
        tx.collectGarbage({
          ackedBefore: 0,
          unackedCreatedBefore: 0,
          sessionOfflineBefore: 0,
          joinFailuresBefore: 0,
          invitationEndedBefore: 0,
          unusedTeamCreatedBefore: Number.MAX_SAFE_INTEGER,
          unusedPrincipalCreatedBefore: 0,
          limit: 100,
        }),
      );
      paused.release();

      expect(swept.teams).toBe(0);
      expect(await joining).toBe("joined");
      const stored = await inner.transact((tx) => tx.getMembership(team.team_ref, member));
      expect(stored?.status).toBe("active");
    } finally {
      await inner.close();
    }
  });
});

describe("PostgresTx: a closed session stays closed", () => {
  test.each(["close", "revoke"] as const)(
    "a heartbeat in flight while a %s runs does not reopen the session",
    async (ending) => {
      const schema = await freshPostgresSchema("close_race");
      drops.push(schema.drop);
      const inner = await openPostgresStore(schema.url);
      try {
        const setup = new BrigadeService(inner);
        const creator = (await setup.createPrincipal()).principal_ref;
        const member = (await setup.createPrincipal()).principal_ref;
        const team = await setup.createTeam(creator, { team_name: "core" });
        await setup.joinTeam(member, { join_secret: team.join_secret });
        const session = (
          await setup.registerSession(member, team.team_ref, sessionRegistration("m"))
        ).session_id;
        const paused = pausingStore(
          inner,
          (method, row) =>
            method.startsWith("update") &&
            method.endsWith("Session") &&
            (row as SessionRow).session_id === session &&
            (row as SessionRow).closed_at === null,
        );
        const service = new BrigadeService(paused.store);

        paused.arm();
        const beat = service
          .heartbeatSession(member, team.team_ref, session, { activity: "busy" })
          .then(
            () => "accepted",
            (error: unknown) => (error as { code?: string }).code,
          );
        await until("the heartbeat to pause before its write", () => paused.reached());
        const ended =
          ending === "close"
            ? service.closeSession(member, team.team_ref, session)
            : service.revokeMember(creator, team.team_ref, { principal_ref: member });
        // The heartbeat holds the session row's lock from its read (StoreTx.lockSessionRow): the
        // close waits for it and commits after it; without the lock it commits first and the
        // open-only write must refuse the heartbeat.
        await Promise.race([ended, new Promise((r) => setTimeout(r, 1_000))]);
        paused.release();
        await ended;

        expect(["accepted", "conflict"]).toContain(await beat);
        const stored = await inner.transact((tx) => tx.getSession(session));
        expect(stored?.closed_at).not.toBeNull();
      } finally {
        await inner.close();
      }
    },
  );
});
