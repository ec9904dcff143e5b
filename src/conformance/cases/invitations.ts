import { type ConformanceCase, defineCase } from "../case.ts";
import type { Call, Principal, SuiteContext } from "../context.ts";
import { randomId } from "../operations.ts";
import { secretsOf } from "../secret-scan.ts";
import { adminTeam, expectNotCreator, join, rotate } from "./fresh-team.ts";
import { detail, principalRef, sleep } from "./helpers.ts";

/**
 * The invitation and label cases **[ours]** (docs/20-protocol.md, "Invitations" and "Labels";
 * docs/22-conformance.md): an invitation is a join secret of its own that admits a bounded number
 * of joins for a bounded time, made, listed and revoked by the team's creator. Each case builds
 * its own team from fresh principals. Ids C-80 to C-89.
 */
const INVITATION_CAPS = ["team.invitations", "team.create", "team.join"] as const;

/** What `team invite` answered, with the invitation registered as a known secret. */
interface Invited {
  readonly call: Call;
  readonly id: string;
  readonly secret: string;
}

/** `team invite [args]` as `p`; the invitation becomes a known secret of the run. */
async function invite(
  ctx: SuiteContext,
  p: Principal,
  label: string,
  args: readonly string[] = [],
): Promise<Invited> {
  const call = await ctx.call(p, ["team", "invite", ...args], { stdoutMayCarrySecret: true });
  const result = call.envelope?.ok === true ? (call.envelope.result ?? {}) : {};
  const secret = typeof result.invitation === "string" ? result.invitation : "";
  const id = typeof result.invitation_id === "string" ? result.invitation_id : "";
  if (secret !== "") ctx.secrets.push(...secretsOf(`invitation ${label}`, secret));
  return { call, id, secret };
}

/** The creator's `team invitations` list, by id. */
async function invitations(
  ctx: SuiteContext,
  creator: Principal,
): Promise<Map<string, Record<string, unknown>>> {
  const listed = ctx.ok(await ctx.call(creator, ["team", "invitations"]), "team invitations");
  const rows = Array.isArray(listed.invitations) ? listed.invitations : [];
  return new Map(
    rows
      .filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null)
      .map((r) => [String(r.invitation_id), r]),
  );
}

/** Records a failure unless `call` is `unauthorized` (5) with `details.reason = reason`. */
function expectSpent(ctx: SuiteContext, call: Call, reason: string, what: string): void {
  if (ctx.expectError(call, "unauthorized", 5, what)) {
    ctx.check(detail(call, "reason") === reason, `${what}: reason is not ${reason}`);
  }
}

const C80 = defineCase(
  "C-80",
  "team invite: single use and 24 h by default, a join secret (docs/spec/protocol.md §9) that team join takes; a second join is refused as used; the team's own secret still admits; creator only",
  INVITATION_CAPS,
  async (ctx) => {
    const { creator, team } = await adminTeam(ctx, "C80", 0);
    if (team.secret === undefined) return ctx.fail("no C-80 team");
    const before = Date.now();
    const made = await invite(ctx, creator, "C-80");
    const result = ctx.ok(made.call, "team invite");
    const expires = Date.parse(String(result.expires_at));
    ctx.check(
      result.team_ref === team.ref && made.id !== "" && result.max_uses === 1,
      "team invite: the result does not name the team, an id and one use",
    );
    ctx.check(
      Math.abs(expires - (before + 86_400_000)) < 10 * 60_000,
      "team invite: the invitation does not expire 24 hours after it was made",
    );
    ctx.check(
      made.secret.startsWith(`brg1.${team.ref}.`) && !/\s/.test(made.secret),
      "team invite: the invitation is not a join secret of the team (docs/spec/protocol.md §9)",
    );
    const first = ctx.freshPrincipal("C80-invited");
    const joinedWith = ctx.ok(await join(ctx, first, made.secret), "team join with the invitation");
    ctx.check(
      joinedWith.team_ref === team.ref && joinedWith.rejoined === false,
      "team join with the invitation: not a new member of the team",
    );
    const byMember = await invite(ctx, first, "C-80 member");
    expectNotCreator(ctx, byMember.call, "team invite by a member");
    const second = ctx.freshPrincipal("C80-late");
    expectSpent(ctx, await join(ctx, second, made.secret), "invitation_used", "a second join");
    ctx.ok(await join(ctx, second, team.secret), "team join with the team's own secret");
  },
);

