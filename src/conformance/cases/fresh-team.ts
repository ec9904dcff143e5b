import type { Call, Principal, SuiteContext } from "../context.ts";
import { createTeam, joinTeam, type TeamInfo } from "../operations.ts";
import { secretsOf } from "../secret-scan.ts";
import { detail } from "./helpers.ts";

/**
 * What the cases that change a team (the `team.admin` cases and the team-lifecycle cases) share:
 * each builds its own team from fresh principals, because rotating, transferring or leaving a
 * fixture team would break the cases that join it.
 */

/** A fresh team created by a fresh principal, with `members` fresh principals joined to it. */
export async function adminTeam(
  ctx: SuiteContext,
  label: string,
  members: number,
): Promise<{ creator: Principal; team: TeamInfo; joined: Principal[] }> {
  const creator = ctx.freshPrincipal(`${label}-creator`);
  const team = await createTeam(ctx, creator, label);
  const joined: Principal[] = [];
  for (let i = 0; i < members; i += 1) {
    const p = ctx.freshPrincipal(`${label}-member`);
    await joinTeam(ctx, p, team);
    joined.push(p);
  }
  return { creator, team, joined };
}

/** `team join` with `secret` (the secret goes on stdin, never on argv). */
export function join(ctx: SuiteContext, p: Principal, secret: string): Promise<Call> {
  return ctx.call(p, ["team", "join"], { stdin: { join_secret: secret } });
}

/** `team rotate-secret` as `p`; a new secret in the answer becomes a known secret. */
export async function rotate(ctx: SuiteContext, p: Principal, label: string): Promise<Call> {
  const call = await ctx.call(p, ["team", "rotate-secret"], { stdoutMayCarrySecret: true });
  const secret = call.envelope?.ok === true ? call.envelope.result?.join_secret : undefined;
  if (typeof secret === "string" && secret !== "") ctx.secrets.push(...secretsOf(label, secret));
  return call;
}

/** Records a failure unless `call` is `unauthorized` (5) with `details.reason = not_creator`. */
export function expectNotCreator(ctx: SuiteContext, call: Call, what: string): void {
  if (ctx.expectError(call, "unauthorized", 5, what)) {
    ctx.check(detail(call, "reason") === "not_creator", `${what}: reason is not not_creator`);
  }
}
