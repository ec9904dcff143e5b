import { type ConformanceCase, defineCase } from "../case.ts";
import type { Call, Principal, SuiteContext } from "../context.ts";
import {
  ack,
  findSession,
  listSessions,
  newSession,
  randomId,
  rebind,
  receive,
  send,
  sendOk,
} from "../operations.ts";
import { detail, expectInvalid, freshMember, principalRef } from "./helpers.ts";

const C20 = defineCase(
  "C-20",
  "A→B send accepted; B receives it with stamped sender, team_ref, created_at, hop_count 0, accepted",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c20-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c20-b"));
    const body = ctx.unique("c20 body");
    const r = await sendOk(ctx, fx.a, from, to, body, { summary: "c20" });
    ctx.check(r.status === "accepted", "status is not accepted");
    ctx.check(
      typeof r.message_id === "string" && r.recipient_session_id === to,
      "message_id/recipient missing",
    );
    ctx.check(
      typeof r.created_at === "string" && r.duplicate === false && r.hop_count === 0,
      "SendResponse shape",
    );
    const m = (await receive(ctx, fx.b, to)).find((x) => x.message_id === r.message_id);
    if (m === undefined) return ctx.fail("B did not receive the message");
    const sender = (m.sender ?? {}) as Record<string, unknown>;
    ctx.check(
      sender.principal_ref === (await principalRef(ctx, fx.a)),
      "sender.principal_ref is not A's",
    );
    ctx.check(
      sender.session_id === from && typeof sender.session_name === "string",
      "sender session not stamped",
    );
    ctx.check(m.team_ref === fx.t1.ref, "team_ref is not T1's");
    ctx.check(typeof m.created_at === "string" && m.hop_count === 0, "created_at/hop_count");
    ctx.check(m.delivery_state === "accepted", "delivery_state is not accepted");
    ctx.check(m.body === body && m.summary === "c20", "body/summary do not round-trip");
    ctx.check(m.protocol_version === "1" && m.kind === "text", "protocol_version/kind");
    ctx.check(m.recipient_session_id === to, "recipient_session_id");
  },
);

const C21 = defineCase(
  "C-21",
  "same key twice → same id, duplicate: true, one message received",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c21-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c21-b"));
    const key = ctx.unique("c21-key");
    const one = await sendOk(ctx, fx.a, from, to, "same", { idempotency_key: key });
    const two = await sendOk(ctx, fx.a, from, to, "same", { idempotency_key: key });
    ctx.check(one.message_id === two.message_id, "replay has another message_id");
    ctx.check(two.duplicate === true && one.duplicate === false, "duplicate flags");
    ctx.check(two.created_at === one.created_at, "replay has another created_at");
    ctx.check((await receive(ctx, fx.b, to)).length === 1, "not exactly one message received");
  },
);

const C22 = defineCase(
  "C-22",
  "same key with another body or recipient → 7",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c22-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c22-b"));
    const to2 = await newSession(ctx, fx.b, ctx.unique("c22-b2"));
    const key = ctx.unique("c22-key");
    await sendOk(ctx, fx.a, from, to, "first", { idempotency_key: key });
    ctx.expectError(
      await send(ctx, fx.a, from, to, "second", { idempotency_key: key }),
      "conflict",
      7,
      "other body",
    );
    ctx.expectError(
      await send(ctx, fx.a, from, to2, "first", { idempotency_key: key }),
      "conflict",
      7,
      "other recipient",
    );
  },
);

const FORBIDDEN: readonly (readonly [string, unknown])[] = [
  ["sender", { principal_ref: "p-x", session_id: "s-x", session_name: "x" }],
  ["principal_ref", "p-x"],
  ["human_label", "someone"],
  ["team_ref", "t-x"],
  ["created_at", "2026-01-01T00:00:00Z"],
  ["hop_count", null],
];

const C23 = defineCase(
  "C-23",
  "SendRequest carrying sender, created_at, … → 3 naming the member, nothing persisted",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c23-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c23-b"));
    for (const [member, value] of FORBIDDEN) {
      const call = await send(ctx, fx.a, from, to, `c23 ${member}`, { [member]: value });
      expectInvalid(ctx, call, member, `forbidden member ${member}`);
      if (call.envelope?.error) {
        ctx.check(
          detail(call, "reason") === "forbidden_member",
          `${member}: reason is not forbidden_member`,
        );
      }
    }
    ctx.check((await receive(ctx, fx.b, to)).length === 0, "a refused send was persisted");
  },
);

async function identicalNotFound(ctx: SuiteContext, a: Call, b: Call, what: string): Promise<void> {
  ctx.expectError(a, "not_found", 6, what);
  ctx.expectError(b, "not_found", 6, `${what} (random id)`);
  ctx.expectIdentical(a, b, what);
}