const C81 = defineCase(
  "C-81",
  "team invite --uses 2 admits exactly two people; a member joining again with it takes no use; team invitations counts the uses",
  INVITATION_CAPS,
  async (ctx) => {
    const { creator } = await adminTeam(ctx, "C81", 0);
    const made = await invite(ctx, creator, "C-81", ["--uses", "2"]);
    ctx.check(ctx.ok(made.call, "team invite --uses 2").max_uses === 2, "max_uses is not 2");
    const [p1, p2, p3] = ["C81-a", "C81-b", "C81-c"].map((n) => ctx.freshPrincipal(n));
    if (p1 === undefined || p2 === undefined || p3 === undefined) return ctx.fail("principals");
    ctx.ok(await join(ctx, p1, made.secret), "the first join");
    const again = ctx.ok(await join(ctx, p1, made.secret), "the first member joining again");
    ctx.check(again.rejoined === true, "joining again: rejoined is not true");
    ctx.ok(await join(ctx, p2, made.secret), "the second join");
    expectSpent(ctx, await join(ctx, p3, made.secret), "invitation_used", "a third join");
    const row = (await invitations(ctx, creator)).get(made.id);
    ctx.check(
      row?.state === "used" && row.uses === 2 && row.max_uses === 2,
      "team invitations: the invitation is not listed used, 2 of 2",
    );
  },
);

const C82 = defineCase(
  "C-82",
  "team revoke-invite: a revoked invitation admits nobody and says so; revoking is idempotent and creator only; an unknown id is 6",
  INVITATION_CAPS,
  async (ctx) => {
    const { creator, joined } = await adminTeam(ctx, "C82", 1);
    const [member] = joined;
    if (member === undefined) return ctx.fail("no C-82 team");
    const made = await invite(ctx, creator, "C-82");
    ctx.ok(made.call, "team invite");
    const revoke = (p: Principal, id: string) =>
      ctx.call(p, ["team", "revoke-invite", "--invitation", id]);
    expectNotCreator(ctx, await revoke(member, made.id), "team revoke-invite by a member");
    for (const what of ["team revoke-invite", "team revoke-invite again"]) {
      const result = ctx.ok(await revoke(creator, made.id), what);
      ctx.check(result.invitation_id === made.id && result.state === "revoked", `${what}: state`);
    }
    ctx.expectError(await revoke(creator, randomId("i-")), "not_found", 6, "an unknown id");
    const p = ctx.freshPrincipal("C82-invited");
    expectSpent(ctx, await join(ctx, p, made.secret), "invitation_revoked", "a revoked invitation");
    const row = (await invitations(ctx, creator)).get(made.id);
    ctx.check(row?.state === "revoked" && row.uses === 0, "team invitations: not listed revoked");
  },
);

const C83 = defineCase(
  "C-83",
  "an invitation past its time admits nobody and says so (team invite --expires-in 1)",
  INVITATION_CAPS,
  async (ctx) => {
    const { creator } = await adminTeam(ctx, "C83", 0);
    const made = await invite(ctx, creator, "C-83", ["--expires-in", "1", "--uses", "3"]);
    ctx.ok(made.call, "team invite --expires-in 1");
    await sleep(2_500);
    const p = ctx.freshPrincipal("C83-late");
    expectSpent(
      ctx,
      await join(ctx, p, made.secret),
      "invitation_expired",
      "an expired invitation",
    );
    const row = (await invitations(ctx, creator)).get(made.id);
    ctx.check(row?.state === "expired", "team invitations: not listed expired");
  },
);

const C84 = defineCase(
  "C-84",
  "team invitations lists ids, counts and states, never a secret, creator only; team rotate-secret revokes every active invitation",
  [...INVITATION_CAPS, "team.admin"],
  async (ctx) => {
    const { creator } = await adminTeam(ctx, "C84", 0);
    const member = ctx.freshPrincipal("C84-a");
    const used = await invite(ctx, creator, "C-84 used");
    const active = await invite(ctx, creator, "C-84 active", ["--uses", "5"]);
    ctx.ok(used.call, "team invite");
    ctx.ok(active.call, "team invite --uses 5");
    ctx.ok(await join(ctx, member, used.secret), "a join");
    expectNotCreator(ctx, await ctx.call(member, ["team", "invitations"]), "a member's list");
    const listed = await invitations(ctx, creator);
    ctx.check(
      listed.get(used.id)?.state === "used" && listed.get(active.id)?.state === "active",
      "team invitations: the states are not used and active",
    );
    ctx.ok(await rotate(ctx, creator, "C-84 rotated"), "team rotate-secret");
    const late = ctx.freshPrincipal("C84-late");
    expectSpent(
      ctx,
      await join(ctx, late, active.secret),
      "invitation_revoked",
      "after a rotation",
    );
    const after = await invitations(ctx, creator);
    ctx.check(
      after.get(active.id)?.state === "revoked" && after.get(used.id)?.state === "used",
      "after a rotation: the active invitation is not revoked, or the used one changed",
    );
  },
);

