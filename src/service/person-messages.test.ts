import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import { BapError, validateMessageEnvelope } from "../protocol/index.ts";
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

/** A (session sa) and B (session sb) in T1; C (sc) in T2. */
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
  const t1 = await service.createTeam(a, { team_name: "core", human_label: "Dana" });
  await service.joinTeam(b, { join_secret: t1.join_secret, human_label: "Lee" });
  const T1 = t1.team_ref;
  const T2 = (await service.createTeam(c, { team_name: "other" })).team_ref;
  const reg = (p: string, t: string, name: string) =>
    service.registerSession(p, t, sessionRegistration(name, claudeCode));
  const sa = (await reg(a, T1, "a")).session_id;
  const sb = (await reg(b, T1, "b")).session_id;
  const sc = (await reg(c, T2, "c")).session_id;
  return { service, clock, a, b, c, T1, T2, sa, sb, sc };
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

describe("message.person: a person's message", () => {
  test("is stamped as a person's (principal, label, kind), reaches the session, hop 0", async () => {
    const { service, a, T1, sb, b } = await world();
    const sent = await service.personSend(a, T1, {
      recipient_session_id: sb,
      body: "Please pause the deploy.",
      summary: "pause",
    });
    expect(sent).toMatchObject({ status: "accepted", duplicate: false, hop_count: 0 });
    const [envelope] = (await service.receiveMessages(b, T1, sb, 10)).messages;
    expect(envelope?.sender).toEqual({
      principal_ref: a,
      human_label: "Dana",
      session_id: a,
      session_name: "",
      kind: "person",
    });
    // The wire form validates, and keeps the mark.
    const parsed = validateMessageEnvelope(JSON.parse(JSON.stringify(envelope)));
    expect(parsed.ok && parsed.value.sender.kind).toBe("person");
  });

  test("a session's message carries no kind", async () => {
    const { service, a, b, T1, sa, sb } = await world();
    await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "x",
    });
    const [envelope] = (await service.receiveMessages(b, T1, sb, 10)).messages;
    expect(envelope?.sender.kind).toBeUndefined();
  });

  test("names no session and answers nothing: sender_session_id and reply_to are forbidden", async () => {
    const { service, a, T1, sa, sb } = await world();
    for (const extra of [{ sender_session_id: sa }, { reply_to: "m-1" }, { sender: null }]) {
      const error = await wireError(
        service.personSend(a, T1, { recipient_session_id: sb, body: "x", ...extra }),
      );
      expect(error).toMatchObject({
        code: "invalid_input",
        details: { field: Object.keys(extra)[0], reason: "forbidden_member" },
      });
    }
  });

  test("another team's session, an unknown one, and a stranger get the uniform answers", async () => {
    const { service, a, c, T1, sc } = await world();
    const notFound = await wireError(
      service.personSend(a, T1, { recipient_session_id: sc, body: "x" }),
    );
    expect(notFound.code).toBe("not_found");
    const unknown = await wireError(
      service.personSend(a, T1, { recipient_session_id: "s-none", body: "x" }),
    );
    expect(unknown).toEqual(notFound);
    const stranger = await wireError(
      service.personSend(c, T1, { recipient_session_id: "s-none", body: "x" }),
    );
    expect(stranger.code).toBe("unauthorized");
  });

  test("an idempotency key is the person's: a replay is a duplicate, another body a conflict", async () => {
    const { service, a, T1, sb } = await world();
    const first = await service.personSend(a, T1, {
      recipient_session_id: sb,
      body: "x",
      idempotency_key: "k",
    });
    const again = await service.personSend(a, T1, {
      recipient_session_id: sb,
      body: "x",
      idempotency_key: "k",
    });
    expect(again).toMatchObject({ duplicate: true, message_id: first.message_id });
    const other = await wireError(
      service.personSend(a, T1, { recipient_session_id: sb, body: "y", idempotency_key: "k" }),
    );
    expect(other).toMatchObject({
      code: "conflict",
      details: { reason: "idempotency_key_reused" },
    });
  });

  test("the pair cap counts the person as one sender: 15 unacknowledged, then rate_limited", async () => {
    const { service, clock, a, T1, sb } = await world();
    for (let i = 0; i < 15; i++) {
      clock.t += 5_000;
      await service.personSend(a, T1, { recipient_session_id: sb, body: `m${i}` });
    }
    clock.t += 5_000;
    const error = await wireError(
      service.personSend(a, T1, { recipient_session_id: sb, body: "x" }),
    );
    expect(error).toMatchObject({
      code: "rate_limited",
      details: { reason: "sender_quota_for_recipient" },
    });
  });

  test("person-sent lists the principal's messages, as a person and from its sessions, with states", async () => {
    const { service, clock, a, b, T1, sa, sb } = await world();
    const fromSession = await service.sendMessage(a, T1, {
      sender_session_id: sa,
      recipient_session_id: sb,
      body: "from the session",
    });
    clock.t += 1000;
    const fromPerson = await service.personSend(a, T1, { recipient_session_id: sb, body: "me" });
    await service.ackMessages(b, T1, sb, { message_ids: [fromPerson.message_id] });
    // B's own messages never show in A's listing.
    await service.personSend(b, T1, { recipient_session_id: sa, body: "lee" });
    const listed = await service.personSent(a, T1, 10);
    expect(
      listed.messages.map((m) => [m.message_id, m.sender, m.sender_session_id, m.state]),
    ).toEqual([
      [fromPerson.message_id, "person", undefined, "acked"],
      [fromSession.message_id, "session", sa, "accepted"],
    ]);
    expect(JSON.stringify(listed)).not.toContain("from the session");
    expect((await service.personSent(a, T1, 1)).messages).toHaveLength(1);
    expect((await wireError(service.personSent(a, T1, 0))).code).toBe("invalid_input");
  });
});
