import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type ConformanceCase, defineCase } from "../case.ts";
import type { Principal, SuiteContext } from "../context.ts";
import { looksLikeStackTrace } from "../context.ts";
import { describe, findSession, listSessions, newSession, profileState } from "../operations.ts";
import { JOIN_SECRET_SHAPE } from "../wire-constants.ts";
import { detail, freshMember, principalRef, sleep } from "./helpers.ts";

function entries(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    out.push(path);
    if (name.isDirectory()) out.push(...entries(path));
  }
  return out;
}

function tree(ctx: SuiteContext, p: Principal): string[] {
  return [p.configDir, p.stateDir, p.home, join(ctx.runDir, "shared")].flatMap(entries);
}

const C01 = defineCase(
  "C-01",
  "describe on an empty principal: ok, unconfigured, creates nothing, offline, does not read stdin",
  [],
  async (ctx) => {
    const p = ctx.freshPrincipal("empty");
    const before = tree(ctx, p);
    const call = await ctx.call(p, ["describe"], {
      stdin: "held-open",
      offline: true,
      timeoutMs: 10_000,
    });
    const d = ctx.ok(call, "describe");
    ctx.check(d.protocol_version === "1", 'protocol_version is not "1"');
    const profile = (d.profile ?? {}) as Record<string, unknown>;
    ctx.check(profile.state === "unconfigured", "profile.state is not unconfigured");
    for (const key of ["team_ref", "team_name", "principal_ref", "human_label"]) {
      ctx.check(!(key in profile), `profile.${key} present while unconfigured`);
    }
    ctx.check(tree(ctx, p).length === before.length, "describe created files");
  },
);

const C02 = defineCase(
  "C-02",
  "unknown verb/flag → 2 with an envelope; malformed JSON → 3; stdin over 1 MiB → 3",
  [],
  async (ctx, fx) => {
    ctx.expectError(await ctx.call(fx.a, ["session", "frobnicate"]), "usage", 2, "unknown verb");
    ctx.expectError(await ctx.call(fx.a, ["frobnicate"]), "usage", 2, "unknown group");
    ctx.expectError(
      await ctx.call(fx.a, ["describe", "--include-offline"]),
      "usage",
      2,
      "unknown flag",
    );
    ctx.expectError(
      await ctx.call(fx.a, ["session", "list", "--frob"]),
      "usage",
      2,
      "unknown flag",
    );
    const bad = await ctx.call(fx.a, ["session", "register"], { stdin: '{"session_name": ' });
    if (ctx.expectError(bad, "invalid_input", 3, "malformed JSON")) {
      ctx.check(
        detail(bad, "reason") === "malformed_json",
        "malformed JSON: reason is not malformed_json",
      );
    }
    const huge = `{"harness":"x","pad":"${"a".repeat(1_048_576)}"}`;
    const big = await ctx.call(fx.a, ["session", "register"], { stdin: huge });
    if (ctx.expectError(big, "invalid_input", 3, "stdin over 1 MiB")) {
      ctx.check(detail(big, "field") === "stdin", "stdin over 1 MiB: details.field is not stdin");
    }
    const empty = await ctx.call(fx.a, ["session", "register"], { stdin: "" });
    ctx.expectError(empty, "invalid_input", 3, "empty stdin");
  },
);

function parseSecret(secret: string): { ref: string; half: string } | undefined {
  if (!secret.startsWith("brg1.")) return undefined;
  const rest = secret.slice(5);
  const dot = rest.lastIndexOf(".");
  if (dot <= 0 || dot === rest.length - 1) return undefined;
  return { ref: rest.slice(0, dot), half: rest.slice(dot + 1) };
}

const C03 = defineCase(
  "C-03",
  "team create: four members, the secret parses, describe says joined; --prompt on a pipe → 2",
  ["team.create"],
  async (ctx) => {
    const p = ctx.freshPrincipal("creator");
    const call = await ctx.call(p, ["team", "create"], {
      stdin: { team_name: ctx.unique("c03") },
      stdoutMayCarrySecret: true,
    });
    const r = ctx.ok(call, "team create");
    for (const key of ["team_ref", "team_name", "join_secret", "principal_ref"]) {
      ctx.check(typeof r[key] === "string" && r[key] !== "", `team create: ${key} missing`);
    }
    if (typeof r.join_secret === "string") {
      ctx.secrets.push({ label: "join secret of a C-03 team", value: r.join_secret });
      const parsed = parseSecret(r.join_secret);
      ctx.check(
        parsed?.ref === r.team_ref,
        "join_secret does not parse as brg1.<team_ref>.<secret>",
      );
    }
    const d = await describe(ctx, p);
    const profile = (d.profile ?? {}) as Record<string, unknown>;
    ctx.check(profile.state === "joined", "describe after create is not joined");
    ctx.check(profile.team_ref === r.team_ref, "describe team_ref differs from team create");
    const q = ctx.freshPrincipal("prompter");
    const prompt = await ctx.call(q, ["team", "create", "--prompt"], { stdin: "{}\n" });
    ctx.expectError(prompt, "usage", 2, "--prompt on a pipe");
  },
);

