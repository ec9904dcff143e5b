import { expect, test } from "vitest";
import { ackInTx } from "./ack-in-tx.ts";
import type { AckCommand, AckOutcome, MessageRow, Store } from "./store.ts";
import { contractMessage } from "./store-contract-rows.ts";

/**
 * Acknowledges through the store's own `ackMessages` when it has one, else through the path the
 * service takes without it (one `transact` unit over `ackInTx`): the answers must be the same.
 */
export function ackThrough(store: Store, command: Partial<AckCommand>): Promise<AckOutcome> {
  const full: AckCommand = {
    principalRef: "p-b",
    teamRef: "t-1",
    sessionId: "s-b",
    messageIds: [],
    at: 5_000_000,
    ...command,
  };
  if (store.ackMessages !== undefined) return store.ackMessages(full);
  return store.transact((tx) => ackInTx(tx, full));
}

const row = (id: string, overrides: Partial<MessageRow> = {}): MessageRow =>
  contractMessage(id, { body: "ack me", ...overrides });

/**
 * The cases of `message ack` (`Store.ackMessages`, or `ackInTx` without it), registered inside
 * `registerStoreContract`'s describe block on its seeded store: p-a and p-b active in t-1 with
 * sessions s-a (p-a) and s-b (p-b), p-c a member of nothing.
 */
export function registerAckContract(current: () => Store): void {
  test("ack: the ids addressed to the owned session are acked, in order, the rest unknown", async () => {
    const store = current();
    await store.transact(async (tx) => {
      for (const id of ["m-1", "m-2", "m-before"]) await tx.insertMessage(row(id));
      await tx.insertMessage(row("m-other", { recipient_session_id: "s-a" }));
    });
    expect(await ackThrough(store, { messageIds: ["m-before"], at: 4_000_000 })).toEqual({
      ok: true,
      acked: ["m-before"],
      unknown: [],
    });
    expect(
      await ackThrough(store, {
        messageIds: ["m-2", "m-none", "m-before", "m-other", "m-1", "m-\u0000"],
      }),
    ).toEqual({
      ok: true,
      acked: ["m-2", "m-before", "m-1"],
      unknown: ["m-none", "m-other", "m-\u0000"],
    });
    const acked = await store.transact(async (tx) =>
      Promise.all(["m-1", "m-before", "m-other"].map((id) => tx.getMessage(id))),
    );
    expect(acked.map((m) => m?.acked_at)).toEqual([5_000_000, 4_000_000, null]);
    expect(await store.transact((tx) => tx.unackedFor("s-b"))).toBe(0);
    expect(await store.transact((tx) => tx.unackedFor("s-a"))).toBe(1);
    expect(await ackThrough(store, { messageIds: [] })).toEqual({
      ok: true,
      acked: [],
      unknown: [],
    });
  });

  test("ack: a non-member is unauthorized, a foreign session not_found, and nothing is acked", async () => {
    const store = current();
    await store.transact(async (tx) => {
      await tx.insertMessage(row("m-1"));
    });
    const ack = (command: Partial<AckCommand>) =>
      ackThrough(store, { messageIds: ["m-1"], ...command });
    expect(await ack({ principalRef: "p-c", sessionId: "s-b" })).toEqual({
      ok: false,
      refusal: "unauthorized",
    });
    expect(await ack({ teamRef: "t-none" })).toEqual({ ok: false, refusal: "unauthorized" });
    expect(await ack({ principalRef: "p-a", sessionId: "s-b" })).toEqual({
      ok: false,
      refusal: "not_found",
    });
    expect(await ack({ sessionId: "s-none" })).toEqual({ ok: false, refusal: "not_found" });
    expect(await store.transact((tx) => tx.unackedFor("s-b"))).toBe(1);
    expect((await store.transact((tx) => tx.getMessage("m-1")))?.acked_at).toBeNull();
  });
}
