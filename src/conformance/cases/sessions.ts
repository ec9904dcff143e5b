import { type ConformanceCase, defineCase } from "../case.ts";
import {
  findSession,
  listSessions,
  newSession,
  randomId,
  registerSession,
  registration,
  send,
} from "../operations.ts";
import { detail, expectInvalid, sleep, twoByte } from "./helpers.ts";

function ms(text: unknown): number {
  return typeof text === "string" ? Date.parse(text) : Number.NaN;
}

const C10 = defineCase(
  "C-10",
  "session register: adapter id, active when busy, lease_until ≈ now + lease, resumed false, granted lease",
  [],
  async (ctx, fx) => {
    const r = await registerSession(ctx, fx.a, ctx.unique("c10"), { lease_seconds: fx.lease.def });
    ctx.check(r.state === "active", "state is not active for a busy session");
    ctx.check(r.resumed === false, "resumed is not false");
    ctx.check(r.lease_seconds === fx.lease.def, "lease_seconds is not the granted value");
    const delta = (ms(r.lease_until) - ms(r.server_time)) / 1000;
    ctx.check(Math.abs(delta - fx.lease.def) <= 5, "lease_until is not server_time + lease (±5 s)");
    ctx.check(
      r.is_self === false || r.is_self === undefined || r.is_self === true,
      "is_self not boolean",
    );
  },
);

const C11 = defineCase(
  "C-11",
  "two registrations with one name → two ids, both listed",
  [],
  async (ctx, fx) => {
    const name = ctx.unique("c11-twin");
    const one = await newSession(ctx, fx.a, name);
    const two = await newSession(ctx, fx.a, name);
    ctx.check(one !== two, "the two registrations share an id");
    const list = await listSessions(ctx, fx.a);
    ctx.check(
      findSession(list, one) !== undefined && findSession(list, two) !== undefined,
      "not both listed",
    );
  },
);

const C12 = defineCase(
  "C-12",
  "session list: own team only, human_label, server_time, offline hidden without flag, is_self; no stdin read",
  [],
  async (ctx, fx) => {
    const call = await ctx.call(fx.a, ["session", "list", "--session", fx.sessionA], {
      stdin: "held-open",
    });
    const list = ctx.ok(call, "session list");
    const sessions = Array.isArray(list.sessions)
      ? (list.sessions as Record<string, unknown>[])
      : [];
    ctx.check(list.team_ref === fx.t1.ref, "team_ref is not T1's");
    ctx.check(typeof list.server_time === "string", "server_time missing");
    ctx.check(typeof list.truncated === "boolean", "truncated missing");
    ctx.check(
      findSession(list, fx.sessionC) === undefined,
      "a T2 session is listed to a T1 member",
    );
    const a = findSession(list, fx.sessionA);
    const b = findSession(list, fx.sessionB);
    ctx.check(a?.is_self === true, "is_self is not true for --session");
    ctx.check(b !== undefined && b.is_self === false, "B's session missing or is_self not false");
    ctx.check(typeof b?.human_label === "string", "human_label missing on B's session");
    ctx.check(
      sessions.every((s) => s.session_id !== fx.sessionC),
      "foreign session listed",
    );
    const closed = await newSession(ctx, fx.a, ctx.unique("c12-closed"));
    ctx.ok(await ctx.call(fx.a, ["session", "close", "--session", closed]), "session close");
    ctx.check(
      findSession(await listSessions(ctx, fx.a), closed) === undefined,
      "offline session listed without the flag",
    );
    const all = await listSessions(ctx, fx.a, ["--include-offline"]);
    ctx.check(
      findSession(all, closed)?.state === "offline",
      "offline session not listed with --include-offline",
    );
  },
);

