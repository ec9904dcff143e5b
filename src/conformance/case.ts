import type { Principal, SuiteContext } from "./context.ts";
import type { TeamInfo } from "./operations.ts";

/**
 * The shared fixture of docs/spec/protocol.md §12.2: principals A and B in team T1, C alone in T2,
 * one session each (`fixture-a/b/c`) registered with `lease.max_seconds`.
 */
export interface Fixture {
  readonly a: Principal;
  readonly b: Principal;
  readonly c: Principal;
  readonly t1: TeamInfo;
  readonly t2: TeamInfo;
  readonly sessionA: string;
  readonly sessionB: string;
  readonly sessionC: string;
  readonly lease: { readonly min: number; readonly def: number; readonly max: number };
}

/**
 * One conformance case: its id (`C-01`…), the rule it checks (one line), its tags (`core`,
 * `cap:<x>`, `slow`) and the capabilities it needs (the case is skipped with a reason when one
 * is not advertised). `run` records failures on `ctx` and may throw `CaseFailure`/`CaseSkip`.
 */
export interface ConformanceCase {
  readonly id: string;
  readonly rule: string;
  readonly tags: readonly string[];
  readonly capabilities: readonly string[];
  run(ctx: SuiteContext, fx: Fixture): Promise<void>;
}

/**
 * Builds a {@link ConformanceCase}; the `cap:<x>` tags are derived from `capabilities`, and `core`
 * is added unless the case is `slow`.
 *
 * @example defineCase("C-02", "usage and input errors", [], async (ctx) => {})
 */
export function defineCase(
  id: string,
  rule: string,
  capabilities: readonly string[],
  run: (ctx: SuiteContext, fx: Fixture) => Promise<void>,
  slow = false,
): ConformanceCase {
  const tags = [slow ? "slow" : "core", ...capabilities.map((c) => `cap:${c}`)];
  return { id, rule, tags, capabilities, run };
}
