import { createHash } from "node:crypto";
import {
  type BlobUploadResult,
  invalidInputError,
  notFoundError,
  teamStorageFullError,
  unavailableError,
  validateBlobDeclaration,
  valueOrThrow,
} from "../protocol/index.ts";
import { fail, requireMember } from "./access-checks.ts";
import { BLOB_CHUNK_BYTES, TEAM_STORAGE_RETRY_AFTER_MS } from "./service-config.ts";
import type { ServiceContext } from "./service-context.ts";
import type { BlobRow, StoreTx } from "./store.ts";

/**
 * An open blob (`BrigadeService.openBlob`): its digest and whole size, and `body`, the bytes of
 * `[offset, offset + length)` read from the store a chunk at a time. Iterating `body` to its end
 * (or leaving the loop) is the caller's; a blob the sweep removed meanwhile ends it with an error.
 */
export interface OpenBlob {
  readonly sha256: string;
  readonly size: number;
  readonly offset: number;
  readonly length: number;
  readonly body: AsyncIterable<Uint8Array>;
}

/**
 * Collects incoming bytes into chunks of exactly {@link BLOB_CHUNK_BYTES} (the last one shorter),
 * copying each byte once.
 */
class ChunkBuffer {
  #parts: Uint8Array[] = [];
  #bytes = 0;
  get bytes(): number {
    return this.#bytes;
  }
  push(part: Uint8Array): void {
    this.#parts.push(part);
    this.#bytes += part.byteLength;
  }
  /** Takes the first `length` bytes (at most what it holds) as one buffer. */
  take(length: number): Buffer {
    const out = Buffer.allocUnsafe(Math.min(length, this.#bytes));
    let filled = 0;
    while (filled < out.length) {
      const part = this.#parts[0] as Uint8Array;
      const used = Math.min(part.byteLength, out.length - filled);
      out.set(part.subarray(0, used), filled);
      filled += used;
      if (used === part.byteLength) this.#parts.shift();
      else this.#parts[0] = part.subarray(used);
    }
    this.#bytes -= out.length;
    return out;
  }
}

const sizeMismatch = () => fail(invalidInputError("size", "size_mismatch"));

/**
 * Chunk writes of one upload in flight at once: enough for the store to commit several in one
 * transaction and one sync (SQLite's group commit, PostgreSQL's pool), few enough that an upload
 * holds about 1 MiB whatever the file's size.
 */
const CHUNKS_IN_FLIGHT = 4;

/**
 * Reads an upload's bytes to their end, counting and hashing them, and (with `contentId`) stores
 * them as chunks, one unit each with at most {@link CHUNKS_IN_FLIGHT} writes in flight behind the
 * read: memory stays at a few chunks whatever the file's size. More bytes than declared stop the read at once;
 * fewer, or another digest, fail after it. Throws `invalid_input` `size_mismatch` /
 * `digest_mismatch` (`field` `size` / `sha256`), or whatever the body or the store throws.
 */
async function receiveBytes(
  ctx: ServiceContext,
  contentId: string | null,
  declared: { sha256: string; size: number },
  bytes: AsyncIterable<Uint8Array>,
): Promise<void> {
  const hash = createHash("sha256");
  const pending = new ChunkBuffer();
  let total = 0;
  let seq = 0;
  const writing: Promise<void>[] = [];
  const store = async (final: boolean): Promise<void> => {
    while (pending.bytes >= BLOB_CHUNK_BYTES || (final && pending.bytes > 0)) {
      const chunk = pending.take(BLOB_CHUNK_BYTES);
      if (contentId === null) continue;
      const index = seq;
      seq += 1;
      if (writing.length >= CHUNKS_IN_FLIGHT) await writing.shift();
      const write = ctx.store.transact((tx) => tx.putBlobChunk(contentId, index, chunk));
      // Awaited when its turn comes or at the end; until then a failure must not go unhandled.
      write.catch(() => undefined);
      writing.push(write);
    }
  };
  for await (const part of bytes) {
    total += part.byteLength;
    if (total > declared.size) sizeMismatch();
    hash.update(part);
    pending.push(part);
    await store(false);
  }
  await store(true);
  for (const write of writing) await write;
  if (total !== declared.size) sizeMismatch();
  if (hash.digest("hex") !== declared.sha256) {
    fail(invalidInputError("sha256", "digest_mismatch"));
  }
}

/** Removes an upload's content; a failure here leaves it to the sweep (`STALE_BLOB_CONTENT_MS`). */
async function discard(ctx: ServiceContext, contentId: string): Promise<void> {
  try {
    await ctx.store.transact((tx) => tx.deleteBlobContent(contentId));
  } catch {
    // The sweep removes contents no blob names once they are stale.
  }
}

/**
 * `message upload` **[ours]**; the contract is `BrigadeService.uploadBlob`. Order: the declaration
 * (`invalid_input`), the per-file limit (`too_long` on `size`, before any byte is read), the
 * membership (`unauthorized`), the team quota for bytes not stored yet (`team_storage_full`,
 * before any byte is read); then every byte is read and checked, also when the team already holds
 * the blob (an upload proves its uploader holds the bytes, which is what lets it name the blob in
 * a send); then, in one unit, the blob is stored (or, when another upload stored the same bytes
 * meanwhile, the new copy dropped) and the caller recorded as an uploader.
 */
export async function uploadBlob(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  declaration: unknown,
  bytes: AsyncIterable<Uint8Array>,
): Promise<BlobUploadResult> {
  const declared = valueOrThrow(validateBlobDeclaration(declaration));
  const limits = ctx.attachments;
  if (declared.size > limits.maxFileBytes) {
    fail(
      invalidInputError("size", "too_long", {
        limit: String(limits.maxFileBytes),
        actual: String(declared.size),
        unit: "bytes",
      }),
    );
  }
  const contentId = ctx.deps.newId("c");
  const stage = await ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    if ((await tx.getBlob(teamRef, declared.sha256)) !== null) return false;
    const used = await tx.teamBlobBytes(teamRef);
    if (used + declared.size > limits.teamQuotaBytes) {
      fail(teamStorageFullError(limits.teamQuotaBytes, TEAM_STORAGE_RETRY_AFTER_MS));
    }
    await tx.insertBlobContent({
      content_id: contentId,
      team_ref: teamRef,
      sha256: declared.sha256,
      size: declared.size,
      created_at: ctx.deps.now(),
    });
    return true;
  });
  let kept = false;
  try {
    await receiveBytes(ctx, stage ? contentId : null, declared, bytes);
    kept = await ctx.store.transact(async (tx) => {
      await requireMember(tx, teamRef, principalRef);
      const now = ctx.deps.now();
      const existing = await tx.getBlob(teamRef, declared.sha256);
      if (existing === null) {
        // The team's copy went (swept) while these bytes were checked without being stored.
        if (!stage) fail(unavailableError());
        await tx.insertBlob({
          team_ref: teamRef,
          sha256: declared.sha256,
          size: declared.size,
          content_id: contentId,
          created_at: now,
        });
      }
      await tx.putBlobUploader(teamRef, declared.sha256, principalRef, now);
      return existing === null;
    });
  } finally {
    if (stage && !kept) await discard(ctx, contentId);
  }
  return { sha256: declared.sha256, size: declared.size };
}

