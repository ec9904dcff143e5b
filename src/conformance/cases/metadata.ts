import { type ConformanceCase, defineCase } from "../case.ts";
import type { Call } from "../context.ts";
import {
  findSession,
  joinTeam,
  listSessions,
  newSession,
  randomId,
  rebind,
  registerSession,
  registration,
} from "../operations.ts";
import { expectInvalid, principalRef, twoByte } from "./helpers.ts";

const C42 = defineCase(
  "C-42",
  "inbound set at registration and changed by heartbeat shows in session list",
  ["session.inbound"],
  async (ctx, fx) => {
    const id = await newSession(ctx, fx.a, ctx.unique("c42"), { inbound: "hold" });
    ctx.check(
      findSession(await listSessions(ctx, fx.a), id)?.inbound === "hold",
      "registered inbound not listed",
    );
    ctx.ok(
      await ctx.call(fx.a, ["session", "heartbeat", "--session", id], {
        stdin: { inbound: "refuse" },
      }),
      "heartbeat",
    );
    ctx.check(
      findSession(await listSessions(ctx, fx.a), id)?.inbound === "refuse",
      "heartbeat inbound not listed",
    );
  },
);

const MEMBER_FIELDS = [
  "principal_ref",
  "human_label",
  "status",
  "joined_at",
  "last_seen_at",
  "session_count",
];

const C43 = defineCase(
  "C-43",
  "team members lists A and B (not C) with six fields; C lists only C; rebound C → 5 identical to random",
  ["team.roster"],
  async (ctx, fx) => {
    const [a, b, c] = [
      await principalRef(ctx, fx.a),
      await principalRef(ctx, fx.b),
      await principalRef(ctx, fx.c),
    ];
    const roster = ctx.ok(await ctx.call(fx.a, ["team", "members"]), "A team members");
    const members = Array.isArray(roster.members)
      ? (roster.members as Record<string, unknown>[])
      : [];
    const refs = members.map((m) => m.principal_ref);
    ctx.check(refs.includes(a) && refs.includes(b), "A or B missing from T1's roster");
    ctx.check(!refs.includes(c), "C listed in T1's roster");
    ctx.check(
      roster.team_ref === fx.t1.ref && typeof roster.server_time === "string",
      "roster team_ref/server_time",
    );
    for (const m of members) {
      ctx.check(
        MEMBER_FIELDS.every((f) => f in m),
        "a member lacks one of the six fields",
      );
    }
    const own = ctx.ok(await ctx.call(fx.c, ["team", "members"]), "C team members");
    const cRefs = (
      Array.isArray(own.members) ? (own.members as Record<string, unknown>[]) : []
    ).map((m) => m.principal_ref);
    ctx.check(JSON.stringify(cRefs) === JSON.stringify([c]), "C's roster is not only C");
    const answers: Call[] = [];
    for (const ref of [fx.t1.ref, randomId("t-")]) {
      await rebind(ctx, fx.c, ref);
      try {
        const call = await ctx.call(fx.c, ["team", "members"]);
        ctx.expectError(call, "unauthorized", 5, "team members on a rebound profile");
        answers.push(call);
      } finally {
        await rebind(ctx, fx.c, fx.t2.ref);
      }
    }
    if (answers.length === 2)
      ctx.expectIdentical(answers[0] as Call, answers[1] as Call, "T1 vs random ref");
  },
);

const C44 = defineCase(
  "C-44",
  "model/context_used_tokens round-trip through register, list, heartbeat; absent keeps; caps → 3",
  ["session.model", "session.context_used_tokens"],
  async (ctx, fx) => {
    const r = await registerSession(ctx, fx.a, ctx.unique("c44"), {
      model: "model-one",
      context_used_tokens: 1000,
    });
    const id = r.session_id as string;
    ctx.check(
      r.model === "model-one" && r.context_used_tokens === 1000,
      "register result lacks model/tokens",
    );
    let s = findSession(await listSessions(ctx, fx.a), id);
    ctx.check(
      s?.model === "model-one" && s?.context_used_tokens === 1000,
      "list lacks model/tokens",
    );
    ctx.ok(
      await ctx.call(fx.a, ["session", "heartbeat", "--session", id], {
        stdin: { model: "model-two", context_used_tokens: 2000 },
      }),
      "heartbeat",
    );
    s = findSession(await listSessions(ctx, fx.a), id);
    ctx.check(
      s?.model === "model-two" && s?.context_used_tokens === 2000,
      "heartbeat did not update model/tokens",
    );
    ctx.ok(
      await ctx.call(fx.a, ["session", "heartbeat", "--session", id], {
        stdin: { activity: "idle" },
      }),
      "heartbeat",
    );
    s = findSession(await listSessions(ctx, fx.a), id);
    ctx.check(
      s?.model === "model-two" && s?.context_used_tokens === 2000,
      "absent members changed model/tokens",
    );
    const model = await ctx.call(fx.a, ["session", "register"], {
      stdin: registration("c44", { model: twoByte(129) }),
    });
    expectInvalid(ctx, model, "model", "129-cp model");
    const tokens = await ctx.call(fx.a, ["session", "register"], {
      stdin: registration("c44", { context_used_tokens: -1 }),
    });
    expectInvalid(ctx, tokens, "context_used_tokens", "-1 context_used_tokens");
  },
);