const C03b = defineCase(
  "C-03b",
  "team create or team join on a bound profile → 7 profile_bound, binding unchanged",
  ["team.create", "team.join"],
  async (ctx, fx) => {
    const before = (await describe(ctx, fx.c)).profile as Record<string, unknown>;
    const again = await ctx.call(fx.c, ["team", "create"], {
      stdin: { team_name: ctx.unique("c03b") },
      stdoutMayCarrySecret: true,
    });
    if (ctx.expectError(again, "conflict", 7, "second team create")) {
      ctx.check(
        detail(again, "reason") === "profile_bound",
        "second team create: reason is not profile_bound",
      );
    }
    const join = await ctx.call(fx.c, ["team", "join"], { stdin: { join_secret: fx.t1.secret } });
    if (ctx.expectError(join, "conflict", 7, "team join on a bound profile")) {
      ctx.check(
        detail(join, "reason") === "profile_bound",
        "team join: reason is not profile_bound",
      );
    }
    const after = (await describe(ctx, fx.c)).profile as Record<string, unknown>;
    ctx.check(after.team_ref === before.team_ref, "binding changed");
  },
);

const C04 = defineCase(
  "C-04",
  "team join binds; wrong secret → 5 identical to unknown team; bound → 7; backend not object → 3; --prompt → 2",
  ["team.join"],
  async (ctx, fx) => {
    const secret = fx.t1.secret;
    if (secret === undefined) return ctx.fail("no T1 join secret");
    const p = ctx.freshPrincipal("joiner");
    const r = ctx.ok(
      await ctx.call(p, ["team", "join"], { stdin: { join_secret: secret } }),
      "team join",
    );
    ctx.check(r.team_ref === fx.t1.ref, "team join: team_ref is not T1's");
    ctx.check(r.rejoined === false, "team join: rejoined is not false");
    ctx.check(
      typeof r.principal_ref === "string" && typeof r.team_name === "string",
      "team join: members missing",
    );
    ctx.check((await profileState(ctx, p)) === "joined", "describe after join is not joined");

    const q = ctx.freshPrincipal("wrong");
    const wrong = await ctx.call(q, ["team", "join"], {
      stdin: { join_secret: `brg1.${fx.t1.ref}.wrongsecret0123` },
    });
    ctx.expectError(wrong, "unauthorized", 5, "wrong secret");
    const unknown = await ctx.call(q, ["team", "join"], {
      stdin: { join_secret: "brg1.no-such-team-4711.wrongsecret0123" },
    });
    ctx.expectError(unknown, "unauthorized", 5, "unknown team");
    ctx.expectIdentical(wrong, unknown, "wrong secret vs unknown team");

    if (fx.t2.secret !== undefined) {
      const other = await ctx.call(p, ["team", "join"], { stdin: { join_secret: fx.t2.secret } });
      ctx.expectError(other, "conflict", 7, "join another team on a bound profile");
    }
    const s = ctx.freshPrincipal("backend");
    const backend = await ctx.call(s, ["team", "join"], {
      stdin: { join_secret: secret, backend: "x" },
    });
    if (ctx.expectError(backend, "invalid_input", 3, "backend not an object")) {
      ctx.check(detail(backend, "field") === "backend", "backend: details.field is not backend");
    }
    const prompt = await ctx.call(ctx.freshPrincipal("prompt"), ["team", "join", "--prompt"], {
      stdin: "{}\n",
    });
    ctx.expectError(prompt, "usage", 2, "--prompt on a pipe");
  },
);

const C05 = defineCase(
  "C-05",
  "--join-secret → 2; no secret in describe, on stderr at debug, or on disk",
  [],
  async (ctx, fx) => {
    const secret = fx.t1.secret ?? "brg1.t.notasecret0000";
    const p = ctx.freshPrincipal("argv");
    for (const args of [
      ["team", "join", "--join-secret", secret],
      ["team", "create", "--join-secret", secret],
      ["describe", "--join-secret", secret],
    ]) {
      ctx.expectError(
        await ctx.call(p, args),
        "usage",
        2,
        `${args.slice(0, 2).join(" ")} --join-secret`,
      );
    }
    for (const who of [fx.a, fx.b, fx.c]) {
      const call = await ctx.call(who, ["describe"]);
      JOIN_SECRET_SHAPE.lastIndex = 0;
      ctx.check(
        !JOIN_SECRET_SHAPE.test(call.stdout),
        `describe of ${who.name} carries a secret shape`,
      );
    }
    // stderr and stdout of every call are scanned globally; the run directory at the end.
  },
);