const C13 = defineCase(
  "C-13",
  "heartbeat of another's session → 6 identical to unknown; own heartbeat renews and applies name/description",
  [],
  async (ctx, fx) => {
    const foreign = await ctx.call(fx.b, ["session", "heartbeat", "--session", fx.sessionA], {
      stdin: {},
    });
    ctx.expectError(foreign, "not_found", 6, "B heartbeating A's session");
    const unknown = await ctx.call(fx.b, ["session", "heartbeat", "--session", randomId("s-")], {
      stdin: {},
    });
    ctx.expectError(unknown, "not_found", 6, "heartbeat of an unknown id");
    ctx.expectIdentical(foreign, unknown, "foreign vs unknown heartbeat");
    const r = await registerSession(ctx, fx.a, ctx.unique("c13"), { lease_seconds: fx.lease.def });
    const id = r.session_id as string;
    await sleep(1100);
    const name = ctx.unique("c13-renamed");
    const doc: Record<string, unknown> = { session_name: name };
    const withDescription = ctx.capabilities.has("session.description");
    if (withDescription) doc.session_description = twoByte(256);
    const hb = ctx.ok(
      await ctx.call(fx.a, ["session", "heartbeat", "--session", id], { stdin: doc }),
      "heartbeat",
    );
    ctx.check(hb.session_id === id && typeof hb.state === "string", "heartbeat result shape");
    ctx.check(ms(hb.lease_until) > ms(r.lease_until), "heartbeat did not renew lease_until");
    const listed = findSession(await listSessions(ctx, fx.a), id);
    ctx.check(listed?.session_name === name, "heartbeat did not apply session_name");
    if (withDescription) {
      ctx.check(
        listed?.session_description === twoByte(256),
        "heartbeat did not apply session_description",
      );
      const over = await ctx.call(fx.a, ["session", "heartbeat", "--session", id], {
        stdin: { session_description: twoByte(257) },
      });
      expectInvalid(ctx, over, "session_description", "257-cp description in heartbeat");
    }
  },
);

const C14 = defineCase(
  "C-14",
  "a session registered with lease.min_seconds is offline after min + 2 s (listed only with the flag)",
  [],
  async (ctx, fx) => {
    const id = await newSession(ctx, fx.a, ctx.unique("c14"), { lease_seconds: fx.lease.min });
    await sleep((fx.lease.min + 2) * 1000);
    const all = await listSessions(ctx, fx.a, ["--include-offline"]);
    ctx.check(
      findSession(all, id)?.state === "offline",
      "expired session not offline with --include-offline",
    );
    ctx.check(
      findSession(await listSessions(ctx, fx.a), id) === undefined,
      "expired session listed without the flag",
    );
  },
  true,
);

const C15 = defineCase(
  "C-15",
  "close → offline at once; second close ok; heartbeat after close → 7",
  [],
  async (ctx, fx) => {
    const id = await newSession(ctx, fx.a, ctx.unique("c15"));
    const r = ctx.ok(await ctx.call(fx.a, ["session", "close", "--session", id]), "session close");
    ctx.check(
      r.session_id === id && r.state === "offline",
      "close result is not {session_id, state: offline}",
    );
    const all = await listSessions(ctx, fx.a, ["--include-offline"]);
    ctx.check(findSession(all, id)?.state === "offline", "closed session not offline");
    ctx.ok(await ctx.call(fx.a, ["session", "close", "--session", id]), "second close");
    const hb = await ctx.call(fx.a, ["session", "heartbeat", "--session", id], { stdin: {} });
    ctx.expectError(hb, "conflict", 7, "heartbeat after close");
  },
);

