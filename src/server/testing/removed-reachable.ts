import type { SendResponse } from "../../protocol/index.ts";
import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";
import { UnitDecoratingService } from "./unit-decorating-service.ts";

/**
 * The `removed_reachable` lookup for one send by `caller`: every membership but the caller's
 * reads as active, so the recipient session of a member who left or was removed is addressed as
 * if its owner were still there (the caller's own membership stays real: a removed sender is
 * still refused).
 *
 * @example store.withNextTransaction(ownersStayActiveTx("p-1"), () => service.sendMessage(…))
 */
export function ownersStayActiveTx(caller: string): (tx: StoreTx) => StoreTx {
  return (tx) =>
    overrideTx(tx, {
      async getMembership(teamRef, principalRef) {
        const real = await tx.getMembership(teamRef, principalRef);
        if (real === null || principalRef === caller) return real;
        return { ...real, status: "active" };
      },
    });
}

/**
 * Mutant `removed_reachable` (docs/22-conformance.md, "Mutant contract"): `message send` accepts
 * a message to a session whose owner left the team or was removed from it, as it would to a
 * closed session of a member (see {@link ownersStayActiveTx}). Every other verb is the real one.
 * The suite must fail C-55, and nothing else.
 *
 * @example const service = new RemovedReachableService(openSqliteStore(":memory:"));
 */
export class RemovedReachableService extends UnitDecoratingService {
  /** `message send` that reaches the sessions of members who are gone. */
  override sendMessage(
    principalRef: string,
    teamRef: string,
    send: unknown,
  ): Promise<SendResponse> {
    return this.decorateNext(ownersStayActiveTx(principalRef), () =>
      super.sendMessage(principalRef, teamRef, send),
    );
  }
}
