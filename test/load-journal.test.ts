import { describe, expect, test } from "vitest";
import type { CallOutcome } from "./support/load-client.ts";
import {
  checkInvariants,
  type DatabaseView,
  Journal,
  type LoadWorld,
  type StoredMessage,
} from "./support/load-journal.ts";

const world: LoadWorld = {
  teamRef: "t-1",
  owner: "owner",
  recipients: ["s-r"],
  senders: [{ token: "tok", session: "s-a" }],
};

const ok = (id: string): CallOutcome => ({ kind: "ok", result: { message_id: id } });
const row = (id: string, key: string, acked = false): StoredMessage => ({
  message_id: id,
  sender_session_id: "s-a",
  recipient_session_id: "s-r",
  idempotency_key: key,
  acked,
});
const view = (rows: StoredMessage[]): DatabaseView => ({ messagesFrom: async () => rows });

/** A journal with m-1 (acked), m-2 (pending) accepted under keys k-1 and k-2. */
function journal(): Journal {
  const j = new Journal();
  j.sends.push({ sender: "s-a", recipient: "s-r", key: "k-1", body: "1", outcomes: [ok("m-1")] });
  j.sends.push({
    sender: "s-a",
    recipient: "s-r",
    key: "k-2",
    body: "2",
    outcomes: [{ kind: "unknown" }, ok("m-2")],
  });
  j.ackAttempted.add("m-1");
  j.ackConfirmed.add("m-1");
  return j;
}
const healthy = [row("m-1", "k-1", true), row("m-2", "k-2")];

describe("checkInvariants: each violation is caught", () => {
  test("a healthy run has none", async () => {
    expect(await checkInvariants(journal(), new Set(["m-2"]), view(healthy), world)).toEqual([]);
  });

  test("an accepted message missing from the database or from its inbox", async () => {
    expect(
      await checkInvariants(
        journal(),
        new Set(["m-2"]),
        view([healthy[0] as StoredMessage]),
        world,
      ),
    ).toEqual(["accepted message lost from the database: m-2"]);
    expect(await checkInvariants(journal(), new Set(), view(healthy), world)).toEqual([
      "accepted, never acked, missing from its inbox: m-2",
    ]);
  });

  test("an acknowledged message that comes back", async () => {
    expect(await checkInvariants(journal(), new Set(["m-1", "m-2"]), view(healthy), world)).toEqual(
      ["acknowledged message returned again: m-1"],
    );
    const j = journal();
    j.returnedAfterAck.push("m-1");
    expect(await checkInvariants(j, new Set(["m-2"]), view(healthy), world)).toEqual([
      "acknowledged message returned by a later receive: m-1",
    ]);
    expect(
      await checkInvariants(
        journal(),
        new Set(["m-2"]),
        view([row("m-1", "k-1"), healthy[1] as StoredMessage]),
        world,
      ),
    ).toEqual(["acknowledged message unacked in the database: m-1"]);
  });

  test("one key answered with two ids, stored twice, or a message nobody accepted", async () => {
    const j = journal();
    j.sends.push({ sender: "s-a", recipient: "s-r", key: "k-2", body: "2", outcomes: [ok("m-3")] });
    const twice = [...healthy, row("m-3", "k-2")];
    expect(await checkInvariants(j, new Set(["m-2", "m-3"]), view(twice), world)).toEqual([
      "one key, several message ids: s-a/k-2 → m-2 m-3",
      "key stored 2 times: s-a/k-2",
    ]);
    expect(
      await checkInvariants(
        journal(),
        new Set(["m-2"]),
        view([...healthy, row("m-9", "k-9")]),
        world,
      ),
    ).toEqual(["stored message no client had accepted: m-9"]);
  });

  test("an inbox over or under its cap", async () => {
    const cap = { recipient: "s-r", limit: 2 };
    expect(await checkInvariants(journal(), new Set(["m-2"]), view(healthy), world, cap)).toEqual([
      "recipient holds 1 unacked messages, cap 2",
    ]);
  });
});
