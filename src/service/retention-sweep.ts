import {
  BLOB_GC_BATCH_SIZE,
  INVITATION_RETENTION_MS,
  JOIN_ATTEMPT_WINDOW_MS,
  SERVICE_RETENTION,
  STALE_BLOB_CONTENT_MS,
  UNNAMED_BLOB_RETENTION_MS,
  UNUSED_PRINCIPAL_RETENTION_MS,
  UNUSED_TEAM_RETENTION_MS,
} from "./service-config.ts";
import type { ServiceContext } from "./service-context.ts";
import type { GarbageCounts } from "./store.ts";

/** What one whole sweep removed: the rows of each kind, and blobs and stale upload contents. */
export interface SweepCounts extends GarbageCounts {
  blobs: number;
  blob_contents: number;
}

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
 * batch, until a batch comes back short; then the blobs the removed messages no longer name (and
 * uploads that never finished), {@link BLOB_GC_BATCH_SIZE} a transaction. The contract is
 * `BrigadeService.collectGarbage`.
 */
export async function collectGarbage(
  ctx: ServiceContext,
  now: number,
  batchSize: number,
): Promise<SweepCounts> {
  const total: SweepCounts = {
    messages: 0,
    sessions: 0,
    join_failures: 0,
    invitations: 0,
    teams: 0,
    principals: 0,
    blobs: 0,
    blob_contents: 0,
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
    if (!more) break;
  }
  const blobBounds = {
    unnamedUploadedBefore: now - UNNAMED_BLOB_RETENTION_MS,
    staleContentBefore: now - STALE_BLOB_CONTENT_MS,
    limit: BLOB_GC_BATCH_SIZE,
  };
  for (;;) {
    const counts = await ctx.store.transact((tx) => tx.collectBlobs(blobBounds));
    total.blobs += counts.blobs;
    total.blob_contents += counts.contents;
    if (counts.blobs < blobBounds.limit && counts.contents < blobBounds.limit) return total;
  }
}
