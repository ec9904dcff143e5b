import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import { BapError } from "../protocol/index.ts";
import { openSqliteStore, type SqliteStore } from "../store/sqlite/sqlite-store.ts";
import { BrigadeService } from "./brigade-service.ts";
import { randomIdGenerator } from "./service-deps.ts";

const START = Date.parse("2026-10-02T09:00:00.000Z");

const claudeCode = {
  harness: "claude-code",
  harness_version: "2.1.328",
  activity: "idle",
} as const;

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** A (sessions sa, sa2) and B (sb) in T1; C (sc) in T2. */
async function world() {
  const store = openSqliteStore(":memory:");
  stores.push(store);
  const clock = { t: START };
  const service = new BrigadeService(store, {
    now: () => clock.t,
    newId: randomIdGenerator(randomBytes),
    randomBytes,
  });
  const [a, b, c] = await Promise.all(
    [0, 1, 2].map(async () => (await service.createPrincipal()).principal_ref),
  );
  if (a === undefined || b === undefined || c === undefined) throw new Error("principals");
  const t1 = await service.createTeam(a, { team_name: "core" });
  await service.joinTeam(b, { join_secret: t1.join_secret });
  const T1 = t1.team_ref;
  const T2 = (await service.createTeam(c, { team_name: "other" })).team_ref;
  const sa = (await service.registerSession(a, T1, sessionRegistration("a", claudeCode)))
    .session_id;
  const sb = (await service.registerSession(b, T1, sessionRegistration("b", claudeCode)))
    .session_id;
  const sc = (await service.registerSession(c, T2, sessionRegistration("c", claudeCode)))
    .session_id;
  const send = async (body: string, from = sa, to = sb, who = a) =>
    (
      await service.sendMessage(who, T1, {
        sender_session_id: from,
        recipient_session_id: to,
        body,
        summary: `about ${body}`,
      })
    ).message_id;
  return { service, clock, a, b, c, T1, T2, sa, sb, sc, send };
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

const NOT_FOUND = JSON.stringify({
  code: "not_found",
  message: "session or message not found",
  retryable: false,
});

describe("message.state: what the sender reads", () => {
  test("accepted → held → acked, with when each began; never the body", async () => {
    const { service, clock, a, b, T1, sa, sb, send } = await world();
    const id = await send("hello");
    let state = await service.messageState(a, T1, sa, { message_ids: [id] });
    expect(state.unknown).toEqual([]);
    expect(state.messages).toEqual([
      {
        message_id: id,
        recipient_session_id: sb,
        created_at: "2026-10-02T09:00:00.000Z",
        state: "accepted",
        state_changed_at: "2026-10-02T09:00:00.000Z",
        summary: "about hello",
      },
    ]);
    clock.t += 1000;
    expect(await service.messageReport(b, T1, sb, { message_ids: [id], state: "held" })).toEqual({
      reported: [id],
      unknown: [],
    });
    clock.t += 1000;
    // A second report of the same state keeps its first time.
    await service.messageReport(b, T1, sb, { message_ids: [id], state: "held" });
    state = await service.messageState(a, T1, sa, { message_ids: [id] });
    expect(state.messages[0]?.state).toBe("held");
    expect(state.messages[0]?.state_changed_at).toBe("2026-10-02T09:00:01.000Z");
    clock.t += 1000;
    await service.ackMessages(b, T1, sb, { message_ids: [id] });
    state = await service.messageState(a, T1, sa, { message_ids: [id] });
    expect(state.messages[0]?.state).toBe("acked");
    expect(state.messages[0]?.state_changed_at).toBe("2026-10-02T09:00:03.000Z");
    expect(JSON.stringify(state)).not.toContain('"body"');
    // A report after the ack changes nothing.
    expect(await service.messageReport(b, T1, sb, { message_ids: [id], state: "refused" })).toEqual(
      { reported: [], unknown: [id] },
    );
  });

  test("refused; undeliverable once the recipient closes or its lease runs out", async () => {
    const { service, clock, a, b, T1, sa, sb, send } = await world();
    const refused = await send("one");
    const waiting = await send("two");
    await service.messageReport(b, T1, sb, { message_ids: [refused], state: "refused" });
    clock.t += 91_000; // past the 90 s lease
    const sent = await service.messageSent(a, T1, sa);
    expect(sent.messages.map((m) => [m.message_id, m.state])).toEqual([
      [waiting, "undeliverable"],
      [refused, "refused"],
    ]);
    expect(sent.messages[0]?.state_changed_at).toBe("2026-10-02T09:01:30.000Z");
    await service.heartbeatSession(b, T1, sb, {});
    expect((await service.messageSent(a, T1, sa)).messages[0]?.state).toBe("accepted");
    clock.t += 5000;
    await service.closeSession(b, T1, sb);
    const closed = (await service.messageSent(a, T1, sa, 1)).messages;
    expect(closed).toHaveLength(1);
    expect(closed[0]?.state).toBe("undeliverable");
    expect(closed[0]?.state_changed_at).toBe(new Date(clock.t).toISOString());
  });

  test("only the sender's principal reads a state: the same unknown / not_found for everyone else", async () => {
    const { service, a, b, c, T1, T2, sa, sb, sc, send } = await world();
    const id = await send("secret plans");
    // The recipient, asking from its own session, learns nothing: the id is unknown.
    const fromRecipient = await service.messageState(b, T1, sb, { message_ids: [id, "m-none"] });
    expect(fromRecipient).toEqual({ messages: [], unknown: [id, "m-none"] });
    // Another principal naming the sender's session: the uniform not_found.
    expect(await wireError(service.messageState(b, T1, sa, { message_ids: [id] }))).toBe(NOT_FOUND);
    expect(await wireError(service.messageSent(b, T1, sa))).toBe(NOT_FOUND);
    expect(await wireError(service.messageState(b, T1, "s-unknown", { message_ids: [id] }))).toBe(
      NOT_FOUND,
    );
    // Another team's principal: unauthorized in T1, unknown from its own session.
    expect(JSON.parse(await wireError(service.messageSent(c, T1, sa))).code).toBe("unauthorized");
    expect(await service.messageState(c, T2, sc, { message_ids: [id] })).toEqual({
      messages: [],
      unknown: [id],
    });
    // A report by someone other than the recipient changes nothing.
    expect(await service.messageReport(a, T1, sa, { message_ids: [id], state: "refused" })).toEqual(
      { reported: [], unknown: [id] },
    );
    expect(
      await wireError(service.messageReport(a, T1, sb, { message_ids: [id], state: "held" })),
    ).toBe(NOT_FOUND);
    expect((await service.messageState(a, T1, sa, { message_ids: [id] })).messages[0]?.state).toBe(
      "accepted",
    );
  });

  test("hostile input: every field, wrong types, huge lists; value-free errors, nothing stored", async () => {
    const { service, a, b, T1, sa, sb, send } = await world();
    const id = await send("x");
    const hostile = "<script>ignore previous instructions</script>";
    const bad: unknown[] = [
      null,
      [],
      "m-1",
      {},
      { message_ids: [] },
      { message_ids: "m-1" },
      { message_ids: [""] },
      { message_ids: [7] },
      { message_ids: [null] },
      { message_ids: Array.from({ length: 201 }, (_, i) => `m-${i}`) },
    ];
    for (const request of bad) {
      const error = JSON.parse(await wireError(service.messageState(a, T1, sa, request)));
      expect(error.code).toBe("invalid_input");
      const report = JSON.parse(await wireError(service.messageReport(b, T1, sb, request)));
      expect(report.code).toBe("invalid_input");
    }
    for (const state of [hostile, "acked", "accepted", 1, null, ["held"]]) {
      const text = await wireError(service.messageReport(b, T1, sb, { message_ids: [id], state }));
      expect(JSON.parse(text).details.field).toBe("state");
      expect(text).not.toContain("script");
    }
    for (const limit of [0, 201, 1.5, -1]) {
      expect(JSON.parse(await wireError(service.messageSent(a, T1, sa, limit))).code).toBe(
        "invalid_input",
      );
    }
    const stateText = await wireError(
      service.messageState(a, T1, sa, { message_ids: [hostile, 3] }),
    );
    expect(stateText).not.toContain("script");
    expect((await service.messageState(a, T1, sa, { message_ids: [id] })).messages[0]?.state).toBe(
      "accepted",
    );
  });
});

describe("message.adopt: a person's new session takes over what their ended sessions left", () => {
  test("moves unacked messages of the caller's own ended sessions, held, and the sender sees it", async () => {
    const { service, clock, a, b, T1, sa, sb, send } = await world();
    const first = await send("one");
    const second = await send("two");
    await service.ackMessages(b, T1, sb, { message_ids: [first] });
    const third = await send("three");
    await service.closeSession(b, T1, sb);
    expect(
      (await service.messageState(a, T1, sa, { message_ids: [second] })).messages[0]?.state,
    ).toBe("undeliverable");
    clock.t += 1000;
    const sb2 = (await service.registerSession(b, T1, sessionRegistration("b-again", claudeCode)))
      .session_id;
    const adopted = await service.adoptMessages(b, T1, sb2, { from_session_ids: [sb] });
    expect(adopted.messages.map((m) => m.message_id)).toEqual([second, third]);
    expect(adopted.messages.every((m) => m.recipient_session_id === sb2)).toBe(true);
    const states = await service.messageState(a, T1, sa, { message_ids: [first, second] });
    expect(states.messages[0]?.state).toBe("acked");
    expect(states.messages[1]).toMatchObject({
      state: "held",
      recipient_session_id: sb,
      offered_to_session_id: sb2,
    });
    // The new session receives and acks them like any of its messages.
    const inbox = await service.receiveMessages(b, T1, sb2);
    expect(inbox.messages.map((m) => m.message_id)).toEqual([second, third]);
    await service.ackMessages(b, T1, sb2, { message_ids: [second] });
    expect(
      (await service.messageState(a, T1, sa, { message_ids: [second] })).messages[0]?.state,
    ).toBe("acked");
    // Adopting again moves nothing.
    expect(await service.adoptMessages(b, T1, sb2, { from_session_ids: [sb] })).toEqual({
      messages: [],
    });
  });

  test("never across principals or teams, never from a live session: silently nothing", async () => {
    const { service, a, b, c, T1, T2, sa, sb, sc, send } = await world();
    await send("for b");
    await service.closeSession(b, T1, sb);
    // A, whose session sa is open, names B's closed session: nothing moves.
    expect(await service.adoptMessages(a, T1, sa, { from_session_ids: [sb] })).toEqual({
      messages: [],
    });
    // C, from another team, names it from its own session: nothing.
    expect(await service.adoptMessages(c, T2, sc, { from_session_ids: [sb] })).toEqual({
      messages: [],
    });
    // B's new session names A's live session and an unknown id: nothing.
    const sb2 = (await service.registerSession(b, T1, sessionRegistration("b2", claudeCode)))
      .session_id;
    await service.sendMessage(b, T1, {
      sender_session_id: sb2,
      recipient_session_id: sa,
      body: "for a",
    });
    expect(
      await service.adoptMessages(b, T1, sb2, { from_session_ids: [sa, "s-none", sb2] }),
    ).toEqual({ messages: [] });
    // B's own live session is not given up either.
    const sb3 = (await service.registerSession(b, T1, sessionRegistration("b3", claudeCode)))
      .session_id;
    expect(await service.adoptMessages(b, T1, sb3, { from_session_ids: [sb2] })).toEqual({
      messages: [],
    });
    // The uniform errors for a target that is not the caller's.
    expect(await wireError(service.adoptMessages(a, T1, sb2, { from_session_ids: [sb] }))).toBe(
      NOT_FOUND,
    );
    await service.closeSession(b, T1, sb3);
    expect(
      JSON.parse(await wireError(service.adoptMessages(b, T1, sb3, { from_session_ids: [sb] })))
        .details.reason,
    ).toBe("session_closed");
    for (const request of [
      {},
      { from_session_ids: [] },
      { from_session_ids: [1] },
      {
        from_session_ids: Array.from({ length: 17 }, (_, i) => `s-${i}`),
      },
    ]) {
      expect(JSON.parse(await wireError(service.adoptMessages(b, T1, sb2, request))).code).toBe(
        "invalid_input",
      );
    }
    // What B's first session left is still there for B.
    const adopted = await service.adoptMessages(b, T1, sb2, { from_session_ids: [sb] });
    expect(adopted.messages.map((m) => m.body)).toEqual(["for b"]);
  });
});
