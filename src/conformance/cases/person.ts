import { type ConformanceCase, defineCase } from "../case.ts";
import type { Call, Principal, SuiteContext } from "../context.ts";
import { ack, newSession, randomId, receive, sendOk } from "../operations.ts";
import { detail, expectInvalid, freshMember, principalRef } from "./helpers.ts";

/**
 * The cases of a person's messages **[ours]** (capability `message.person`, docs/20-protocol.md
 * "A person's messages"): a member writes to a session as a person, from no session; the server
 * stamps the sender. They run only when the adapter advertises the capability.
 */

/** `message person-send` as `p` with `request` on stdin. */
function personSend(
  ctx: SuiteContext,
  p: Principal,
  request: Record<string, unknown>,
): Promise<Call> {
  return ctx.call(p, ["message", "person-send"], { stdin: request });
}

/** `message person-sent` as `p`; returns its messages. */
async function personSent(ctx: SuiteContext, p: Principal): Promise<Record<string, unknown>[]> {
  const result = ctx.ok(await ctx.call(p, ["message", "person-sent"]), "message person-sent");
  if (!Array.isArray(result.messages)) ctx.fail("message person-sent: messages is not an array");
  return result.messages as Record<string, unknown>[];
}

const C90 = defineCase(
  "C-90",
  "[ours] message person-send: the recipient's envelope names the caller's principal as a person (sender.kind person, session_id its principal_ref, session_name empty), hop 0",
  ["message.person"],
  async (ctx, fx) => {
    const a = await freshMember(ctx, fx, "c90-a");
    const b = await freshMember(ctx, fx, "c90-b");
    const to = await newSession(ctx, b, ctx.unique("c90-b"));
    const body = `c90 ${randomId("")}`;
    const sent = ctx.ok(
      await personSend(ctx, a, { recipient_session_id: to, body, summary: "c90" }),
      "person-send",
    );
    ctx.check(sent.status === "accepted" && sent.hop_count === 0, "not accepted at hop 0");
    const got = (await receive(ctx, b, to)).find((m) => m.body === body);
    if (got === undefined) return ctx.fail("the person's message did not arrive");
    const sender = (got.sender ?? {}) as Record<string, unknown>;
    const ref = await principalRef(ctx, a);
    ctx.check(sender.kind === "person", "sender.kind is not person");
    ctx.check(sender.principal_ref === ref, "sender.principal_ref is not the caller's");
    ctx.check(sender.session_id === ref, "sender.session_id is not the caller's principal_ref");
    ctx.check(sender.session_name === "", "sender.session_name is not empty");
    ctx.check(got.hop_count === 0, "hop_count is not 0");
    // A session's message carries no kind.
    const from = await newSession(ctx, a, ctx.unique("c90-a"));
    const plain = `c90 plain ${randomId("")}`;
    await sendOk(ctx, a, from, to, plain);
    const session = (await receive(ctx, b, to)).find((m) => m.body === plain);
    ctx.check(
      (session?.sender as Record<string, unknown> | undefined)?.kind === undefined,
      "a session's message carries a sender.kind",
    );
  },
);

const C91 = defineCase(
  "C-91",
  "[ours] message person-send names no session and answers nothing: sender_session_id, reply_to and the stamped members are 3 forbidden_member; a person cannot be messaged (its id as recipient is 6 identical to an unknown session)",
  ["message.person"],
  async (ctx, fx) => {
    const a = await freshMember(ctx, fx, "c91-a");
    const b = await freshMember(ctx, fx, "c91-b");
    const to = await newSession(ctx, b, ctx.unique("c91-b"));
    const from = await newSession(ctx, b, ctx.unique("c91-b2"));
    for (const [name, value] of [
      ["sender_session_id", from],
      ["reply_to", "m-c91"],
      ["sender", null],
      ["hop_count", 0],
    ] as const) {
      const call = await personSend(ctx, a, {
        recipient_session_id: to,
        body: "c91",
        [name]: value,
      });
      expectInvalid(ctx, call, name, `person-send with ${name}`);
      ctx.check(detail(call, "reason") === "forbidden_member", `${name}: not forbidden_member`);
    }
    ctx.check((await receive(ctx, b, to)).length === 0, "a refused person-send was stored");
    const person = await principalRef(ctx, a);
    const toPerson = await ctx.call(b, ["message", "send"], {
      stdin: { sender_session_id: from, recipient_session_id: person, body: "c91" },
    });
    const random = await ctx.call(b, ["message", "send"], {
      stdin: { sender_session_id: from, recipient_session_id: randomId("p-"), body: "c91" },
    });
    ctx.expectError(toPerson, "not_found", 6, "send to a person");
    ctx.expectIdentical(toPerson, random, "send to a person");
  },
);

