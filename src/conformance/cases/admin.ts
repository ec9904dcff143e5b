import { type ConformanceCase, defineCase } from "../case.ts";
import type { Call, Principal } from "../context.ts";
import {
  createTeam,
  findSession,
  listSessions,
  newSession,
  randomId,
  rebind,
  receive,
  sendOk,
} from "../operations.ts";
import { adminTeam, expectNotCreator, join, rotate } from "./fresh-team.ts";
import { detail, principalRef } from "./helpers.ts";

/**
 * The `team.admin` cases **[ours]**: BAP/1 leaves the shapes of `team rotate-secret`,
 * `team revoke-member` and `team transfer` to the adapter; these cases use Brigade's
 * (docs/20-protocol.md): no stdin, `--principal <principal_ref>` for the member acted on. Every
 * case builds its own team from fresh principals: rotating a fixture team's secret would break
 * the cases that join it.
 */
const ADMIN_CAPS = ["team.admin", "team.create", "team.join"] as const;

const C48 = defineCase(
  "C-48",
  "team rotate-secret: creator only (a non-member identical to an unknown team); the old secret is refused at once, the new one admits, members stay",
  ADMIN_CAPS,
  async (ctx) => {
    const { creator, team, joined } = await adminTeam(ctx, "C48", 1);
    const [member] = joined;
    if (member === undefined || team.secret === undefined) return ctx.fail("no C-48 team");
    expectNotCreator(ctx, await rotate(ctx, member, "C-48 member"), "rotate-secret by a member");
    const outsider = ctx.freshPrincipal("c48-outsider");
    const own = await createTeam(ctx, outsider, "C48 outsider");
    const answers: Call[] = [];
    for (const ref of [team.ref, randomId("t-")]) {
      await rebind(ctx, outsider, ref);
      answers.push(await rotate(ctx, outsider, "C-48 outsider"));
    }
    await rebind(ctx, outsider, own.ref);
    const [foreign, unknown] = answers;
    if (foreign !== undefined && unknown !== undefined) {
      ctx.expectError(foreign, "unauthorized", 5, "rotate-secret by a non-member");
      ctx.expectIdentical(foreign, unknown, "non-member vs unknown team");
    }

    const result = ctx.ok(await rotate(ctx, creator, "C-48 rotated"), "rotate-secret");
    const secret = result.join_secret;
    ctx.check(result.team_ref === team.ref, "rotate-secret: team_ref is not the team's");
    if (typeof secret !== "string" || !secret.startsWith(`brg1.${team.ref}.`)) {
      return ctx.fail("rotate-secret: join_secret is not brg1.<team_ref>.<secret>");
    }
    ctx.check(secret !== team.secret, "rotate-secret: the secret did not change");
    const late = ctx.freshPrincipal("c48-late");
    ctx.expectError(
      await join(ctx, late, team.secret),
      "unauthorized",
      5,
      "join with the old secret",
    );
    const admitted = ctx.ok(await join(ctx, late, secret), "join with the new secret");
    ctx.check(admitted.team_ref === team.ref, "join with the new secret: wrong team_ref");
    ctx.ok(await ctx.call(member, ["team", "members"]), "team members by a member after rotation");
  },
);

