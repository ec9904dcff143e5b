import { createHash } from "node:crypto";
import type { Store, StoreTx } from "../../service/store.ts";
import type {
  ExportedBlob,
  ExportedChunk,
  LiveBrowserSignIns,
  StoreSnapshot,
} from "../sqlite/sqlite-export.ts";

/** Rows written per store unit (one transaction each). */
export const MIGRATION_BATCH_ROWS = 500;

/** The kinds of rows a migration copies, in copy order (blobs before the messages naming them). */
export const MIGRATED_KINDS = [
  "principals",
  "teams",
  "memberships",
  "invitations",
  "sessions",
  "blobs",
  "messages",
  "join_failures",
] as const;

/** Chunks of a blob's content written per store unit: 4 MiB of 256 KiB chunks. */
export const MIGRATION_BATCH_CHUNKS = 16;
/** One of {@link MIGRATED_KINDS}. */
export type MigratedKind = (typeof MIGRATED_KINDS)[number];

/** Per kind: rows in the source, rows written now, rows already there, and the digests compared. */
export interface KindReport {
  source: number;
  copied: number;
  already_present: number;
  /** SHA-256 (hex) over the source rows in order, each as the target read it back. */
  target_digest: string;
  /** SHA-256 (hex) over the source rows in order, as the source holds them. */
  source_digest: string;
}

/** What {@link migrateStore} did; `verified` is true when every digest matched. */
export interface MigrationReport {
  readonly kinds: Readonly<Record<MigratedKind, KindReport>>;
  readonly verified: boolean;
  /**
   * What the copy leaves behind on purpose that still worked when it ran: dashboard browser
   * sessions and login links (their people sign in again; docs/51-postgres.md, "Moving from
   * SQLite").
   */
  readonly not_carried: LiveBrowserSignIns;
}

/**
 * Why a migration stopped: the target holds data and the caller did not allow a re-run
 * (`target_not_empty`), the target holds data a server has used (`target_served`: a copy could
 * undo that server's changes, so it is never allowed), or a row read back differs
 * (`verification_failed`).
 */
export const MIGRATION_FAILURES = [
  "target_not_empty",
  "target_served",
  "verification_failed",
] as const;
/** One of {@link MIGRATION_FAILURES}. */
export type MigrationFailure = (typeof MIGRATION_FAILURES)[number];

/** The copy could not be completed or did not verify (value-free; nothing in the source changes). */
export class MigrationError extends Error {
  readonly code = "migration_failed" as const;
  readonly reason: MigrationFailure;
  constructor(reason: MigrationFailure) {
    super(`the migration stopped (${reason})`);
    this.name = "MigrationError";
    this.reason = reason;
  }
}

/** Options of {@link migrateStore}. */
export interface MigrateOptions {
  /** Whether the target already holds any data (the caller asks its store). */
  readonly targetHoldsData: boolean;
  /**
   * Whether a server has opened the target (the caller asks its store). A server's writes
   * (a revoked member, a rotated secret, a transfer, an ack) are newer than the source, and a
   * re-run lets the source win on what can change, so a served target holding data is refused.
   */
  readonly targetServed: boolean;
  /**
   * Copy into a target that holds data and no server has used (a re-run of an interrupted copy):
   * rows already there are kept when identical;
   * mutable rows (teams' admin columns, memberships, sessions, acks) take the source's values;
   * join failures are copied on a first run only (they would count twice).
   */
  readonly intoNonEmpty?: boolean;
  /** The time (ms) at which browser sign-ins are counted as still working; default now. */
  readonly now?: number;
}

/** JSON of `row` with its keys sorted, so the same values digest the same whatever the store. */
function canonical(row: object): string {
  const record = row as Record<string, unknown>;
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((k) => [k, record[k]]),
    ),
  );
}

/** A running digest and counters for one kind. */
class Tally {
  readonly #source = createHash("sha256");
  readonly #target = createHash("sha256");
  source = 0;
  copied = 0;
  present = 0;
  add(source: object, target: object | null): void {
    this.source++;
    this.#source.update(`${canonical(source)}\n`);
    this.#target.update(`${target === null ? "∅" : canonical(target)}\n`);
  }
  report(): KindReport {
    return {
      source: this.source,
      copied: this.copied,
      already_present: this.present,
      source_digest: this.#source.digest("hex"),
      target_digest: this.#target.digest("hex"),
    };
  }
}

/** Runs `write` over `rows` in units of {@link MIGRATION_BATCH_ROWS}. */
async function inBatches<T>(
  target: Store,
  rows: Iterable<T>,
  write: (tx: StoreTx, row: T) => Promise<void>,
): Promise<void> {
  let batch: T[] = [];
  const flush = async (): Promise<void> => {
    const now = batch;
    batch = [];
    if (now.length === 0) return;
    await target.transact(async (tx) => {
      for (const row of now) await write(tx, row);
    });
  };
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= MIGRATION_BATCH_ROWS) await flush();
  }
  await flush();
}