const C92 = defineCase(
  "C-92",
  "[ours] message person-send: another team's session is 6 identical to an unknown one; a principal outside the team is refused and nothing is stored",
  ["message.person"],
  async (ctx, fx) => {
    const a = await freshMember(ctx, fx, "c92-a");
    const foreign = await personSend(ctx, a, { recipient_session_id: fx.sessionC, body: "c92" });
    const random = await personSend(ctx, a, { recipient_session_id: randomId("s-"), body: "c92" });
    ctx.expectError(foreign, "not_found", 6, "person-send to another team");
    ctx.expectIdentical(foreign, random, "person-send to another team");
    const stranger = ctx.freshPrincipal("c92-x");
    const outsider = await personSend(ctx, stranger, {
      recipient_session_id: fx.sessionB,
      body: "c92",
    });
    ctx.check(outsider.exit !== 0, "a principal outside the team wrote to one of its sessions");
    ctx.check(
      (await receive(ctx, fx.c, fx.sessionC)).every((m) => m.body !== "c92"),
      "stored",
    );
  },
);

const C93 = defineCase(
  "C-93",
  "[ours] message person-sent: the caller's messages as a person and from its sessions, newest first, with states; never another member's",
  ["message.person"],
  async (ctx, fx) => {
    const a = await freshMember(ctx, fx, "c93-a");
    const b = await freshMember(ctx, fx, "c93-b");
    const to = await newSession(ctx, b, ctx.unique("c93-b"));
    const from = await newSession(ctx, a, ctx.unique("c93-a"));
    const bySession = (await sendOk(ctx, a, from, to, "c93 session")).message_id as string;
    const byPerson = ctx.ok(
      await personSend(ctx, a, { recipient_session_id: to, body: "c93 person" }),
      "person-send",
    ).message_id as string;
    await ack(ctx, b, to, [byPerson]);
    ctx.ok(await personSend(ctx, b, { recipient_session_id: from, body: "c93 b" }), "b writes");
    const listed = await personSent(ctx, a);
    const ids = listed.map((m) => m.message_id);
    ctx.check(
      JSON.stringify(ids) === JSON.stringify([byPerson, bySession]),
      "not exactly the caller's two messages, newest first",
    );
    const person = listed.find((m) => m.message_id === byPerson);
    const session = listed.find((m) => m.message_id === bySession);
    ctx.check(person?.sender === "person" && person.state === "acked", "the person's message");
    ctx.check(
      session?.sender === "session" &&
        session.sender_session_id === from &&
        session.state === "accepted",
      "the session's message",
    );
    ctx.check(
      listed.every((m) => !("body" in m)),
      "a listing carries a body",
    );
  },
);

const C94 = defineCase(
  "C-94",
  "[ours] message person-send idempotency is the person's: the same key and payload is a duplicate with the same id; another body is 7 idempotency_key_reused",
  ["message.person"],
  async (ctx, fx) => {
    const a = await freshMember(ctx, fx, "c94-a");
    const b = await freshMember(ctx, fx, "c94-b");
    const to = await newSession(ctx, b, ctx.unique("c94-b"));
    const key = randomId("k-");
    const request = { recipient_session_id: to, body: "c94", idempotency_key: key };
    const first = ctx.ok(await personSend(ctx, a, request), "first");
    const again = ctx.ok(await personSend(ctx, a, request), "replay");
    ctx.check(
      again.duplicate === true && again.message_id === first.message_id,
      "a replay is not the same message",
    );
    const other = await personSend(ctx, a, { ...request, body: "c94 other" });
    if (ctx.expectError(other, "conflict", 7, "same key, other body")) {
      ctx.check(detail(other, "reason") === "idempotency_key_reused", "not idempotency_key_reused");
    }
    ctx.check((await receive(ctx, b, to)).length === 1, "not exactly one message stored");
  },
);

/** The person cases, in id order. */
export const PERSON_CASES: readonly ConformanceCase[] = [C90, C91, C92, C93, C94];
