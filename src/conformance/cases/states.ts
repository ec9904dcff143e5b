import { type ConformanceCase, defineCase } from "../case.ts";
import type { Call, Principal, SuiteContext } from "../context.ts";
import { ack, newSession, randomId, sendOk } from "../operations.ts";
import { expectInvalid, freshMember } from "./helpers.ts";

/**
 * The message-state cases **[ours]**: `message.state` and `message.adopt` are Brigade's
 * extensions to the registry (docs/20-protocol.md, "Message states"), so the original case list
 * of docs/spec/protocol.md §12.5 has none for them. They run only when the adapter advertises the
 * capability.
 */

/** `message state --session <session>` as `p` for `ids`. */
function stateCall(
  ctx: SuiteContext,
  p: Principal,
  session: string,
  ids: readonly unknown[],
): Promise<Call> {
  return ctx.call(p, ["message", "state", "--session", session], { stdin: { message_ids: ids } });
}

/** The state `p`'s session `session` reads for message `id`, or `"unknown"`. */
async function stateOf(
  ctx: SuiteContext,
  p: Principal,
  session: string,
  id: string,
): Promise<string> {
  const result = ctx.ok(await stateCall(ctx, p, session, [id]), "message state");
  const messages = Array.isArray(result.messages) ? (result.messages as { state?: unknown }[]) : [];
  const unknown = Array.isArray(result.unknown) ? (result.unknown as unknown[]) : [];
  if (unknown.includes(id)) return "unknown";
  return String(messages[0]?.state);
}

/** `message report --session <session>` as `p`. */
function report(
  ctx: SuiteContext,
  p: Principal,
  session: string,
  ids: readonly string[],
  state: unknown,
): Promise<Call> {
  return ctx.call(p, ["message", "report", "--session", session], {
    stdin: { message_ids: ids, state },
  });
}

const C51 = defineCase(
  "C-51",
  "[ours] message state/sent/report: accepted → held → acked, refused, undeliverable once the recipient closes; only the sender's principal reads a state (others: unknown, or 6 identical to an unknown session)",
  ["message.state"],
  async (ctx, fx) => {
    const a = await freshMember(ctx, fx, "c51-a");
    const b = await freshMember(ctx, fx, "c51-b");
    const from = await newSession(ctx, a, ctx.unique("c51-a"));
    const to = await newSession(ctx, b, ctx.unique("c51-b"));
    const id = (await sendOk(ctx, a, from, to, "c51 one")).message_id as string;
    const other = (await sendOk(ctx, a, from, to, "c51 two")).message_id as string;
    const stranger = randomId("m-");
    const first = ctx.ok(await stateCall(ctx, a, from, [id, stranger]), "state of a new message");
    ctx.check(
      JSON.stringify(first.unknown) === JSON.stringify([stranger]),
      "an unknown id is not in unknown",
    );
    ctx.check((await stateOf(ctx, a, from, id)) === "accepted", "a new message is not accepted");

    // Only the recipient reports, and only the sender reads.
    const wrongReporter = ctx.ok(await report(ctx, a, from, [id], "held"), "report by the sender");
    ctx.check(
      JSON.stringify(wrongReporter.reported) === "[]",
      "a report from a session the message was not sent to was recorded",
    );
    const held = ctx.ok(await report(ctx, b, to, [id], "held"), "report held");
    ctx.check(JSON.stringify(held.reported) === JSON.stringify([id]), "held not reported");
    ctx.check((await stateOf(ctx, a, from, id)) === "held", "a held message is not held");
    ctx.ok(await report(ctx, b, to, [other], "refused"), "report refused");
    ctx.check((await stateOf(ctx, a, from, other)) === "refused", "not refused");
    ctx.check(
      (await stateOf(ctx, b, to, id)) === "unknown",
      "the recipient reads the sender's message state",
    );
    const c = await stateCall(ctx, fx.c, fx.sessionC, [id]);
    const cResult = ctx.ok(c, "state from another team");
    ctx.check(
      JSON.stringify(cResult.unknown) === JSON.stringify([id]),
      "another team's principal reads the state",
    );
    const foreign = await stateCall(ctx, b, from, [id]);
    const unknownSession = await stateCall(ctx, b, randomId("s-"), [id]);
    ctx.expectError(foreign, "not_found", 6, "state on another principal's session");
    ctx.expectIdentical(foreign, unknownSession, "state on a foreign vs an unknown session");
    const foreignSent = await ctx.call(b, ["message", "sent", "--session", from]);
    ctx.expectError(foreignSent, "not_found", 6, "sent on another principal's session");

    // Bad input names the member and stores nothing.
    expectInvalid(ctx, await stateCall(ctx, a, from, []), "message_ids", "state with no ids");
    expectInvalid(ctx, await stateCall(ctx, a, from, [7]), "message_ids.0", "state with a number");
    expectInvalid(ctx, await report(ctx, b, to, [id], "acked"), "state", "report acked");
    ctx.check((await stateOf(ctx, a, from, id)) === "held", "a refused report changed the state");

    await ack(ctx, b, to, [id]);
    ctx.check((await stateOf(ctx, a, from, id)) === "acked", "an acked message is not acked");
    const third = (await sendOk(ctx, a, from, to, "c51 three")).message_id as string;
    ctx.ok(await ctx.call(b, ["session", "close", "--session", to]), "close the recipient");
    ctx.check(
      (await stateOf(ctx, a, from, third)) === "undeliverable",
      "a message to a closed session is not undeliverable",
    );
    const sent = ctx.ok(
      await ctx.call(a, ["message", "sent", "--session", from, "--limit", "2"]),
      "message sent",
    );
    const ids = Array.isArray(sent.messages)
      ? (sent.messages as { message_id?: unknown }[]).map((m) => m.message_id)
      : [];
    ctx.check(JSON.stringify(ids) === JSON.stringify([third, other]), "sent is not newest first");
  },
);