const C24 = defineCase(
  "C-24",
  "B sending with A's session as sender → 6 identical to unknown",
  [],
  async (ctx, fx) => {
    const to = await newSession(ctx, fx.b, ctx.unique("c24-b"));
    const forged = await send(ctx, fx.b, fx.sessionA, to, "c24 forged");
    const random = await send(ctx, fx.b, randomId("s-"), to, "c24 forged");
    await identicalNotFound(ctx, forged, random, "sender not owned");
    ctx.check((await receive(ctx, fx.b, to)).length === 0, "the forged send was persisted");
  },
);

const C25 = defineCase(
  "C-25",
  "C sending to B's session → 6 identical to a random id",
  [],
  async (ctx, fx) => {
    const foreign = await send(ctx, fx.c, fx.sessionC, fx.sessionB, "c25");
    const random = await send(ctx, fx.c, fx.sessionC, randomId("s-"), "c25");
    await identicalNotFound(ctx, foreign, random, "recipient in another team");
  },
);

async function withRebind(
  ctx: SuiteContext,
  p: Principal,
  ref: string,
  restore: string,
  body: () => Promise<void>,
): Promise<void> {
  await rebind(ctx, p, ref);
  try {
    await body();
  } finally {
    await rebind(ctx, p, restore);
  }
}

const C26 = defineCase(
  "C-26",
  "C cannot list or receive T1; C rebound to T1's ref → 5 on register/list, identical to a random ref",
  [],
  async (ctx, fx) => {
    const list = await listSessions(ctx, fx.c, ["--include-offline"]);
    ctx.check(list.team_ref !== fx.t1.ref, "C's list names T1");
    ctx.check(
      findSession(list, fx.sessionA) === undefined && findSession(list, fx.sessionB) === undefined,
      "C lists T1 sessions",
    );
    ctx.expectError(
      await ctx.call(fx.c, ["message", "receive", "--session", fx.sessionB]),
      "not_found",
      6,
      "C receiving B's inbox",
    );
    const answers: Call[][] = [];
    for (const ref of [fx.t1.ref, randomId("t-")]) {
      await withRebind(ctx, fx.c, ref, fx.t2.ref, async () => {
        const reg = await ctx.call(fx.c, ["session", "register"], {
          stdin: {
            harness: "x",
            harness_version: "1",
            session_name: "c26",
            activity: "busy",
            inbound: "accept",
          },
        });
        ctx.expectError(
          reg,
          "unauthorized",
          5,
          `register rebound to ${answers.length === 0 ? "T1" : "a random ref"}`,
        );
        const ls = await ctx.call(fx.c, ["session", "list"]);
        ctx.expectError(
          ls,
          "unauthorized",
          5,
          `list rebound to ${answers.length === 0 ? "T1" : "a random ref"}`,
        );
        answers.push([reg, ls]);
      });
    }
    const [t1, random] = answers;
    if (t1 && random) {
      ctx.expectIdentical(t1[0] as Call, random[0] as Call, "register: T1 vs random ref");
      ctx.expectIdentical(t1[1] as Call, random[1] as Call, "list: T1 vs random ref");
    }
  },
);

const C27 = defineCase(
  "C-27",
  "body 16,385 bytes → 3, 16,384 ok; summary 201 cp → 3; empty body → 3",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c27-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c27-b"));
    const over = await send(ctx, fx.a, from, to, `${"é".repeat(8192)}a`);
    expectInvalid(ctx, over, "body", "16,385-byte body");
    if (over.envelope?.error)
      ctx.check(detail(over, "unit") === "bytes", "body: details.unit is not bytes");
    await sendOk(ctx, fx.a, from, to, "é".repeat(8192));
    expectInvalid(
      ctx,
      await send(ctx, fx.a, from, to, "x", { summary: "é".repeat(201) }),
      "summary",
      "201-cp summary",
    );
    await sendOk(ctx, fx.a, from, to, "x", { summary: "é".repeat(200) });
    expectInvalid(ctx, await send(ctx, fx.a, from, to, ""), "body", "empty body");
  },
);

function expectRate(ctx: SuiteContext, call: Call, reason: string, what: string): void {
  if (!ctx.expectError(call, "rate_limited", 8, what)) return;
  const e = call.envelope?.error;
  ctx.check(
    detail(call, "reason") === reason,
    `${what}: reason is ${detail(call, "reason")}, expected ${reason}`,
  );
  ctx.check(e?.retryable === true, `${what}: retryable is not true`);
  ctx.check((e?.retry_after_ms ?? 0) > 0, `${what}: retry_after_ms is not > 0`);
}

async function sendMany(
  ctx: SuiteContext,
  p: Principal,
  from: string,
  to: string,
  n: number,
): Promise<void> {
  for (let i = 0; i < n; i++) await sendOk(ctx, p, from, to, ctx.unique("c28"));
}