const UNBOUND_CALLS: readonly (readonly [string[], unknown])[] = [
  [
    ["session", "register"],
    { harness: "x", harness_version: "1", session_name: "n", activity: "busy", inbound: "accept" },
  ],
  [["session", "list"], undefined],
  [["session", "heartbeat", "--session", "s-none"], {}],
  [["session", "close", "--session", "s-none"], undefined],
  [["message", "receive", "--session", "s-none"], undefined],
  [
    ["message", "send"],
    { sender_session_id: "s-none", recipient_session_id: "s-none2", body: "x" },
  ],
];

const C06 = defineCase(
  "C-06",
  "session/message verbs on an unbound profile → 4 or 11, no stack trace, retryable present",
  [],
  async (ctx) => {
    const p = ctx.freshPrincipal("unbound");
    for (const [args, stdin] of UNBOUND_CALLS) {
      const call = await ctx.call(p, args, { stdin });
      const what = args.slice(0, 2).join(" ");
      ctx.check(
        call.exit === 4 || call.exit === 11,
        `${what}: exit ${call.exit}, expected 4 or 11`,
      );
      ctx.check(call.envelope?.ok === false, `${what}: no error envelope`);
      ctx.check(!looksLikeStackTrace(call.stderr + call.stdout), `${what}: stack trace printed`);
    }
  },
);

const C07 = defineCase(
  "C-07",
  "profile.state walks unconfigured → not_member → joined without network",
  ["team.join"],
  async (ctx, fx) => {
    const p = ctx.freshPrincipal("walker");
    ctx.check(
      (await profileState(ctx, p, true)) === "unconfigured",
      "fresh profile is not unconfigured",
    );
    ctx.ok(
      await ctx.call(p, ["team", "join"], { stdin: { join_secret: fx.t1.secret } }),
      "team join",
    );
    ctx.ok(await ctx.call(p, ["team", "leave"]), "team leave");
    ctx.check(
      (await profileState(ctx, p, true)) === "not_member",
      "after leave the state is not not_member",
    );
    ctx.ok(
      await ctx.call(p, ["team", "join"], { stdin: { join_secret: fx.t1.secret } }),
      "team rejoin",
    );
    ctx.check(
      (await profileState(ctx, p, true)) === "joined",
      "after join the state is not joined",
    );
  },
);

const C08 = defineCase(
  "C-08",
  "team leave: shape, not_member, later verbs → 11, sessions hidden, idempotent, rejoin, watch notices",
  ["team.join"],
  async (ctx, fx) => {
    const p = await freshMember(ctx, fx, "leaver");
    const ref = await principalRef(ctx, p);
    const sid = await newSession(ctx, p, "leaver-session");
    const watch = ctx.watch(p, sid);
    await watch.waitFor((e) => e.event === "ready", 10_000);
    const r = ctx.ok(await ctx.call(p, ["team", "leave"]), "team leave");
    ctx.check(
      r.left === true && r.team_ref === fx.t1.ref && r.principal_ref === ref,
      "team leave: result shape",
    );
    ctx.check(
      (await profileState(ctx, p)) === "not_member",
      "describe after leave is not not_member",
    );
    const later = await ctx.call(p, ["session", "list"]);
    ctx.check(later.exit === 11, `session list after leave: exit ${later.exit}, expected 11`);
    const list = await listSessions(ctx, fx.a, ["--include-offline"]);
    ctx.check(findSession(list, sid) === undefined, "the leaver's session is still listed to A");
    ctx.ok(await ctx.call(p, ["team", "leave"]), "second team leave");
    const exit = await watch.finish(10_000);
    ctx.check(
      exit !== undefined && exit !== 0,
      "the running watch did not exit with an error after the leave",
    );
    const again = ctx.ok(
      await ctx.call(p, ["team", "join"], { stdin: { join_secret: fx.t1.secret } }),
      "rejoin",
    );
    ctx.check(again.rejoined === true, "rejoin: rejoined is not true");
    ctx.check(again.principal_ref === ref, "rejoin: principal_ref changed");
    await sleep(0);
  },
);

/** The profile and team cases C-01…C-08. */
export const PROFILE_AND_TEAM_CASES: readonly ConformanceCase[] = [
  C01,
  C02,
  C03,
  C03b,
  C04,
  C05,
  C06,
  C07,
  C08,
];
