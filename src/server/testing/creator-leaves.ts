import type { TeamLeaveResult } from "../../protocol/index.ts";
import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";
import { UnitDecoratingService } from "./unit-decorating-service.ts";

/**
 * The `creator_leaves` roster for one `team leave`: the unit sees no active member, so a creator
 * always finds nobody to hand the team to and is let go.
 *
 * @example store.withNextTransaction(nobodyElseTx, () => service.leaveTeam(p, t))
 */
export function nobodyElseTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, { listActiveMembers: async () => [] });
}

/**
 * Mutant `creator_leaves` (docs/22-conformance.md, "Mutant contract"): `team leave` lets the
 * team's creator go while other members are still in the team (see {@link nobodyElseTx}), leaving
 * a team nobody administers. Every other verb is the real one. The suite must fail C-56, and
 * nothing else.
 *
 * @example const service = new CreatorLeavesService(openSqliteStore(":memory:"));
 */
export class CreatorLeavesService extends UnitDecoratingService {
  /** `team leave` that never holds the creator back. */
  override leaveTeam(principalRef: string, teamRef: string): Promise<TeamLeaveResult> {
    return this.decorateNext(nobodyElseTx, () => super.leaveTeam(principalRef, teamRef));
  }
}
