import type { TeamTransferResult } from "../../protocol/index.ts";
import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";
import { UnitDecoratingService } from "./unit-decorating-service.ts";

/**
 * The `eager_transfer` write for one `team transfer`: the offer it records also makes the member
 * it names the creator at once, before that member accepted anything (an acceptance then finds
 * the offer and changes nothing more).
 *
 * @example store.withNextTransaction(handOverAtOnceTx, () => service.transferTeam(p, t, target))
 */
export function handOverAtOnceTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, {
    async updateTeam(row) {
      const heir = row.offered_to_principal_ref;
      return tx.updateTeam(heir === null ? row : { ...row, creator_principal_ref: heir });
    },
  });
}

/**
 * Mutant `eager_transfer` (docs/22-conformance.md, "Mutant contract"): `team transfer` hands the
 * team over the moment it is offered (see {@link handOverAtOnceTx}), so the member named
 * administers, and the creator no longer does, before anyone accepted. Every other verb is the
 * real one, `team accept-transfer` included. The suite must fail C-57 and C-95 (whose member
 * would hold the team although its offer lapsed unaccepted), and nothing else.
 *
 * @example const service = new EagerTransferService(openSqliteStore(":memory:"));
 */
export class EagerTransferService extends UnitDecoratingService {
  /** `team transfer` that needs no acceptance. */
  override transferTeam(
    principalRef: string,
    teamRef: string,
    target: unknown,
  ): Promise<TeamTransferResult> {
    return this.decorateNext(handOverAtOnceTx, () =>
      super.transferTeam(principalRef, teamRef, target),
    );
  }
}
