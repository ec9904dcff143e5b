import { expect, test } from "vitest";
import { SEND_LIMITS, sendInTx } from "./send-in-tx.ts";
import type { MessageRow, SendCommand, SendOutcome, SessionRow, Store } from "./store.ts";
import { contractMessage } from "./store-contract-rows.ts";

const MINUTE = 60_000;
let ids = 0;

/**
 * Sends through the store's own `sendMessage` when it has one, else through the path the service
 * takes without it (one `transact` unit over `sendInTx` at the wall clock): the answers must be
 * the same, which is what these cases hold every store to.
 */
export function sendThrough(
  store: Store,
  command: Partial<SendCommand> = {},
): Promise<SendOutcome> {
  ids += 1;
  const full: SendCommand = {
    principalRef: "p-a",
    teamRef: "t-1",
    senderSessionId: "s-a",
    recipientSessionId: "s-b",
    body: "hello",
    summary: null,
    replyTo: null,
    idempotencyKey: null,
    messageId: `m-sent-${ids}`,
    limits: SEND_LIMITS,
    now: Date.now(),
    ...command,
  };
  if (store.sendMessage !== undefined) return store.sendMessage(full);
  return store.transact((tx) => sendInTx(tx, full));
}

const stored = (id: string, overrides: Partial<MessageRow>): MessageRow =>
  contractMessage(id, { body: "seeded", created_at: Date.now() - 1000, ...overrides });

async function seedMessages(store: Store, rows: MessageRow[]): Promise<void> {
  await store.transact(async (tx) => {
    for (const row of rows) await tx.insertMessage(row);
  });
}

function refusal(outcome: SendOutcome): unknown {
  if (outcome.ok) return { accepted: outcome.message.message_id };
  const { ok: _ok, ...rest } = outcome;
  return rest;
}

/**
 * The `message send` cases of the store contract (docs/spec/protocol.md §6.16), registered inside
 * `registerStoreContract`'s describe block. `current()` is the test's seeded store: principals
 * p-a, p-b (active members of t-1, p-a labelled "dana") and p-c (no membership); sessions s-a
 * (p-a) and s-b (p-b). Times are the wall clock's, since a store may use its database's clock.
 */
