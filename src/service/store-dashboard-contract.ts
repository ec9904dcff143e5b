import { expect, test } from "vitest";
import type { Store, WebLoginRow, WebSessionRow } from "./store.ts";
import { contractMessage, contractSession } from "./store-contract-rows.ts";

const login = (digest: string, overrides: Partial<WebLoginRow> = {}): WebLoginRow => ({
  login_digest: digest,
  principal_ref: "p-a",
  team_ref: "t-1",
  created_at: 1_000,
  expires_at: 301_000,
  used_at: null,
  ...overrides,
});

const webSession = (digest: string, overrides: Partial<WebSessionRow> = {}): WebSessionRow => ({
  session_digest: digest,
  principal_ref: "p-a",
  team_ref: "t-1",
  created_at: 1_000,
  expires_at: 50_000,
  ended_at: null,
  ...overrides,
});

/**
 * The dashboard's store cases (docs/52-dashboard.md), registered inside
 * `registerStoreContract`'s describe block on its seeded store: p-a and p-b active in t-1 with
 * sessions s-a (p-a) and s-b (p-b).
 */
export function registerDashboardContract(store: () => Store): void {
  test("dashboard: a login link is taken once, only before it expires, and old ones go", async () => {
    const s = store();
    await s.transact((tx) => tx.insertWebLogin(login("d-1")));
    await s.transact((tx) => tx.insertWebLogin(login("d-2")));
    expect(await s.transact((tx) => tx.useWebLogin("d-x", 2_000))).toBeNull();
    expect(await s.transact((tx) => tx.useWebLogin("d-1", 2_000))).toEqual(
      login("d-1", { used_at: 2_000 }),
    );
    expect(await s.transact((tx) => tx.useWebLogin("d-1", 2_001))).toBeNull();
    expect(await s.transact((tx) => tx.useWebLogin("d-2", 301_000))).toBeNull();
    expect(await s.transact((tx) => tx.webLoginsSince("p-a", 0))).toEqual({
      count: 2,
      oldest: 1_000,
    });
    // A link made after the others expired clears them: a person's links never pile up.
    await s.transact((tx) => tx.insertWebLogin(login("d-3", { created_at: 400_000 })));
    expect(await s.transact((tx) => tx.webLoginsSince("p-a", 0))).toEqual({
      count: 1,
      oldest: 400_000,
    });
  });

  test("dashboard: logins racing with one link: exactly one gets it", async () => {
    const s = store();
    await s.transact((tx) => tx.insertWebLogin(login("d-race")));
    const taken = await Promise.all(
      Array.from({ length: 8 }, (_, i) => s.transact((tx) => tx.useWebLogin("d-race", 2_000 + i))),
    );
    expect(taken.filter((row) => row !== null)).toHaveLength(1);
  });

  test("dashboard: a browser session is found by digest and ends once", async () => {
    const s = store();
    await s.transact((tx) => tx.insertWebSession(webSession("w-1")));
    expect(await s.transact((tx) => tx.getWebSession("w-1"))).toEqual(webSession("w-1"));
    expect(await s.transact((tx) => tx.getWebSession("w-x"))).toBeNull();
    await s.transact((tx) => tx.endWebSession("w-1", 5_000));
    await s.transact((tx) => tx.endWebSession("w-1", 6_000));
    expect((await s.transact((tx) => tx.getWebSession("w-1")))?.ended_at).toBe(5_000);
    // The next session of the person clears the ended and expired ones.
    await s.transact((tx) => tx.insertWebSession(webSession("w-2", { created_at: 60_000 })));
    expect(await s.transact((tx) => tx.getWebSession("w-1"))).toBeNull();
    expect(await s.transact((tx) => tx.getWebSession("w-2"))).not.toBeNull();
  });

  test("dashboard: a person's messages are those they sent or that reach their sessions", async () => {
    const s = store();
    await s.transact(async (tx) => {
      await tx.insertSession(contractSession("s-c", { principal_ref: "p-b" }));
      await tx.insertMessage(contractMessage("m-1", { body: "a to b", created_at: 1_000_001 }));
      await tx.insertMessage(
        contractMessage("m-2", {
          sender_principal_ref: "p-b",
          sender_session_id: "s-b",
          recipient_session_id: "s-a",
          body: "b to a",
          created_at: 1_000_002,
        }),
      );
      await tx.insertMessage(
        contractMessage("m-3", {
          sender_principal_ref: "p-b",
          sender_session_id: "s-b",
          recipient_session_id: "s-c",
          body: "b to b",
          created_at: 1_000_003,
        }),
      );
    });
    const of = async (p: string) =>
      (await s.transact((tx) => tx.personMessages("t-1", p, 10))).map((m) => [
        m.message_id,
        m.body,
        m.recipient_principal_ref,
        m.recipient_session_name,
      ]);
    expect(await of("p-a")).toEqual([
      ["m-2", "b to a", "p-a", "name-s-a"],
      ["m-1", "a to b", "p-b", "name-s-b"],
    ]);
    expect((await of("p-b")).map(([id]) => id)).toEqual(["m-3", "m-2", "m-1"]);
    expect(await of("p-c")).toEqual([]);
    expect(await s.transact((tx) => tx.personMessages("t-2", "p-a", 10))).toEqual([]);
    expect((await s.transact((tx) => tx.personMessages("t-1", "p-b", 2))).length).toBe(2);
  });

  test("dashboard: only a held, unacked message addressed to the session is released", async () => {
    const s = store();
    await s.transact(async (tx) => {
      await tx.insertMessage(contractMessage("m-held"));
      await tx.insertMessage(contractMessage("m-plain"));
      await tx.setDisposition("m-held", "s-b", "held", 1_500_000);
    });
    const release = (id: string, to: string, at: number) =>
      s.transact((tx) => tx.releaseMessage(id, to, at));
    expect(await release("m-plain", "s-b", 2_000_000)).toBe(false);
    expect(await release("m-held", "s-a", 2_000_000)).toBe(false);
    expect(await release("m-held", "s-b", 2_000_000)).toBe(true);
    expect(await release("m-held", "s-b", 3_000_000)).toBe(true);
    expect(await s.transact((tx) => tx.releasedFor("s-b", 10))).toEqual(["m-held"]);
    expect(await s.transact((tx) => tx.releasedFor("s-a", 10))).toEqual([]);
    const rows = await s.transact((tx) => tx.personMessages("t-1", "p-b", 10));
    const row = rows.find((m) => m.message_id === "m-held");
    expect([row?.message_id, row?.released_at, row?.disposition]).toEqual([
      "m-held",
      2_000_000,
      "held",
    ]);
    await s.transact((tx) => tx.ackMessage("m-held", "s-b", 4_000_000));
    expect(await s.transact((tx) => tx.releasedFor("s-b", 10))).toEqual([]);
    await s.transact((tx) => tx.setDisposition("m-plain", "s-b", "held", 1));
    await s.transact((tx) => tx.ackMessage("m-plain", "s-b", 4_000_000));
    expect(await release("m-plain", "s-b", 5_000_000)).toBe(false);
  });
}