/**
 * Copies every row of `source` into `target` through the Store port, then reads each one back
 * and compares: principals, teams (with their first-use mark), memberships, invitations (their
 * digests, uses and ends), sessions, blobs (with their uploaders, and their bytes read back and
 * hashed), messages (with their ack state, their message state — a report, a move to an adopting
 * session, a release by their person — their attachments and idempotency keys, in their original
 * order, so inboxes, rate windows, hop counts and replays answer the same) and recorded join
 * failures (`EXPORTED_COLUMNS`). Dashboard sign-ins are not carried (`NOT_EXPORTED_TABLES`): the
 * report counts those still working at `options.now` (`not_carried`). Refuses, with
 * nothing written, a target that holds data a server has used (`MigrationError` `target_served`,
 * whatever `intoNonEmpty` says) and one that holds data unless `intoNonEmpty`
 * (`target_not_empty`); throws `MigrationError` `verification_failed` when a row read back
 * differs. A re-run with `intoNonEmpty` is safe: what is already there is not duplicated.
 *
 * @example
 * const report = await migrateStore(openSqliteExport(file), pgStore, {
 *   targetHoldsData: false,
 *   targetServed: false,
 * });
 */
export async function migrateStore(
  source: StoreSnapshot,
  target: Store,
  options: MigrateOptions,
): Promise<MigrationReport> {
  if (options.targetHoldsData && options.targetServed) throw new MigrationError("target_served");
  if (options.targetHoldsData && options.intoNonEmpty !== true)
    throw new MigrationError("target_not_empty");
  const tally = Object.fromEntries(MIGRATED_KINDS.map((k) => [k, new Tally()])) as Record<
    MigratedKind,
    Tally
  >;

  await inBatches(target, source.principals(), async (tx, row) => {
    if ((await tx.principalByTokenDigest(row.token_digest)) === row.principal_ref) {
      tally.principals.present++;
      return;
    }
    await tx.insertPrincipal(row);
    tally.principals.copied++;
  });
  await inBatches(target, source.teams(), async (tx, { used_at, ...team }) => {
    if ((await tx.getTeam(team.team_ref)) === null) {
      await tx.insertTeam(team);
      tally.teams.copied++;
    } else {
      await tx.updateTeam(team);
      tally.teams.present++;
    }
    if (used_at !== null) await tx.markTeamUsed(team.team_ref, used_at);
  });
  await inBatches(target, source.memberships(), async (tx, row) => {
    const present = (await tx.getMembership(row.team_ref, row.principal_ref)) !== null;
    await tx.putMembership(row);
    if (present) tally.memberships.present++;
    else tally.memberships.copied++;
  });
  // An invitation already there stays as it is: its uses and its end are the target's to count
  // from then on, and one that differs from the source is named by the verification.
  await inBatches(target, source.invitations(), async (tx, row) => {
    if ((await tx.getInvitation(row.team_ref, row.invitation_id)) !== null) {
      tally.invitations.present++;
      return;
    }
    await tx.insertInvitation(row);
    tally.invitations.copied++;
  });
  await inBatches(target, source.sessions(), async (tx, row) => {
    if ((await tx.getSession(row.session_id)) === null) {
      await tx.insertSession(row);
      tally.sessions.copied++;
    } else {
      await tx.updateSession(row);
      tally.sessions.present++;
    }
  });
  for (const blob of source.blobs()) {
    if (await copyBlob(source, target, blob)) tally.blobs.copied++;
    else tally.blobs.present++;
  }
  await inBatches(target, source.messages(), async (tx, exported) => {
    const { sent_to_session_id, disposition, disposition_at, released_at, ...row } = exported;
    const there = await tx.getMessage(row.message_id);
    if (there === null) {
      await tx.insertMessage(row, { sent_to_session_id, disposition, disposition_at, released_at });
      tally.messages.copied++;
      return;
    }
    tally.messages.present++;
    // A report made since the last run; a move made since then does not verify (it is reported).
    if (there.acked_at === null && disposition !== null && disposition_at !== null)
      await tx.setDisposition(
        row.message_id,
        row.recipient_session_id,
        disposition,
        disposition_at,
      );
    // A release made since then: the target keeps the first release time, as a store does.
    if (there.acked_at === null && released_at !== null)
      await tx.releaseMessage(row.message_id, row.recipient_session_id, released_at);
    if (there.acked_at === null && row.acked_at !== null)
      await tx.ackMessage(row.message_id, row.recipient_session_id, row.acked_at);
  });
  if (!options.targetHoldsData) {
    await inBatches(target, source.joinFailures(), async (tx, row) => {
      await tx.recordJoinFailure(row.principal_ref, row.at);
      tally.join_failures.copied++;
    });
  }

  // Verification: every source row read back from the target, digested in source order.
  await verify(source, target, tally, !options.targetHoldsData);
  const kinds = Object.fromEntries(MIGRATED_KINDS.map((k) => [k, tally[k].report()])) as Record<
    MigratedKind,
    KindReport
  >;
  const verified = MIGRATED_KINDS.every((k) => kinds[k].source_digest === kinds[k].target_digest);
  if (!verified) throw new MigrationError("verification_failed");
  return { kinds, verified, not_carried: source.liveBrowserSignIns(options.now ?? Date.now()) };
}