const C85 = defineCase(
  "C-85",
  "a removed member cannot come back with an invitation, nor a forged or another team's one: each the uniform join rejection, and no use is taken",
  [...INVITATION_CAPS, "team.admin"],
  async (ctx) => {
    const { creator, team, joined } = await adminTeam(ctx, "C85", 1);
    const [removed] = joined;
    if (removed === undefined) return ctx.fail("no C-85 team");
    const other = await adminTeam(ctx, "C85-other", 0);
    ctx.ok(
      await ctx.call(creator, [
        "team",
        "revoke-member",
        "--principal",
        await principalRef(ctx, removed),
      ]),
      "revoke-member",
    );
    const made = await invite(ctx, creator, "C-85");
    const foreign = await invite(ctx, other.creator, "C-85 other team");
    ctx.ok(made.call, "team invite");
    ctx.ok(foreign.call, "team invite in another team");
    const stranger = ctx.freshPrincipal("C85-stranger");
    const wrong = await join(ctx, stranger, `brg1.${team.ref}.${randomId("x")}`);
    ctx.expectError(wrong, "unauthorized", 5, "a wrong secret");
    const half = (secret: string) => secret.slice(secret.lastIndexOf(".") + 1);
    const forged = `${made.secret.slice(0, -1)}${made.secret.endsWith("A") ? "B" : "A"}`;
    const attempts: [string, Call][] = [
      ["the removed member with an invitation", await join(ctx, removed, made.secret)],
      ["a forged invitation", await join(ctx, stranger, forged)],
      [
        "another team's invitation",
        await join(ctx, stranger, `brg1.${team.ref}.${half(foreign.secret)}`),
      ],
    ];
    for (const [what, call] of attempts) {
      ctx.expectError(call, "unauthorized", 5, what);
      ctx.expectIdentical(call, wrong, `${what} vs a wrong secret`);
    }
    ctx.ok(await join(ctx, stranger, made.secret), "the invitation, still unused");
  },
);

const C86 = defineCase(
  "C-86",
  "four joins racing for an invitation of two uses: exactly two get in, the others are refused as used",
  [...INVITATION_CAPS, "team.roster"],
  async (ctx) => {
    const { creator, team } = await adminTeam(ctx, "C86", 0);
    const made = await invite(ctx, creator, "C-86", ["--uses", "2"]);
    ctx.ok(made.call, "team invite --uses 2");
    const racers = Array.from({ length: 4 }, (_, i) => ctx.freshPrincipal(`C86-${i}`));
    const calls = await Promise.all(racers.map((p) => join(ctx, p, made.secret)));
    const admitted = calls.filter((c) => c.envelope?.ok === true).length;
    const used = calls.filter((c) => detail(c, "reason") === "invitation_used").length;
    ctx.check(admitted === 2, `${admitted} of 4 racing joins got in, not 2`);
    ctx.check(used === 2, `${used} of 4 racing joins were refused as used, not 2`);
    const roster = ctx.ok(await ctx.call(creator, ["team", "members"]), "team members");
    const count = Array.isArray(roster.members) ? roster.members.length : 0;
    ctx.check(count === 3, `the team ${team.ref} has ${count} members after the race, not 3`);
  },
);

const C87 = defineCase(
  "C-87",
  "team label sets the caller's own label, shown in team members, which names the team's creator; a label over 128 code points is 3",
  ["team.labels", "team.roster", "team.create", "team.join"],
  async (ctx) => {
    const { creator, joined } = await adminTeam(ctx, "C87", 1);
    const [member] = joined;
    if (member === undefined) return ctx.fail("no C-87 team");
    const label = "é".repeat(128);
    const set = ctx.ok(await ctx.call(member, ["team", "label", "--label", label]), "team label");
    const memberRef = await principalRef(ctx, member);
    ctx.check(
      set.principal_ref === memberRef && set.human_label === label,
      "team label: the result does not name the caller and its label",
    );
    const roster = ctx.ok(await ctx.call(creator, ["team", "members"]), "team members");
    const members = Array.isArray(roster.members) ? roster.members : [];
    const row = members.find(
      (m): m is Record<string, unknown> =>
        typeof m === "object" &&
        m !== null &&
        (m as Record<string, unknown>).principal_ref === memberRef,
    );
    ctx.check(row?.human_label === label, "team members: the new label is not shown");
    ctx.check(
      roster.creator_principal_ref === (await principalRef(ctx, creator)),
      "team members: creator_principal_ref does not name the creator",
    );
    const long = await ctx.call(member, ["team", "label", "--label", "é".repeat(129)]);
    if (ctx.expectError(long, "invalid_input", 3, "a 129-code-point label")) {
      ctx.check(detail(long, "field") === "human_label", "a long label: field is not human_label");
    }
  },
);

/** The invitation and label cases **[ours]**, C-80 to C-87. */
export const INVITATION_CASES: readonly ConformanceCase[] = [
  C80,
  C81,
  C82,
  C83,
  C84,
  C85,
  C86,
  C87,
];
