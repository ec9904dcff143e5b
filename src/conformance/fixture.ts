import type { Fixture } from "./case.ts";
import type { SuiteContext } from "./context.ts";
import {
  createTeam,
  describe,
  joinTeam,
  newSession,
  runSetup,
  type TeamInfo,
} from "./operations.ts";

/**
 * The wall budget of one run (docs/spec/protocol.md §12.2): fixture sessions' leases must outlive
 * it.
 */
export const RUN_WALL_BUDGET_SECONDS = 480;

/**
 * Sets up the docs/spec/protocol.md §12.2 fixture. Reads `describe` first (capabilities, lease
 * range) and refuses the run (`CaseFailure`) when `lease.max_seconds` is shorter than the wall
 * budget.
 */
export async function setUpFixture(ctx: SuiteContext): Promise<Fixture> {
  const a = ctx.principal("A");
  const b = ctx.principal("B");
  const c = ctx.principal("C");
  const d = await describe(ctx, a);
  ctx.describeResult = d;
  ctx.capabilities = new Set(Array.isArray(d.capabilities) ? (d.capabilities as string[]) : []);
  const leaseDoc = (d.lease ?? {}) as Record<string, unknown>;
  const lease = {
    min: Number(leaseDoc.min_seconds),
    def: Number(leaseDoc.default_seconds),
    max: Number(leaseDoc.max_seconds),
  };
  if (!Number.isFinite(lease.max) || lease.max < RUN_WALL_BUDGET_SECONDS) {
    ctx.fail(
      `lease.max_seconds is shorter than the run's ${RUN_WALL_BUDGET_SECONDS} s wall budget`,
    );
  }
  let t1: TeamInfo;
  let t2: TeamInfo;
  if (ctx.capabilities.has("team.create")) {
    t1 = await createTeam(ctx, a, "T1");
    await joinTeam(ctx, b, t1);
    t2 = await createTeam(ctx, c, "T2");
  } else {
    await runSetup(ctx, a, "T1");
    await runSetup(ctx, b, "T1");
    await runSetup(ctx, c, "T2");
    t1 = await teamFromDescribe(ctx, a, "T1");
    t2 = await teamFromDescribe(ctx, c, "T2");
  }
  const extra = { lease_seconds: lease.max };
  const sessionA = await newSession(ctx, a, "fixture-a", extra);
  const sessionB = await newSession(ctx, b, "fixture-b", extra);
  const sessionC = await newSession(ctx, c, "fixture-c", extra);
  return { a, b, c, t1, t2, sessionA, sessionB, sessionC, lease };
}

async function teamFromDescribe(
  ctx: SuiteContext,
  p: Fixture["a"],
  label: string,
): Promise<TeamInfo> {
  const profile = ((await describe(ctx, p)).profile ?? {}) as Record<string, unknown>;
  if (typeof profile.team_ref !== "string") ctx.fail(`--setup did not bind ${p.name}`);
  return {
    label,
    ref: profile.team_ref as string,
    name: String(profile.team_name),
    secret: undefined,
  };
}