const C28 = defineCase(
  "C-28",
  "pair cap before inbox cap; inbox full; pair cap isolates; send_per_minute; principal_per_minute (8, retryable)",
  [],
  async (ctx, fx) => {
    const p1 = await freshMember(ctx, fx, "rate-p1");
    const p2 = await freshMember(ctx, fx, "rate-p2");
    const q = await freshMember(ctx, fx, "rate-q");
    const r = await newSession(ctx, q, "c28-r");
    const r2 = await newSession(ctx, q, "c28-r2");
    const x1 = await newSession(ctx, p1, "c28-x1");
    const x2 = await newSession(ctx, p1, "c28-x2");
    const x3 = await newSession(ctx, p2, "c28-x3");
    const x4 = await newSession(ctx, p2, "c28-x4");
    for (const [p, x] of [
      [p1, x1],
      [p1, x2],
      [p2, x3],
      [p2, x4],
    ] as const)
      await sendMany(ctx, p, x, r, 15);
    expectRate(
      ctx,
      await send(ctx, p1, x1, r, "16th"),
      "sender_quota_for_recipient",
      "pair and inbox both at limit",
    );
    const x5 = await newSession(ctx, p1, "c28-x5");
    expectRate(
      ctx,
      await send(ctx, p1, x5, r, "fresh"),
      "recipient_inbox_full",
      "fresh sender to a full inbox",
    );
    const x6 = await newSession(ctx, p2, "c28-x6");
    const x7 = await newSession(ctx, p2, "c28-x7");
    await sendMany(ctx, p2, x6, r2, 15);
    expectRate(
      ctx,
      await send(ctx, p2, x6, r2, "16th"),
      "sender_quota_for_recipient",
      "16th unacked from one pair",
    );
    await sendOk(ctx, p2, x7, r2, "third session still reaches the recipient");
    // The minute windows: a fresh principal whose 60 sends fall well inside one minute, spread
    // over four recipients (5 per pair, 15 per inbox) so no cap interferes, four chains at once.
    const budget = await freshMember(ctx, fx, "rate-budget");
    const inboxes = [
      await newSession(ctx, q, "c28-t1"),
      await newSession(ctx, q, "c28-t2"),
      await newSession(ctx, q, "c28-t3"),
      await newSession(ctx, q, "c28-t4"),
    ];
    const twenty = async (from: string): Promise<void> => {
      await Promise.all(inboxes.map((to) => sendMany(ctx, budget, from, to, 5)));
    };
    const y1 = await newSession(ctx, budget, "c28-y1");
    const y2 = await newSession(ctx, budget, "c28-y2");
    const y3 = await newSession(ctx, budget, "c28-y3");
    const y4 = await newSession(ctx, budget, "c28-y4");
    await twenty(y1);
    expectRate(
      ctx,
      await send(ctx, budget, y1, inboxes[0] as string, "21st"),
      "send_per_minute",
      "21st send in a minute",
    );
    await twenty(y2);
    await twenty(y3);
    expectRate(
      ctx,
      await send(ctx, budget, y4, inboxes[0] as string, "61st"),
      "principal_per_minute",
      "principal budget across sessions",
    );
    ctx.note("hourly windows (send_per_hour, principal_per_hour) noted, not asserted");
  },
);

const C29 = defineCase(
  "C-29",
  "reply_to chain increments hop by 1 up to 32; the next → 12; reply_to of an unreceived message → 6",
  [],
  async (ctx, fx) => {
    const x = await freshMember(ctx, fx, "hop-x");
    const y = await freshMember(ctx, fx, "hop-y");
    // Three sessions in a cycle keep every pair under the 15-unacked cap without acks.
    const ring = [
      { p: x, s: await newSession(ctx, x, "c29-0") },
      { p: y, s: await newSession(ctx, y, "c29-1") },
      { p: x, s: await newSession(ctx, x, "c29-2") },
    ] as const;
    let parent: string | undefined;
    for (let hop = 0; hop <= 33; hop++) {
      const from = ring[hop % 3] as (typeof ring)[number];
      const to = ring[(hop + 1) % 3] as (typeof ring)[number];
      const extra = parent === undefined ? {} : { reply_to: parent };
      const call = await send(ctx, from.p, from.s, to.s, `hop ${hop}`, extra);
      if (hop === 33) {
        ctx.expectError(call, "loop_detected", 12, "hop 33");
        break;
      }
      const r = ctx.ok(call, `send at hop ${hop}`);
      if (!ctx.check(r.hop_count === hop, `hop_count is ${String(r.hop_count)}, expected ${hop}`))
        return;
      parent = r.message_id as string;
      if (hop === 0) {
        const own = await send(ctx, x, ring[0].s, ring[2].s, "reply to my own", {
          reply_to: parent,
        });
        ctx.expectError(own, "not_found", 6, "reply_to a message the sender did not receive");
      }
    }
  },
);