const C52 = defineCase(
  "C-52",
  "[ours] message adopt: a principal's new session takes over what its own closed session left (held for its user; the sender sees held); never another principal's or a live session's",
  ["message.adopt", "message.state"],
  async (ctx, fx) => {
    const a = await freshMember(ctx, fx, "c52-a");
    const b = await freshMember(ctx, fx, "c52-b");
    const from = await newSession(ctx, a, ctx.unique("c52-a"));
    const old = await newSession(ctx, b, ctx.unique("c52-b"));
    const id = (await sendOk(ctx, a, from, old, "c52 one")).message_id as string;
    const adopt = (p: Principal, session: string, ids: readonly unknown[]): Promise<Call> =>
      ctx.call(p, ["message", "adopt", "--session", session], {
        stdin: { from_session_ids: ids },
      });
    const moved = (call: Call): unknown[] => {
      const result = ctx.ok(call, "message adopt");
      return Array.isArray(result.messages)
        ? (result.messages as { message_id?: unknown }[]).map((m) => m.message_id)
        : [];
    };
    const next = await newSession(ctx, b, ctx.unique("c52-b2"));
    ctx.check(moved(await adopt(b, next, [old])).length === 0, "a live session's messages moved");
    ctx.ok(await ctx.call(b, ["session", "close", "--session", old]), "close the old session");
    // A's own session cannot take B's messages; neither can another team's principal.
    ctx.check(moved(await adopt(a, from, [old])).length === 0, "another principal adopted");
    ctx.check(
      moved(await adopt(fx.c, fx.sessionC, [old])).length === 0,
      "another team's principal adopted",
    );
    ctx.check(
      (await stateOf(ctx, a, from, id)) === "undeliverable",
      "a message left in a closed session is not undeliverable",
    );
    const foreign = await adopt(a, next, [old]);
    ctx.expectError(foreign, "not_found", 6, "adopt into another principal's session");
    expectInvalid(ctx, await adopt(b, next, []), "from_session_ids", "adopt from nothing");
    ctx.check(
      JSON.stringify(moved(await adopt(b, next, [old, randomId("s-")]))) === JSON.stringify([id]),
      "the owner's new session did not adopt the message",
    );
    ctx.check((await stateOf(ctx, a, from, id)) === "held", "an adopted message is not held");
    const inbox = ctx.ok(
      await ctx.call(b, ["message", "receive", "--session", next]),
      "receive in the new session",
    );
    const inboxIds = Array.isArray(inbox.messages)
      ? (inbox.messages as { message_id?: unknown }[]).map((m) => m.message_id)
      : [];
    ctx.check(inboxIds.includes(id), "the adopted message is not in the new session's inbox");
  },
);

/** C-51 and C-52, in id order. */
export const STATE_CASES: readonly ConformanceCase[] = [C51, C52];