const C16 = defineCase(
  "C-16",
  "65-cp session name → 3, 64 passes; 257-cp description → 3 (two-byte code points)",
  [],
  async (ctx, fx) => {
    const over = await ctx.call(fx.a, ["session", "register"], {
      stdin: registration(twoByte(65)),
    });
    expectInvalid(ctx, over, "session_name", "65-cp session_name");
    if (ctx.check(over.envelope?.error !== undefined, "65-cp name accepted")) {
      ctx.check(
        detail(over, "unit") === "codepoints",
        "65-cp name: details.unit is not codepoints",
      );
    }
    await newSession(ctx, fx.a, twoByte(64));
    if (ctx.capabilities.has("session.description")) {
      const desc = await ctx.call(fx.a, ["session", "register"], {
        stdin: registration(ctx.unique("c16"), { session_description: twoByte(257) }),
      });
      expectInvalid(ctx, desc, "session_description", "257-cp description");
      await newSession(ctx, fx.a, ctx.unique("c16"), { session_description: twoByte(256) });
    } else {
      ctx.note("session.description not advertised: description cap not checked");
    }
  },
);

const C17 = defineCase(
  "C-17",
  "unknown registration members are accepted and not echoed",
  [],
  async (ctx, fx) => {
    const r = await registerSession(ctx, fx.a, ctx.unique("c17"), {
      x_conformance_unknown: 1,
      zz_nested: { a: [1, 2] },
    });
    ctx.check(
      !("x_conformance_unknown" in r) && !("zz_nested" in r),
      "unknown members echoed in the result",
    );
    const listed = findSession(await listSessions(ctx, fx.a), r.session_id as string);
    ctx.check(
      listed !== undefined && !("x_conformance_unknown" in listed),
      "unknown members echoed in the list",
    );
  },
);

const LIMIT_KEYS = [
  "max_body_bytes",
  "max_summary_chars",
  "max_session_name_codepoints",
  "max_team_name_codepoints",
  "max_description_chars",
  "max_human_label_chars",
  "max_workspace_label_chars",
  "max_model_chars",
  "max_idempotency_key_chars",
  "max_unacked_per_recipient",
  "max_unacked_per_sender_recipient",
  "max_hop_count",
  "implicit_reply_window_seconds",
];
const V1_VALUES: Record<string, number> = {
  max_body_bytes: 16384,
  max_summary_chars: 200,
  max_session_name_codepoints: 64,
  max_team_name_codepoints: 64,
  max_description_chars: 256,
  max_human_label_chars: 128,
  max_workspace_label_chars: 128,
  max_model_chars: 128,
  max_idempotency_key_chars: 128,
  max_unacked_per_recipient: 60,
  max_unacked_per_sender_recipient: 15,
  max_hop_count: 32,
  implicit_reply_window_seconds: 600,
};