const C29b = defineCase(
  "C-29b",
  "implicit reply chain without reply_to increments hop inside the 600 s window",
  [],
  async (ctx, fx) => {
    const x = await freshMember(ctx, fx, "ihop-x");
    const y = await freshMember(ctx, fx, "ihop-y");
    const sx = await newSession(ctx, x, "c29b-x");
    const sy = await newSession(ctx, y, "c29b-y");
    // 30 messages keep each direction at 15 unacked, the per-pair cap.
    for (let hop = 0; hop < 30; hop++) {
      const [p, from, to] = hop % 2 === 0 ? [x, sx, sy] : [y, sy, sx];
      const r = ctx.ok(await send(ctx, p, from, to, `implicit ${hop}`), `send at hop ${hop}`);
      if (!ctx.check(r.hop_count === hop, `hop_count is ${String(r.hop_count)}, expected ${hop}`))
        return;
    }
    ctx.note("hops 30..33 need acks (pair cap) and the window reset needs 600 s: not exercised");
  },
);

const C30 = defineCase(
  "C-30",
  "ack by a non-recipient → unknown; recipient ack → acked; re-ack acked; receive then empty",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c30-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c30-b"));
    const id = (await sendOk(ctx, fx.a, from, to, "c30")).message_id as string;
    const wrong = await ack(ctx, fx.a, from, [id]);
    ctx.check(Array.isArray(wrong.acked) && Array.isArray(wrong.unknown), "ack arrays missing");
    ctx.check(
      JSON.stringify(wrong) === JSON.stringify({ acked: [], unknown: [id] }),
      "non-recipient ack is not unknown",
    );
    const right = await ack(ctx, fx.b, to, [id]);
    ctx.check(
      JSON.stringify(right) === JSON.stringify({ acked: [id], unknown: [] }),
      "recipient ack is not acked",
    );
    const again = await ack(ctx, fx.b, to, [id]);
    ctx.check(
      JSON.stringify(again) === JSON.stringify({ acked: [id], unknown: [] }),
      "re-ack is not acked",
    );
    ctx.check((await receive(ctx, fx.b, to)).length === 0, "receive after ack is not empty");
  },
);

const C31 = defineCase(
  "C-31",
  "send from a closed sender → 7; to a closed recipient accepted",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c31-a"));
    const live = await newSession(ctx, fx.a, ctx.unique("c31-a2"));
    const to = await newSession(ctx, fx.b, ctx.unique("c31-b"));
    ctx.ok(await ctx.call(fx.a, ["session", "close", "--session", from]), "close sender");
    ctx.expectError(
      await send(ctx, fx.a, from, to, "from closed"),
      "conflict",
      7,
      "send from a closed session",
    );
    ctx.ok(await ctx.call(fx.b, ["session", "close", "--session", to]), "close recipient");
    const id = (await sendOk(ctx, fx.a, live, to, "to closed")).message_id;
    if (ctx.capabilities.has("session.resume")) {
      const r = ctx.ok(
        await ctx.call(fx.b, ["session", "register"], {
          stdin: {
            harness: "x",
            harness_version: "1",
            session_name: "c31",
            activity: "busy",
            inbound: "accept",
            resume: { session_id: to },
          },
        }),
        "resume the closed recipient",
      );
      ctx.check(r.session_id === to, "recipient did not resume");
      ctx.check(
        (await receive(ctx, fx.b, to)).some((m) => m.message_id === id),
        "message to the closed recipient lost",
      );
    }
  },
);

const C32 = defineCase(
  "C-32",
  "ten sends; oldest-first order recorded, not asserted",
  [],
  async (ctx, fx) => {
    const from = await newSession(ctx, fx.a, ctx.unique("c32-a"));
    const to = await newSession(ctx, fx.b, ctx.unique("c32-b"));
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await sendOk(ctx, fx.a, from, to, `c32 ${i}`)).message_id as string);
    const got = (await receive(ctx, fx.b, to)).map((m) => m.message_id as string);
    ctx.check(
      ids.every((id) => got.includes(id)),
      "not all ten messages received",
    );
    ctx.note(`oldest first: ${JSON.stringify(got) === JSON.stringify(ids) ? "yes" : "no"}`);
  },
);

/** The message cases C-20…C-32. */
export const MESSAGE_CASES: readonly ConformanceCase[] = [
  C20,
  C21,
  C22,
  C23,
  C24,
  C25,
  C26,
  C27,
  C28,
  C29,
  C29b,
  C30,
  C31,
  C32,
];