const C49 = defineCase(
  "C-49",
  "team revoke-member: creator only, not itself; the member's sessions close, its watch ends, its token is refused in the team, no secret readmits it; its sent message stays",
  ADMIN_CAPS,
  async (ctx) => {
    const { creator, team, joined } = await adminTeam(ctx, "C49", 1);
    const [member] = joined;
    if (member === undefined || team.secret === undefined) return ctx.fail("no C-49 team");
    const creatorRef = await principalRef(ctx, creator);
    const memberRef = await principalRef(ctx, member);
    const creatorSession = await newSession(ctx, creator, "c49-creator");
    const memberSession = await newSession(ctx, member, "c49-member");
    const sent = await sendOk(ctx, member, memberSession, creatorSession, "c49 sent before");
    const watch = ctx.watch(member, memberSession);
    await watch.waitFor((e) => e.event === "ready", 10_000);

    const revoke = (by: Principal, ref: string) =>
      ctx.call(by, ["team", "revoke-member", "--principal", ref]);
    expectNotCreator(ctx, await revoke(member, creatorRef), "revoke-member by a member");
    const self = await revoke(creator, creatorRef);
    if (ctx.expectError(self, "conflict", 7, "the creator revoking itself")) {
      ctx.check(
        detail(self, "reason") === "team_creator",
        "self-revoke: reason is not team_creator",
      );
    }
    ctx.expectError(
      await revoke(creator, randomId("p-")),
      "not_found",
      6,
      "revoke an unknown principal",
    );

    const result = ctx.ok(await revoke(creator, memberRef), "revoke-member");
    ctx.check(
      result.revoked === true && result.principal_ref === memberRef && result.team_ref === team.ref,
      "revoke-member: result shape",
    );
    const exit = await watch.finish(10_000);
    ctx.check(
      exit !== undefined && exit !== 0,
      "the revoked member's watch did not exit with an error",
    );
    for (const args of [
      ["message", "receive", "--session", memberSession],
      ["team", "members"],
    ]) {
      const what = `${args.slice(0, 2).join(" ")} after revoke`;
      ctx.expectError(await ctx.call(member, args), "unauthorized", 5, what);
    }
    ctx.expectError(
      await join(ctx, member, team.secret),
      "unauthorized",
      5,
      "rejoin with the secret",
    );
    const rotated = ctx.ok(await rotate(ctx, creator, "C-49 rotated"), "rotate-secret");
    if (typeof rotated.join_secret === "string") {
      ctx.expectError(
        await join(ctx, member, rotated.join_secret),
        "unauthorized",
        5,
        "rejoin with a rotated secret",
      );
    }
    const list = await listSessions(ctx, creator, ["--include-offline"]);
    ctx.check(
      findSession(list, memberSession) === undefined,
      "the revoked member's session is listed",
    );
    const inbox = await receive(ctx, creator, creatorSession);
    ctx.check(
      inbox.some((m) => m.message_id === sent.message_id),
      "the revoked member's message was not kept for its recipient",
    );
  },
);

const C50 = defineCase(
  "C-50",
  "team transfer: creator only, to an active member, who accepts it; the new creator can administer, the old one stays a member and cannot",
  ADMIN_CAPS,
  async (ctx) => {
    const { creator, team, joined } = await adminTeam(ctx, "C50", 1);
    const [heir] = joined;
    if (heir === undefined) return ctx.fail("no C-50 team");
    const creatorRef = await principalRef(ctx, creator);
    const heirRef = await principalRef(ctx, heir);
    const transfer = (by: Principal, ref: string) =>
      ctx.call(by, ["team", "transfer", "--principal", ref]);
    expectNotCreator(ctx, await transfer(heir, heirRef), "transfer by a member");
    ctx.expectError(
      await transfer(creator, randomId("p-")),
      "not_found",
      6,
      "transfer to a stranger",
    );
    const result = ctx.ok(await transfer(creator, heirRef), "transfer");
    ctx.check(
      result.team_ref === team.ref &&
        result.creator_principal_ref === creatorRef &&
        result.offered_to_principal_ref === heirRef,
      "transfer: result shape",
    );
    const accepted = ctx.ok(await ctx.call(heir, ["team", "accept-transfer"]), "accept-transfer");
    ctx.check(
      accepted.team_ref === team.ref && accepted.creator_principal_ref === heirRef,
      "accept-transfer: result shape",
    );
    expectNotCreator(
      ctx,
      await rotate(ctx, creator, "C-50 old creator"),
      "rotate-secret by the old creator",
    );
    ctx.ok(await ctx.call(creator, ["team", "members"]), "team members by the old creator");
    ctx.ok(await rotate(ctx, heir, "C-50 rotated"), "rotate-secret by the new creator");
    ctx.ok(
      await ctx.call(heir, ["team", "revoke-member", "--principal", creatorRef]),
      "revoke-member of the old creator by the new one",
    );
    ctx.expectError(
      await ctx.call(creator, ["team", "members"]),
      "unauthorized",
      5,
      "team members by the revoked old creator",
    );
  },
);

/** The `team.admin` cases C-48…C-50 **[ours]**. */
export const ADMIN_CASES: readonly ConformanceCase[] = [C48, C49, C50];
