import {
  INVITATION_RETENTION_MS,
  JOIN_ATTEMPT_WINDOW_MS,
  SERVICE_RETENTION,
  UNUSED_PRINCIPAL_RETENTION_MS,
  UNUSED_TEAM_RETENTION_MS,
} from "./service-config.ts";
import type { ServiceContext } from "./service-context.ts";
import type { GarbageCounts } from "./store.ts";

const SECOND_MS = 1000;
const GARBAGE_KINDS = [
  "messages",
  "sessions",
  "join_failures",
  "invitations",
  "teams",
  "principals",
] as const;

/**
 * The retention sweep at `now` (ms), in batches of `batchSize` rows per kind, one transaction per
 * batch, until a batch comes back short; the contract is `BrigadeService.collectGarbage`.
 */
export async function collectGarbage(
  ctx: ServiceContext,
  now: number,
  batchSize: number,
): Promise<GarbageCounts> {
  const total: GarbageCounts = {
    messages: 0,
    sessions: 0,
    join_failures: 0,
    invitations: 0,
    teams: 0,
    principals: 0,
  };
  const bounds = {
    ackedBefore: now - SERVICE_RETENTION.acked_message_seconds * SECOND_MS,
    unackedCreatedBefore: now - SERVICE_RETENTION.unacked_message_seconds * SECOND_MS,
    sessionOfflineBefore: now - SERVICE_RETENTION.closed_session_seconds * SECOND_MS,
    joinFailuresBefore: now - JOIN_ATTEMPT_WINDOW_MS,
    invitationEndedBefore: now - INVITATION_RETENTION_MS,
    unusedTeamCreatedBefore: now - UNUSED_TEAM_RETENTION_MS,
    unusedPrincipalCreatedBefore: now - UNUSED_PRINCIPAL_RETENTION_MS,
    limit: Math.max(1, Math.floor(batchSize)),
  };
  for (;;) {
    const counts = await ctx.store.transact((tx) => tx.collectGarbage(bounds));
    // A deleted principal's token must stop authenticating at once.
    if (counts.principals > 0) ctx.principals.clear();
    let more = false;
    for (const kind of GARBAGE_KINDS) {
      total[kind] += counts[kind];
      if (counts[kind] >= bounds.limit) more = true;
    }
    if (!more) return total;
  }
}
