import { cpSync } from "node:fs";
import { type ConformanceCase, defineCase } from "../case.ts";
import type { Call, Principal, SuiteContext } from "../context.ts";
import {
  findSession,
  listSessions,
  newSession,
  profileState,
  randomId,
  receive,
  send,
  sendOk,
} from "../operations.ts";
import { adminTeam, expectNotCreator, join, rotate } from "./fresh-team.ts";
import { detail, freshMember, principalRef, sleep } from "./helpers.ts";

/**
 * The team-lifecycle cases **[ours]** (docs/20-protocol.md, "Team lifecycle"): what a team does
 * when members go, when its creator goes, when it changes hands and when a credential is
 * replaced. Each builds its own team from fresh principals.
 */
const LIFECYCLE_CAPS = ["team.admin", "team.create", "team.join"] as const;

const C55 = defineCase(
  "C-55",
  "a send to a session of a member who was removed or left is 6, byte-identical to a session that does not exist; a member who rejoins is reachable again",
  LIFECYCLE_CAPS,
  async (ctx) => {
    const { creator, team, joined } = await adminTeam(ctx, "C55", 3);
    const [sender, removed, leaver] = joined;
    if (sender === undefined || removed === undefined || leaver === undefined) {
      return ctx.fail("no C-55 team");
    }
    if (team.secret === undefined) return ctx.fail("no C-55 secret");
    const from = await newSession(ctx, sender, "c55-sender");
    const removedSession = await newSession(ctx, removed, "c55-removed");
    const leaverSession = await newSession(ctx, leaver, "c55-leaver");
    await sendOk(ctx, sender, from, removedSession, "c55 before");

    ctx.ok(
      await ctx.call(creator, [
        "team",
        "revoke-member",
        "--principal",
        await principalRef(ctx, removed),
      ]),
      "revoke-member",
    );
    ctx.ok(await ctx.call(leaver, ["team", "leave"]), "team leave");

    const nowhere = await send(ctx, sender, from, randomId("s-"), "c55 nowhere");
    ctx.expectError(nowhere, "not_found", 6, "a send to an unknown session");
    const answers: [string, Call][] = [
      ["the removed member's session", await send(ctx, sender, from, removedSession, "c55 x")],
      ["the departed member's session", await send(ctx, sender, from, leaverSession, "c55 x")],
    ];
    for (const [whose, call] of answers) {
      ctx.expectError(call, "not_found", 6, `a send to ${whose}`);
      ctx.expectIdentical(call, nowhere, `a send to ${whose} vs an unknown session`);
    }

    ctx.ok(await join(ctx, leaver, team.secret), "the departed member rejoins");
    await sendOk(ctx, sender, from, leaverSession, "c55 after the rejoin");
  },
);

const C56 = defineCase(
  "C-56",
  "a creator who leaves a team others are in is refused (7 team_creator) and stays its bound, administering member; once alone it may leave",
  LIFECYCLE_CAPS,
  async (ctx) => {
    const { creator, joined } = await adminTeam(ctx, "C56", 1);
    const [member] = joined;
    if (member === undefined) return ctx.fail("no C-56 team");
    const session = await newSession(ctx, creator, "c56-creator");
    const refused = await ctx.call(creator, ["team", "leave"]);
    if (ctx.expectError(refused, "conflict", 7, "team leave by the creator")) {
      ctx.check(detail(refused, "reason") === "team_creator", "leave: reason is not team_creator");
    }
    ctx.check(
      (await profileState(ctx, creator)) === "joined",
      "the refused creator's profile is no longer bound",
    );
    ctx.ok(await ctx.call(creator, ["team", "members"]), "team members by the refused creator");
    const listed = await listSessions(ctx, creator, ["--session", session]);
    ctx.check(findSession(listed, session) !== undefined, "the refused creator's session closed");
    ctx.ok(await rotate(ctx, creator, "C-56 rotated"), "rotate-secret by the refused creator");

    ctx.ok(await ctx.call(member, ["team", "leave"]), "team leave by the member");
    ctx.ok(await ctx.call(creator, ["team", "leave"]), "team leave by the creator, alone");
  },
);