/**
 * Copies one blob (capability `message.attachments`): its content a few chunks per unit, then, in
 * one unit, the blob and its uploaders. A blob already in the target (a re-run) only gets the
 * uploaders it lacks; a content an interrupted run left without its blob is written again. True
 * when the blob was copied, false when it was there.
 */
async function copyBlob(
  source: StoreSnapshot,
  target: Store,
  blob: ExportedBlob,
): Promise<boolean> {
  const { uploaders, ...row } = blob;
  const there = await target.transact((tx) => tx.getBlob(row.team_ref, row.sha256));
  if (there === null) {
    await target.transact(async (tx) => {
      await tx.deleteBlobContent(row.content_id);
      await tx.insertBlobContent({
        content_id: row.content_id,
        team_ref: row.team_ref,
        sha256: row.sha256,
        size: row.size,
        created_at: row.created_at,
      });
    });
    let batch: ExportedChunk[] = [];
    const flush = async (): Promise<void> => {
      const now = batch;
      batch = [];
      if (now.length === 0) return;
      await target.transact(async (tx) => {
        for (const chunk of now) await tx.putBlobChunk(row.content_id, chunk.seq, chunk.data);
      });
    };
    for (const chunk of source.blobChunks(row.content_id)) {
      batch.push(chunk);
      if (batch.length >= MIGRATION_BATCH_CHUNKS) await flush();
    }
    await flush();
  }
  await target.transact(async (tx) => {
    if (there === null) await tx.insertBlob(row);
    for (const uploader of uploaders) {
      await tx.putBlobUploader(
        row.team_ref,
        row.sha256,
        uploader.principal_ref,
        uploader.uploaded_at,
      );
    }
  });
  return there === null;
}

/**
 * The blob as the target holds it, with its uploaders, or `null` when it is missing or its
 * content, read back a chunk at a time, does not hash to its digest and size.
 */
async function readBackBlob(target: Store, blob: ExportedBlob): Promise<ExportedBlob | null> {
  const row = await target.transact((tx) => tx.getBlob(blob.team_ref, blob.sha256));
  if (row === null) return null;
  const hash = createHash("sha256");
  let size = 0;
  for (let seq = 0; ; seq++) {
    const chunk = await target.transact((tx) => tx.blobChunk(row.content_id, seq));
    if (chunk === null) break;
    hash.update(chunk);
    size += chunk.byteLength;
  }
  if (size !== row.size || hash.digest("hex") !== row.sha256) return null;
  const uploaders = await target.transact((tx) => tx.blobUploaders(row.team_ref, row.sha256));
  return { ...row, uploaders };
}

async function verify(
  source: StoreSnapshot,
  target: Store,
  tally: Record<MigratedKind, Tally>,
  joinFailuresCopied: boolean,
): Promise<void> {
  const read = <T, R extends object>(
    rows: Iterable<T>,
    kind: MigratedKind,
    readBack: (tx: StoreTx, row: T) => Promise<R | null>,
    sourceView: (row: T) => object = (row) => row as object,
  ) =>
    inBatches(target, rows, async (tx, row) => {
      tally[kind].add(sourceView(row), await readBack(tx, row));
    });
  await read(source.principals(), "principals", async (tx, row) =>
    (await tx.principalByTokenDigest(row.token_digest)) === row.principal_ref ? row : null,
  );
  await read(
    source.teams(),
    "teams",
    (tx, row) => tx.getTeam(row.team_ref),
    ({ used_at: _used, ...team }) => team,
  );
  await read(source.memberships(), "memberships", (tx, row) =>
    tx.getMembership(row.team_ref, row.principal_ref),
  );
  await read(source.invitations(), "invitations", (tx, row) =>
    tx.getInvitation(row.team_ref, row.invitation_id),
  );
  await read(source.sessions(), "sessions", (tx, row) => tx.getSession(row.session_id));
  for (const blob of source.blobs()) tally.blobs.add(blob, await readBackBlob(target, blob));
  await read(source.messages(), "messages", async (tx, row) => {
    const message = await tx.getMessage(row.message_id);
    if (message === null) return null;
    const [state] = await tx.sentMessages(message.sender_session_id, {
      messageIds: [row.message_id],
    });
    if (state === undefined) return null;
    const { sent_to_session_id, disposition, disposition_at, released_at } = state;
    return { ...message, sent_to_session_id, disposition, disposition_at, released_at };
  });
  if (joinFailuresCopied) {
    // Join failures have no key to read back by: their count per principal is what the limiter sees.
    const perPrincipal = new Map<string, number[]>();
    for (const row of source.joinFailures()) {
      const times = perPrincipal.get(row.principal_ref) ?? [];
      times.push(row.at);
      perPrincipal.set(row.principal_ref, times);
    }
    await inBatches(target, perPrincipal, async (tx, [principal, times]) => {
      const oldest = Math.min(...times);
      const there = await tx.joinFailuresSince(principal, oldest - 1);
      const same = there.count === times.length && there.oldest === oldest;
      for (const at of times) {
        const row = { principal_ref: principal, at };
        tally.join_failures.add(row, same ? row : null);
      }
    });
  }
}