async function rosterLabel(
  ctx: Parameters<ConformanceCase["run"]>[0],
  asWho: Parameters<ConformanceCase["run"]>[1]["a"],
  ref: string,
): Promise<unknown> {
  const roster = ctx.ok(await ctx.call(asWho, ["team", "members"]), "team members");
  const members = Array.isArray(roster.members)
    ? (roster.members as Record<string, unknown>[])
    : [];
  return members.find((m) => m.principal_ref === ref)?.human_label;
}

const C45 = defineCase(
  "C-45",
  "registration human_label fills an empty membership label, never overwrites, absent changes nothing",
  ["session.human_label", "team.roster"],
  async (ctx, fx) => {
    const p = ctx.freshPrincipal("labelless");
    if (ctx.capabilities.has("team.join") && fx.t1.secret !== undefined) {
      ctx.ok(
        await ctx.call(p, ["team", "join"], { stdin: { join_secret: fx.t1.secret } }),
        "team join without label",
      );
    } else {
      await joinTeam(ctx, p, fx.t1);
    }
    const ref = await principalRef(ctx, p);
    const before = await rosterLabel(ctx, fx.a, ref);
    ctx.check(
      before === undefined || before === null || before === "",
      "membership label not empty after a label-less join",
    );
    await newSession(ctx, p, "c45-1", { human_label: "label-one" });
    ctx.check(
      (await rosterLabel(ctx, fx.a, ref)) === "label-one",
      "registration label did not fill the empty label",
    );
    await newSession(ctx, p, "c45-2", { human_label: "label-two" });
    ctx.check(
      (await rosterLabel(ctx, fx.a, ref)) === "label-one",
      "registration label overwrote the label",
    );
    await newSession(ctx, p, "c45-3");
    ctx.check(
      (await rosterLabel(ctx, fx.a, ref)) === "label-one",
      "absent label changed the label",
    );
  },
);

function roundTrip(
  caseId: "C-46" | "C-47",
  member: "brigade_version" | "sync_peer",
  cap: number,
  capability: string,
): ConformanceCase {
  return defineCase(
    caseId,
    `${member} round-trips; heartbeat updates; absent keeps; ${cap + 1} two-byte cp → 3, ${cap} ok`,
    [capability],
    async (ctx, fx) => {
      const v1 = member === "sync_peer" ? "conformance:one" : "0.1.0";
      const v2 = member === "sync_peer" ? "conformance:two" : "0.2.0";
      const id = await newSession(ctx, fx.a, ctx.unique(caseId.toLowerCase()), { [member]: v1 });
      ctx.check(
        findSession(await listSessions(ctx, fx.a), id)?.[member] === v1,
        `${member} not listed`,
      );
      ctx.ok(
        await ctx.call(fx.a, ["session", "heartbeat", "--session", id], {
          stdin: { [member]: v2 },
        }),
        "heartbeat",
      );
      ctx.check(
        findSession(await listSessions(ctx, fx.a), id)?.[member] === v2,
        `heartbeat did not update ${member}`,
      );
      ctx.ok(
        await ctx.call(fx.a, ["session", "heartbeat", "--session", id], { stdin: {} }),
        "heartbeat",
      );
      ctx.check(
        findSession(await listSessions(ctx, fx.a), id)?.[member] === v2,
        `absent ${member} changed it`,
      );
      const over = await ctx.call(fx.a, ["session", "register"], {
        stdin: registration("x", { [member]: twoByte(cap + 1) }),
      });
      expectInvalid(ctx, over, member, `${cap + 1}-cp ${member}`);
      await newSession(ctx, fx.a, ctx.unique(caseId.toLowerCase()), { [member]: twoByte(cap) });
    },
  );
}

/** The metadata and roster cases C-42…C-47. */
export const METADATA_CASES: readonly ConformanceCase[] = [
  C42,
  C43,
  C44,
  C45,
  roundTrip("C-46", "brigade_version", 64, "session.brigade_version"),
  roundTrip("C-47", "sync_peer", 256, "session.sync_peer"),
];
