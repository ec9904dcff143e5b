import type { TeamLeaveResult } from "../../protocol/index.ts";
import {
  BrigadeService,
  type ServiceDeps,
  type Store,
  type StoreTx,
  systemDeps,
} from "../../service/index.ts";
import { DecoratedStore, overrideTx } from "./decorated-store.ts";

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
export class CreatorLeavesService extends BrigadeService {
  readonly #store: DecoratedStore;

  /** Wraps `store` so single units can be decorated; `deps` as for {@link BrigadeService}. */
  constructor(store: Store, deps: ServiceDeps = systemDeps()) {
    const decorated = new DecoratedStore(store);
    super(decorated, deps);
    this.#store = decorated;
  }

  /** `team leave` that never holds the creator back. */
  override leaveTeam(principalRef: string, teamRef: string): Promise<TeamLeaveResult> {
    return this.#store.withNextTransaction(nobodyElseTx, () =>
      super.leaveTeam(principalRef, teamRef),
    );
  }
}