export function registerSendContract(current: () => Store): void {
  test("send: stores the message with the sender's stamps and lists it unacked", async () => {
    const store = current();
    const before = Date.now();
    const outcome = await sendThrough(store, { summary: "s", messageId: "m-new" });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.duplicate).toBe(false);
    expect(outcome.message.message_id).toBe("m-new");
    expect(outcome.message.hop_count).toBe(0);
    expect(outcome.message.recipient_session_id).toBe("s-b");
    // Generous: the database's clock may differ a little from this process's.
    expect(Math.abs(outcome.message.created_at - before)).toBeLessThan(MINUTE);
    const row = await store.transact((tx) => tx.getMessage("m-new"));
    expect(row).toMatchObject({
      sender_principal_ref: "p-a",
      sender_session_name: "name-s-a",
      sender_human_label: "dana",
      summary: "s",
      body: "hello",
      acked_at: null,
      created_at: outcome.message.created_at,
    });
    const inbox = await store.transact((tx) => tx.listUnacked("s-b", 10));
    expect(inbox.map((m) => m.message_id)).toEqual(["m-new"]);
  });

  test("send: membership, sender, closed sender and recipient are checked in that order", async () => {
    const store = current();
    await store.transact(async (tx) => {
      await tx.insertPrincipal({ principal_ref: "p-x", token_digest: "digest-p-x", created_at: 1 });
      await tx.insertTeam({
        team_ref: "t-2",
        team_name: "other",
        secret_digest: "d",
        creator_principal_ref: "p-x",
        offered_to_principal_ref: null,
        offer_expires_at: null,
        created_at: 1,
      });
      await tx.putMembership({
        team_ref: "t-2",
        principal_ref: "p-x",
        human_label: null,
        status: "active",
        joined_at: 1,
        updated_at: 1,
      });
      const foreign: SessionRow = {
        ...((await tx.getSession("s-b")) as SessionRow),
        session_id: "s-foreign",
        team_ref: "t-2",
        principal_ref: "p-x",
      };
      await tx.insertSession(foreign);
    });
    const cases: Array<[Partial<SendCommand>, string]> = [
      [{ principalRef: "p-c" }, "unauthorized"],
      [{ teamRef: "t-none" }, "unauthorized"],
      [{ senderSessionId: "s-none", recipientSessionId: "s-none" }, "not_found"],
      [{ senderSessionId: "s-b" }, "not_found"],
      [{ recipientSessionId: "s-foreign" }, "not_found"],
      [{ recipientSessionId: "s-none" }, "not_found"],
      [{ recipientSessionId: "s-a" }, "accepted"],
    ];
    for (const [command, expected] of cases) {
      const outcome = await sendThrough(store, command);
      expect(outcome.ok ? "accepted" : outcome.refusal).toBe(expected);
    }
    await store.transact(async (tx) => {
      const s = (await tx.getSession("s-a")) as SessionRow;
      await tx.updateSession({ ...s, closed_at: 5 });
    });
    // A closed sender is refused before the unknown recipient is looked at.
    expect(refusal(await sendThrough(store, { recipientSessionId: "s-none" }))).toEqual({
      refusal: "session_closed",
    });
    await store.transact((tx) =>
      tx.putMembership({
        team_ref: "t-1",
        principal_ref: "p-a",
        human_label: "dana",
        status: "left",
        joined_at: 1,
        updated_at: 9,
      }),
    );
    expect(refusal(await sendThrough(store))).toEqual({ refusal: "unauthorized" });
  });

  test("send: a session whose owner left or was removed answers as one that does not exist", async () => {
    const store = current();
    expect(refusal(await sendThrough(store, { messageId: "m-before" }))).toEqual({
      accepted: "m-before",
    });
    for (const status of ["left", "revoked", "active"] as const) {
      await store.transact((tx) =>
        tx.putMembership({
          team_ref: "t-1",
          principal_ref: "p-b",
          human_label: null,
          status,
          joined_at: 1,
          updated_at: 9,
        }),
      );
      const outcome = await sendThrough(store);
      expect(outcome.ok ? "accepted" : outcome.refusal, status).toBe(
        status === "active" ? "accepted" : "not_found",
      );
    }
    // What was sent before stays addressed to the session.
    expect((await store.transact((tx) => tx.getMessage("m-before")))?.recipient_session_id).toBe(
      "s-b",
    );
  });

  test("send: an idempotency key replays the original and refuses a different request", async () => {
    const store = current();
    const first = await sendThrough(store, { idempotencyKey: "k", summary: "", messageId: "m-k" });
    if (!first.ok) throw new Error("first send refused");
    // An absent summary and an empty one have the same fingerprint.
    const again = await sendThrough(store, { idempotencyKey: "k", summary: null });
    expect(again).toEqual({ ok: true, duplicate: true, message: first.message });
    expect(refusal(await sendThrough(store, { idempotencyKey: "k", body: "other" }))).toEqual({
      refusal: "idempotency_key_reused",
    });
    expect(
      refusal(await sendThrough(store, { idempotencyKey: "k", recipientSessionId: "s-a" })),
    ).toEqual({ refusal: "idempotency_key_reused" });
    // The key is the sender session's: another sender may use it.
    const other = await sendThrough(store, {
      principalRef: "p-b",
      senderSessionId: "s-b",
      recipientSessionId: "s-a",
      idempotencyKey: "k",
    });
    expect(other.ok && !other.duplicate).toBe(true);
    expect(await store.transact((tx) => tx.unackedFor("s-b"))).toBe(1);
  });

  test("send: hop counts follow reply_to and the implicit reply, and stop past the cap", async () => {
    const store = current();
    await seedMessages(store, [
      stored("m-to-a", {
        sender_principal_ref: "p-b",
        sender_session_id: "s-b",
        recipient_session_id: "s-a",
        hop_count: 4,
      }),
      stored("m-deep", {
        sender_principal_ref: "p-b",
        sender_session_id: "s-b",
        recipient_session_id: "s-a",
        hop_count: 32,
        created_at: Date.now() - 20 * MINUTE,
      }),
      stored("m-to-b", { hop_count: 1 }),
    ]);
    const reply = await sendThrough(store, { replyTo: "m-to-a" });
    expect(reply.ok && reply.message.hop_count).toBe(5);
    // The implicit reply: the latest s-b → s-a message inside 600 s is m-to-a (hop 4).
    const implicit = await sendThrough(store);
    expect(implicit.ok && implicit.message.hop_count).toBe(5);
    // A parent not addressed to the sender, or unknown, is not_found.
    expect(refusal(await sendThrough(store, { replyTo: "m-to-b" }))).toEqual({
      refusal: "not_found",
    });
    expect(refusal(await sendThrough(store, { replyTo: "m-none" }))).toEqual({
      refusal: "not_found",
    });
    expect(refusal(await sendThrough(store, { replyTo: "m-deep" }))).toEqual({
      refusal: "loop_detected",
    });
  });

  test("send: an adopted message is its adopting session's to reply to; its replay is refused", async () => {
    const store = current();
    await seedMessages(store, [stored("m-moved", { hop_count: 3, idempotency_key: "k-moved" })]);
    await store.transact(async (tx) => {
      const b = await tx.getSession("s-b");
      if (b === null) throw new Error("the seeded session is missing");
      await tx.insertSession({ ...b, session_id: "s-b2", created_at: b.created_at + 1 });
      await tx.adoptMessages("s-b", "s-b2", Date.now(), 10);
    });
    const fromB2 = { principalRef: "p-b", senderSessionId: "s-b2", recipientSessionId: "s-a" };
    // The implicit reply: the latest s-a → s-b2 message is the adopted one (hop 3).
    const implicit = await sendThrough(store, fromB2);
    expect(implicit.ok && implicit.message.hop_count).toBe(4);
    const reply = await sendThrough(store, { ...fromB2, replyTo: "m-moved" });
    expect(reply.ok && reply.message.hop_count).toBe(4);
    const fromB = { ...fromB2, senderSessionId: "s-b", replyTo: "m-moved" };
    expect(refusal(await sendThrough(store, fromB))).toEqual({ refusal: "not_found" });
    // A replay now names another recipient than the message has.
    expect(
      refusal(await sendThrough(store, { idempotencyKey: "k-moved", body: "seeded" })),
    ).toEqual({ refusal: "idempotency_key_reused" });
    expect(await store.transact((tx) => tx.unackedFromTo("s-a", "s-b2"))).toBe(1);
    expect(await store.transact((tx) => tx.ackMessage("m-moved", "s-b", 1))).toBe(false);
    expect(await store.transact((tx) => tx.ackMessage("m-moved", "s-b2", 1))).toBe(true);
  });

  test("send: the four windows, then the pair cap before the inbox cap", async () => {
    const store = current();
    const now = Date.now();
    await seedMessages(
      store,
      Array.from({ length: 20 }, (_, i) =>
        stored(`m-w${i}`, {
          created_at: now - 30_000 + i,
          acked_at: i % 2 === 0 ? now - 100 : null,
          recipient_session_id: i < 15 ? "s-b" : "s-a",
        }),
      ),
    );
    const perMinute = await sendThrough(store);
    expect(refusal(perMinute)).toMatchObject({
      refusal: "rate_limited",
      reason: "send_per_minute",
    });
    if (perMinute.ok || perMinute.refusal !== "rate_limited") return;
    // Until the oldest counted message (now − 30 s) leaves the minute window.
    expect(perMinute.retryAfterMs).toBeGreaterThan(30_000 - MINUTE / 2);
    expect(perMinute.retryAfterMs).toBeLessThanOrEqual(30_000 + 1000);

    // Another session of the same principal: the session windows are clear, the pair is not.
    await store.transact(async (tx) => {
      const s = (await tx.getSession("s-a")) as SessionRow;
      await tx.insertSession({ ...s, session_id: "s-a2", session_name: "second" });
    });
    await seedMessages(
      store,
      Array.from({ length: 15 }, (_, i) =>
        stored(`m-p${i}`, { sender_session_id: "s-a2", created_at: now - 10 * MINUTE }),
      ),
    );
    expect(refusal(await sendThrough(store, { senderSessionId: "s-a2" }))).toEqual({
      refusal: "rate_limited",
      reason: "sender_quota_for_recipient",
      retryAfterMs: SEND_LIMITS.capRetryAfterMs,
    });
    // Fill the recipient past its cap from elsewhere: the pair cap still answers first.
    await seedMessages(
      store,
      Array.from({ length: 60 }, (_, i) =>
        stored(`m-i${i}`, {
          sender_session_id: "s-elsewhere",
          sender_principal_ref: "p-b",
          created_at: now - 20 * MINUTE,
        }),
      ),
    );
    expect(refusal(await sendThrough(store, { senderSessionId: "s-a2" }))).toMatchObject({
      reason: "sender_quota_for_recipient",
    });
    expect(
      refusal(
        await sendThrough(store, {
          senderSessionId: "s-a2",
          recipientSessionId: "s-b",
          principalRef: "p-a",
          body: "x",
        }),
      ),
    ).toMatchObject({ reason: "sender_quota_for_recipient" });
    // p-b's own session s-b sending to itself: no pair messages, a full inbox.
    expect(
      refusal(
        await sendThrough(store, {
          principalRef: "p-b",
          senderSessionId: "s-b",
          recipientSessionId: "s-b",
        }),
      ),
    ).toEqual({
      refusal: "rate_limited",
      reason: "recipient_inbox_full",
      retryAfterMs: SEND_LIMITS.capRetryAfterMs,
    });
  });

  test("send: the principal windows count every session of the principal", async () => {
    const store = current();
    const now = Date.now();
    await seedMessages(
      store,
      Array.from({ length: 60 }, (_, i) =>
        stored(`m-pp${i}`, {
          sender_session_id: `s-other-${i % 6}`,
          created_at: now - 40_000,
          acked_at: now - 1000,
        }),
      ),
    );
    expect(refusal(await sendThrough(store))).toMatchObject({
      refusal: "rate_limited",
      reason: "principal_per_minute",
    });
  });

  test("send: concurrent senders to one recipient stop at exactly the inbox cap", async () => {
    const store = current();
    await store.transact(async (tx) => {
      const s = (await tx.getSession("s-a")) as SessionRow;
      await tx.insertSession({ ...s, session_id: "s-r", session_name: "recipient" });
      await tx.insertSession({
        ...s,
        session_id: "s-b2",
        principal_ref: "p-b",
        session_name: "b2",
      });
    });
    const cap = SEND_LIMITS.inboxCap;
    await seedMessages(
      store,
      Array.from({ length: cap - 8 }, (_, i) =>
        stored(`m-f${i}`, { sender_session_id: "s-elsewhere", recipient_session_id: "s-r" }),
      ),
    );
    const senders: Array<Partial<SendCommand>> = [
      { principalRef: "p-a", senderSessionId: "s-a" },
      { principalRef: "p-b", senderSessionId: "s-b" },
      { principalRef: "p-b", senderSessionId: "s-b2" },
    ];
    const outcomes = await Promise.all(
      Array.from({ length: 18 }, (_, i) =>
        sendThrough(store, { ...senders[i % 3], recipientSessionId: "s-r", body: `n${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(8);
    for (const o of outcomes.filter((x) => !x.ok)) {
      expect(refusal(o)).toMatchObject({ reason: "recipient_inbox_full" });
    }
    expect(await store.transact((tx) => tx.unackedFor("s-r"))).toBe(cap);
  });

  test("send: NUL, control and astral characters round-trip in every text field", async () => {
    const store = current();
    const hostile = "a\u0000b\u0001c\u00010\u0000\u0000 \u202e 𝔘 é e\u0301 \u{10ffff}";
    await store.transact(async (tx) => {
      const s = (await tx.getSession("s-a")) as SessionRow;
      await tx.updateSession({ ...s, session_name: hostile, session_description: hostile });
    });
    const outcome = await sendThrough(store, {
      body: hostile,
      summary: hostile,
      idempotencyKey: hostile,
      messageId: "m-hostile",
    });
    expect(outcome.ok).toBe(true);
    const row = await store.transact((tx) => tx.getMessage("m-hostile"));
    expect(row).toMatchObject({
      body: hostile,
      summary: hostile,
      sender_session_name: hostile,
      idempotency_key: hostile,
    });
    expect((await store.transact((tx) => tx.getSession("s-a")))?.session_description).toBe(hostile);
    // Strings that differ only where the escaping works stay different.
    const replay = await sendThrough(store, {
      body: hostile,
      summary: hostile,
      idempotencyKey: hostile,
    });
    expect(replay.ok && replay.duplicate).toBe(true);
    const near = "a\u00010b\u0001c\u00010\u0000\u0000 \u202e 𝔘 é e\u0301 \u{10ffff}";
    expect(
      refusal(await sendThrough(store, { body: near, summary: hostile, idempotencyKey: hostile })),
    ).toEqual({ refusal: "idempotency_key_reused" });
    // A NUL in an id is just an unknown id.
    expect(await store.transact((tx) => tx.getSession("s-a\u0000"))).toBeNull();
    expect(refusal(await sendThrough(store, { recipientSessionId: "s-b\u0000" }))).toEqual({
      refusal: "not_found",
    });
    expect(await store.transact((tx) => tx.principalByTokenDigest("\u0000"))).toBeNull();
  });

  test("send: a 16 KiB body of multi-byte text is stored whole", async () => {
    const store = current();
    const body = "é𝔘\u0000".repeat(16_384 / 7);
    const outcome = await sendThrough(store, { body, messageId: "m-big" });
    expect(outcome.ok).toBe(true);
    expect((await store.transact((tx) => tx.getMessage("m-big")))?.body).toBe(body);
  });
}
