import type { MessageAdoptResult, MessageStateResult } from "../../protocol/index.ts";
import type { StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";
import { UnitDecoratingService } from "./unit-decorating-service.ts";

/**
 * The `state_leak` lookup: `sentMessages` by id ignores the sender session and finds each id's
 * record under whichever session sent it, so any session reads any message's state.
 *
 * @example store.withNextTransaction(leakingStatesTx, () => service.messageState(p, t, s, r))
 */
export function leakingStatesTx(tx: StoreTx): StoreTx {
  return overrideTx(tx, {
    async sentMessages(senderSessionId, query) {
      if ("limit" in query) return tx.sentMessages(senderSessionId, query);
      const rows = [];
      for (const id of new Set(query.messageIds)) {
        const message = await tx.getMessage(id);
        if (message === null) continue;
        rows.push(...(await tx.sentMessages(message.sender_session_id, { messageIds: [id] })));
      }
      return rows;
    },
  });
}

/**
 * The `state_leak` adoption: every session the unit looks up reads as owned by `principalRef`,
 * so `message adopt` takes over any ended session of the team, whoever it belongs to.
 *
 * @example store.withNextTransaction(ownAnySessionTx("p-1"), () => service.adoptMessages(…))
 */
export function ownAnySessionTx(principalRef: string): (tx: StoreTx) => StoreTx {
  return (tx) =>
    overrideTx(tx, {
      async getSession(sessionId) {
        const row = await tx.getSession(sessionId);
        return row === null ? null : { ...row, principal_ref: principalRef };
      },
    });
}

/**
 * Mutant `state_leak` (docs/22-conformance.md, "Mutant contract"): `message state` answers for
 * any message id, whoever sent it (see {@link leakingStatesTx}), and `message adopt` skips the
 * "the caller's own session" check of the sessions it takes over (see {@link ownAnySessionTx}).
 * Every other verb is the real one. The suite must fail C-51 and C-52, and nothing else.
 *
 * @example const service = new StateLeakService(openSqliteStore(":memory:"));
 */
export class StateLeakService extends UnitDecoratingService {
  /** `message state` answering for every sender's messages. */
  override messageState(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    request: unknown,
  ): Promise<MessageStateResult> {
    return this.decorateNext(leakingStatesTx, () =>
      super.messageState(principalRef, teamRef, sessionId, request),
    );
  }

  /** `message adopt` without the ownership check of the sessions it takes over. */
  override adoptMessages(
    principalRef: string,
    teamRef: string,
    sessionId: string,
    request: unknown,
  ): Promise<MessageAdoptResult> {
    return this.decorateNext(ownAnySessionTx(principalRef), () =>
      super.adoptMessages(principalRef, teamRef, sessionId, request),
    );
  }
}