function positive(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

const C18 = defineCase(
  "C-18",
  "every limits/lease/retention key present and numeric; message.receive advertised",
  [],
  async (ctx, fx) => {
    const d = ctx.ok(await ctx.call(fx.a, ["describe"]), "describe");
    const limits = (d.limits ?? {}) as Record<string, unknown>;
    for (const key of LIMIT_KEYS) {
      if (ctx.check(positive(limits[key]), `limits.${key} missing or not positive`)) {
        ctx.check(limits[key] === V1_VALUES[key], `limits.${key} is not the v1 value`);
      }
    }
    for (const [key, pm, ph] of [
      ["send_rate", 20, 200],
      ["principal_send_rate", 60, 600],
    ] as const) {
      const rate = (limits[key] ?? {}) as Record<string, unknown>;
      ctx.check(
        rate.per_minute === pm && rate.per_hour === ph,
        `limits.${key} is not ${pm}/min, ${ph}/h`,
      );
    }
    const lease = (d.lease ?? {}) as Record<string, unknown>;
    for (const key of ["default_seconds", "min_seconds", "max_seconds"]) {
      ctx.check(positive(lease[key]), `lease.${key} missing or not positive`);
    }
    ctx.check(
      Number(lease.min_seconds) <= Number(lease.default_seconds) &&
        Number(lease.default_seconds) <= Number(lease.max_seconds),
      "lease is not min ≤ default ≤ max",
    );
    const retention = (d.retention ?? {}) as Record<string, unknown>;
    for (const key of [
      "unacked_message_seconds",
      "acked_message_seconds",
      "closed_session_seconds",
    ]) {
      ctx.check(positive(retention[key]), `retention.${key} missing or not positive`);
    }
    const caps = Array.isArray(d.capabilities) ? d.capabilities : [];
    ctx.check(caps.includes("message.receive"), "message.receive not advertised");
    const delivery = (d.delivery ?? {}) as Record<string, unknown>;
    ctx.check(delivery.guarantee === "at_least_once", "delivery.guarantee is not at_least_once");
    ctx.check(typeof delivery.ordering === "string", "delivery.ordering missing");
    ctx.check(delivery.ack_state === "injected", "delivery.ack_state is not injected");
    const adapter = (d.adapter ?? {}) as Record<string, unknown>;
    ctx.check(
      typeof adapter.name === "string" && typeof adapter.version === "string",
      "adapter name/version missing",
    );
  },
);

const C19 = defineCase(
  "C-19",
  "resume a closed session: same id, resumed, pending message kept; foreign or random id → 6 identical",
  ["session.resume"],
  async (ctx, fx) => {
    const id = await newSession(ctx, fx.a, ctx.unique("c19"));
    const body = ctx.unique("c19-pending");
    ctx.ok(await send(ctx, fx.b, fx.sessionB, id, body), "send to the session");
    ctx.ok(await ctx.call(fx.a, ["session", "close", "--session", id]), "close");
    const r = await registerSession(ctx, fx.a, ctx.unique("c19-back"), {
      resume: { session_id: id },
    });
    ctx.check(r.session_id === id, "resume did not keep the id");
    ctx.check(r.resumed === true, "resumed is not true");
    ctx.check(r.state !== "offline", "resumed session is offline");
    const msgs = ctx.ok(await ctx.call(fx.a, ["message", "receive", "--session", id]), "receive");
    const list = Array.isArray(msgs.messages) ? (msgs.messages as Record<string, unknown>[]) : [];
    ctx.check(
      list.some((m) => m.body === body),
      "pending message not receivable after resume",
    );
    const foreign = await ctx.call(fx.b, ["session", "register"], {
      stdin: registration("x", { resume: { session_id: id } }),
    });
    ctx.expectError(foreign, "not_found", 6, "B resuming A's session");
    const random = await ctx.call(fx.b, ["session", "register"], {
      stdin: registration("x", { resume: { session_id: randomId("s-") } }),
    });
    ctx.expectError(random, "not_found", 6, "resume of a random id");
    ctx.expectIdentical(foreign, random, "foreign vs random resume");
  },
);

const C19b = defineCase(
  "C-19b",
  "resume of a live session → 7 session_live, unchanged; after close it resumes",
  ["session.resume"],
  async (ctx, fx) => {
    const name = ctx.unique("c19b");
    const id = await newSession(ctx, fx.a, name);
    const live = await ctx.call(fx.a, ["session", "register"], {
      stdin: registration(`${name}-other`, { resume: { session_id: id } }),
    });
    if (ctx.expectError(live, "conflict", 7, "resume of a live session")) {
      ctx.check(detail(live, "reason") === "session_live", "reason is not session_live");
    }
    ctx.check(
      findSession(await listSessions(ctx, fx.a), id)?.session_name === name,
      "live session changed",
    );
    ctx.ok(await ctx.call(fx.a, ["session", "close", "--session", id]), "close");
    const r = await registerSession(ctx, fx.a, name, { resume: { session_id: id } });
    ctx.check(r.session_id === id && r.resumed === true, "closed session did not resume");
  },
);

/** The session cases C-10…C-19b. */
export const SESSION_CASES: readonly ConformanceCase[] = [
  C10,
  C11,
  C12,
  C13,
  C14,
  C15,
  C16,
  C17,
  C18,
  C19,
  C19b,
];
