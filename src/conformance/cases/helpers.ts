import type { Fixture } from "../case.ts";
import type { Call, Principal, SuiteContext } from "../context.ts";
import { describe, joinTeam } from "../operations.ts";

/** A fresh principal joined to T1 (isolates rate limits and inbox caps from other cases). */
export async function freshMember(
  ctx: SuiteContext,
  fx: Fixture,
  prefix: string,
): Promise<Principal> {
  const p = ctx.freshPrincipal(prefix);
  await joinTeam(ctx, p, fx.t1);
  return p;
}

/** The `principal_ref` `describe` reports for a joined principal. */
export async function principalRef(ctx: SuiteContext, p: Principal): Promise<string> {
  const profile = ((await describe(ctx, p)).profile ?? {}) as Record<string, unknown>;
  return String(profile.principal_ref);
}

/** The error's `details` member `key`, or undefined. */
export function detail(call: Call, key: string): string | undefined {
  return call.envelope?.error?.details?.[key];
}

/** `n` copies of a two-byte code point (é): catches adapters that count bytes, not code points. */
export function twoByte(n: number): string {
  return "é".repeat(n);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Records a failure unless `call` is `invalid_input` (exit 3) naming `field`. */
export function expectInvalid(ctx: SuiteContext, call: Call, field: string, what: string): void {
  if (ctx.expectError(call, "invalid_input", 3, what)) {
    ctx.check(detail(call, "field") === field, `${what}: details.field is not ${field}`);
  }
}