/**
 * Whether the caller may read the blob: it uploaded it, or a message of the team that names it
 * is addressed to one of its sessions.
 */
async function readableBy(tx: StoreTx, blob: BlobRow, principalRef: string): Promise<boolean> {
  const uploaders = await tx.blobUploaders(blob.team_ref, blob.sha256);
  if (uploaders.some((u) => u.principal_ref === principalRef)) return true;
  return tx.blobNamedFor(blob.team_ref, blob.sha256, principalRef);
}

/** The bytes of `[offset, end)` of a content, one chunk per unit, the next read while one is used. */
async function* chunksOf(
  ctx: ServiceContext,
  contentId: string,
  offset: number,
  end: number,
): AsyncGenerator<Uint8Array> {
  let seq = Math.floor(offset / BLOB_CHUNK_BYTES);
  let position = seq * BLOB_CHUNK_BYTES;
  const read = (index: number) => {
    const next = ctx.store.transact((tx) => tx.blobChunk(contentId, index));
    next.catch(() => undefined);
    return next;
  };
  let ahead = position < end ? read(seq) : null;
  while (ahead !== null) {
    const chunk = await ahead;
    if (chunk === null) throw new Error("the blob's content is gone");
    const start = position;
    position += chunk.byteLength;
    seq += 1;
    ahead = position < end ? read(seq) : null;
    const from = Math.max(0, offset - start);
    const to = Math.min(chunk.byteLength, end - start);
    if (to > from) yield chunk.subarray(from, to);
    if (chunk.byteLength === 0) break;
  }
  if (position < end) throw new Error("the blob's content is shorter than its size");
}

/**
 * `message download` **[ours]**; the contract is `BrigadeService.openBlob`. The membership
 * (`unauthorized`), then the blob: unknown, another team's, or neither uploaded by the caller nor
 * named by a message to one of its sessions — all the same `not_found`, byte for byte; then the
 * range (`invalid_input` `out_of_range` on `offset` past the end).
 */
export async function openBlob(
  ctx: ServiceContext,
  principalRef: string,
  teamRef: string,
  sha256: string,
  offset: number,
  length: number | undefined,
): Promise<OpenBlob> {
  const blob = await ctx.store.transact(async (tx) => {
    await requireMember(tx, teamRef, principalRef);
    const found = await tx.getBlob(teamRef, sha256);
    if (found === null || !(await readableBy(tx, found, principalRef))) fail(notFoundError());
    return found;
  });
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > blob.size) {
    fail(invalidInputError("offset", "out_of_range", { min: "0", max: String(blob.size) }));
  }
  const end = length === undefined ? blob.size : Math.min(blob.size, offset + Math.max(0, length));
  return {
    sha256: blob.sha256,
    size: blob.size,
    offset,
    length: end - offset,
    body: chunksOf(ctx, blob.content_id, offset, end),
  };
}