const C57 = defineCase(
  "C-57",
  "team transfer is an offer: the team stays the creator's until the member named accepts it; only that member can, a new offer replaces the last; then the new creator administers and the previous one may leave",
  LIFECYCLE_CAPS,
  async (ctx) => {
    const { creator, team, joined } = await adminTeam(ctx, "C57", 2);
    const [heir, other] = joined;
    if (heir === undefined || other === undefined) return ctx.fail("no C-57 team");
    const creatorRef = await principalRef(ctx, creator);
    const heirRef = await principalRef(ctx, heir);
    const otherRef = await principalRef(ctx, other);
    const offer = (to: string) => ctx.call(creator, ["team", "transfer", "--principal", to]);
    const accept = (by: Principal) => ctx.call(by, ["team", "accept-transfer"]);

    const offered = ctx.ok(await offer(heirRef), "transfer");
    ctx.check(
      offered.team_ref === team.ref &&
        offered.creator_principal_ref === creatorRef &&
        offered.offered_to_principal_ref === heirRef,
      "transfer: the result does not name the creator and the member offered the team",
    );
    expectNotCreator(
      ctx,
      await rotate(ctx, heir, "C-57 early"),
      "rotate-secret by the member offered the team, before it accepts",
    );
    ctx.ok(await rotate(ctx, creator, "C-57 creator"), "rotate-secret by the creator");
    ctx.expectError(await accept(other), "not_found", 6, "accept-transfer by another member");
    ctx.expectError(await accept(creator), "not_found", 6, "accept-transfer by the creator");

    ctx.ok(await offer(otherRef), "a second transfer");
    ctx.expectError(await accept(heir), "not_found", 6, "accept-transfer of a replaced offer");
    ctx.ok(await offer(heirRef), "a third transfer");

    const accepted = ctx.ok(await accept(heir), "accept-transfer");
    ctx.check(
      accepted.team_ref === team.ref &&
        accepted.creator_principal_ref === heirRef &&
        accepted.previous_creator_principal_ref === creatorRef,
      "accept-transfer: the result does not name the new and the previous creator",
    );
    ctx.expectError(await accept(heir), "not_found", 6, "accept-transfer a second time");
    expectNotCreator(
      ctx,
      await rotate(ctx, creator, "C-57 old"),
      "rotate-secret by the previous creator",
    );
    ctx.ok(await rotate(ctx, heir, "C-57 heir"), "rotate-secret by the new creator");
    ctx.ok(await ctx.call(creator, ["team", "leave"]), "team leave by the previous creator");
  },
);

/**
 * A second principal holding a copy of `p`'s configuration and state folders, as a leaked copy of
 * its credential would be: the same token, whatever the adapter's file format.
 */
function copyOf(ctx: SuiteContext, p: Principal, prefix: string): Principal {
  const copy = ctx.freshPrincipal(prefix);
  cpSync(p.configDir, copy.configDir, { recursive: true });
  cpSync(p.stateDir, copy.stateDir, { recursive: true });
  return copy;
}

/** How long a rotated-out token may keep working anywhere (several server processes, a cache). */
const TOKEN_REFUSED_WITHIN_MS = 5000;

const C58 = defineCase(
  "C-58",
  "profile rotate-token: a new credential for the same member; a copy of the old one is refused on every verb within 5 s, and cannot rotate again",
  ["profile.rotate_token", "team.join"],
  async (ctx, fx) => {
    const member = await freshMember(ctx, fx, "c58");
    const memberRef = await principalRef(ctx, member);
    const session = await newSession(ctx, member, "c58");
    const leaked = copyOf(ctx, member, "c58-copy");
    ctx.ok(
      await ctx.call(leaked, ["team", "members"]),
      "team members with a copy of the credential",
    );

    const rotated = ctx.ok(await ctx.call(member, ["profile", "rotate-token"]), "rotate-token");
    const start = Date.now();
    ctx.check(
      rotated.principal_ref === memberRef && rotated.rotated === true,
      "rotate-token: the result does not name the same principal, rotated",
    );
    // Refused three times running: every process of a backend behind a balancer refuses it.
    let refusedInARow = 0;
    while (refusedInARow < 3 && Date.now() - start <= TOKEN_REFUSED_WITHIN_MS) {
      const call = await ctx.call(leaked, ["team", "members"]);
      refusedInARow = call.envelope?.error?.code === "unauthenticated" ? refusedInARow + 1 : 0;
      if (refusedInARow === 0) await sleep(100);
    }
    if (!ctx.check(refusedInARow === 3, "the old token still works 5 s after the rotation")) return;
    ctx.note(`old token refused everywhere after ${Date.now() - start} ms`);
    for (const args of [
      ["session", "list"],
      ["message", "receive", "--session", session],
      ["profile", "rotate-token"],
    ]) {
      ctx.expectError(
        await ctx.call(leaked, args),
        "unauthenticated",
        4,
        `${args.join(" ")} with the old token`,
      );
    }
    // The same member with the new one: its session is still its own.
    ctx.ok(await ctx.call(member, ["team", "members"]), "team members after the rotation");
    await receive(ctx, member, session);
    const listed = await listSessions(ctx, member, ["--session", session]);
    ctx.check(
      findSession(listed, session) !== undefined,
      "the member's session is gone after the rotation",
    );
  },
);

/** The team-lifecycle cases **[ours]**. */
export const LIFECYCLE_CASES: readonly ConformanceCase[] = [C55, C56, C57, C58];
