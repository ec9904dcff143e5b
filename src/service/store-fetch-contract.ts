import { expect, test } from "vitest";
import { fetchInTx } from "./fetch-in-tx.ts";
import type { FetchCommand, FetchOutcome, MessageRow, SessionRow, Store } from "./store.ts";
import { contractMessage, contractSession } from "./store-contract-rows.ts";

/**
 * Fetches through the store's own `fetchMessages` when it has one, else through the path the
 * service takes without it (one `transact` unit over `fetchInTx`): the answers must be the same.
 */
export function fetchThrough(store: Store, command: Partial<FetchCommand>): Promise<FetchOutcome> {
  const full: FetchCommand = {
    principalRef: "p-b",
    teamRef: "t-1",
    sessionId: "s-b",
    messageIds: [],
    ...command,
  };
  if (store.fetchMessages !== undefined) return store.fetchMessages(full);
  return store.transact((tx) => fetchInTx(tx, full));
}

const row = (id: string, overrides: Partial<MessageRow> = {}): MessageRow =>
  contractMessage(id, {
    sender_human_label: "dana",
    summary: "sum\u0000mary",
    body: `body of ${id} \u0000\u0001 ✓`,
    hop_count: 1,
    created_at: Date.now() - 1000,
    ...overrides,
  });

function sessionOf(id: string, principalRef: string, teamRef = "t-1"): SessionRow {
  const now = Date.now();
  return contractSession(id, {
    team_ref: teamRef,
    principal_ref: principalRef,
    session_name: id,
    harness: "test",
    harness_version: "1",
    lease_until: now + 90_000,
    last_seen_at: now,
    created_at: now,
  });
}

function ids(outcome: FetchOutcome): unknown {
  return outcome.ok ? outcome.messages.map((m) => m.message_id) : outcome;
}

/**
 * The cases of a watch's fetch (`Store.fetchMessages`, or `fetchInTx` without it), registered
 * inside `registerStoreContract`'s describe block on its seeded store: p-a and p-b active in t-1
 * with sessions s-a (p-a) and s-b (p-b), p-c a member of nothing.
 */
export function registerFetchContract(current: () => Store): void {
  test("fetch: the unacked messages of the owned session among the ids, in the ids' order", async () => {
    const store = current();
    await store.transact(async (tx) => {
      await tx.insertSession(sessionOf("s-b2", "p-b"));
      for (const id of ["m-1", "m-2", "m-3"]) await tx.insertMessage(row(id));
      await tx.insertMessage(row("m-acked"));
      await tx.insertMessage(row("m-other", { recipient_session_id: "s-a" }));
      await tx.insertMessage(row("m-moved"));
    });
    await store.transact(async (tx) => {
      expect(await tx.ackMessage("m-acked", "s-b", Date.now())).toBe(true);
    });
    const moved = await store.transact((tx) => tx.adoptMessages("s-b", "s-b2", Date.now(), 60));
    expect(moved.map((m) => m.message_id)).toContain("m-moved");
    // The adoption moved every unacked message of s-b to s-b2: they are s-b2's now, not s-b's.
    const outcome = await fetchThrough(store, {
      sessionId: "s-b2",
      messageIds: ["m-3", "m-unknown", "m-acked", "m-1", "m-other", "m-moved", "m-2"],
    });
    expect(ids(outcome)).toEqual(["m-3", "m-1", "m-moved", "m-2"]);
    if (!outcome.ok) return;
    const first = outcome.messages[1];
    expect(first).toEqual({
      ...row("m-1", { recipient_session_id: "s-b2" }),
      created_at: first?.created_at,
    });
    expect(ids(await fetchThrough(store, { messageIds: ["m-1", "m-moved"] }))).toEqual([]);
    expect(ids(await fetchThrough(store, { sessionId: "s-b2", messageIds: [] }))).toEqual([]);
  });

  test("fetch: a non-member is unauthorized before a foreign session is not_found", async () => {
    const store = current();
    await store.transact(async (tx) => {
      await tx.insertMessage(row("m-1"));
      await tx.insertTeam({
        team_ref: "t-2",
        team_name: "other",
        secret_digest: "d",
        creator_principal_ref: "p-b",
        offered_to_principal_ref: null,
        offer_expires_at: null,
        created_at: 1,
      });
      await tx.putMembership({
        team_ref: "t-2",
        principal_ref: "p-b",
        human_label: null,
        status: "active",
        joined_at: 1,
        updated_at: 1,
      });
      await tx.insertSession(sessionOf("s-b-t2", "p-b", "t-2"));
    });
    const unauthorized = { ok: false, refusal: "unauthorized" };
    const notFound = { ok: false, refusal: "not_found" };
    const fetch = (command: Partial<FetchCommand>) =>
      fetchThrough(store, { messageIds: ["m-1"], ...command });
    expect(await fetch({ principalRef: "p-c", sessionId: "s-a" })).toEqual(unauthorized);
    expect(await fetch({ teamRef: "t-none" })).toEqual(unauthorized);
    expect(await fetch({ principalRef: "p-a" })).toEqual(notFound);
    expect(await fetch({ sessionId: "s-none" })).toEqual(notFound);
    expect(await fetch({ sessionId: "s-b-t2" })).toEqual(notFound);
    expect(await fetch({ teamRef: "t-2", sessionId: "s-b" })).toEqual(notFound);
    const membership = await store.transact((tx) => tx.getMembership("t-1", "p-b"));
    if (membership === null) throw new Error("seeded membership missing");
    await store.transact((tx) => tx.putMembership({ ...membership, status: "left" }));
    expect(await fetch({})).toEqual(unauthorized);
  });
}
