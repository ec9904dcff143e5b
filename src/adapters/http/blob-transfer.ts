import {
  ATTACHMENT_LIMITS,
  BapError,
  type BlobDeclaration,
  type BlobDownload,
  type BlobUploadResult,
  internalError,
  invalidInputError,
  isSha256Hex,
  unavailableError,
  validateBlobDeclaration,
  validateBlobUploadResult,
  valueOrThrow,
} from "../../protocol/index.ts";
import { answerOf, callSignal, isAbortLike, MAX_RESPONSE_BYTES } from "./http-client.ts";
import { readBoundedBody } from "./read-bounded-body.ts";
import { type TeamContext, teamPath } from "./team-context.ts";

/**
 * Budget of one blob transfer, in ms (10 minutes): 25 MiB at about 350 kbit/s. An upload or a
 * download is one request whose length grows with the file, so the per-call budget of the JSON
 * verbs (15 s) does not fit it; the caller's own signal still cancels it.
 */
export const BLOB_TRANSFER_TIMEOUT_MS: number = 10 * 60_000;

/** The failure of a transfer the network or a timeout cut off: `unavailable` (retryable). */
function cutOff(error: unknown, signal: AbortSignal | undefined): BapError {
  const aborted = isAbortLike(error) || signal?.aborted === true;
  return new BapError(aborted ? unavailableError("timeout") : unavailableError(), {
    cause: error,
  });
}

/** `bytes` as a web stream pulled a chunk at a time (the request body of an upload). */
function requestBody(bytes: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = bytes[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * `message upload` over HTTP (`PUT /v1/teams/<team>/blobs/<sha256>?size=N`, docs/30-http-api.md):
 * the declaration is checked first (`invalid_input`; a size over the protocol's 25 MiB is
 * `too_long` on `size`, before any network call), then `bytes` stream to the server as a chunked
 * body, never held whole. The server compares them with the declaration.
 */
export async function uploadBlob(
  ctx: TeamContext,
  declared: BlobDeclaration,
  bytes: AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<BlobUploadResult> {
  const blob = valueOrThrow(validateBlobDeclaration(declared));
  if (blob.size > ATTACHMENT_LIMITS.max_attachment_bytes) {
    throw new BapError(
      invalidInputError("size", "too_long", {
        limit: String(ATTACHMENT_LIMITS.max_attachment_bytes),
        actual: String(blob.size),
        unit: "bytes",
      }),
    );
  }
  const { transport } = ctx;
  const url = `${transport.baseUrl}${teamPath(ctx, `/blobs/${blob.sha256}`)}?size=${blob.size}`;
  let status: number;
  let answer: Uint8Array;
  try {
    const response = await transport.fetch(url, {
      method: "PUT",
      headers: {
        accept: "application/json",
        authorization: `Bearer ${ctx.token}`,
        "content-type": "application/octet-stream",
      },
      body: requestBody(bytes),
      // A streamed request body is sent while the answer may already arrive (fetch's rule).
      duplex: "half",
      signal: callSignal(signal, BLOB_TRANSFER_TIMEOUT_MS),
      redirect: "error",
    } as RequestInit);
    status = response.status;
    answer = await readBoundedBody(response, MAX_RESPONSE_BYTES);
  } catch (error) {
    if (error instanceof BapError) throw error;
    transport.logger.warn("blob_upload_failed", { reason: "network" });
    throw cutOff(error, signal);
  }
  return answerOf(transport.logger, status, answer, validateBlobUploadResult);
}

/** The whole size and the first byte of a download answer, from its headers; `null` if unusable. */
function rangeOf(response: Response, offset: number): { size: number; first: number } | null {
  const length = Number(response.headers.get("content-length") ?? Number.NaN);
  if (response.status === 200) {
    return Number.isSafeInteger(length) && length >= 0 ? { size: length, first: 0 } : null;
  }
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
  if (match === null) return null;
  const first = Number(match[1]);
  const size = Number(match[3]);
  return first === offset && Number(match[2]) === size - 1 ? { size, first } : null;
}

/**
 * The body of a download, its read failures as `unavailable` (a connection lost midway: the
 * caller resumes from what it kept), and no more bytes than the answer announced.
 */
async function* bodyOf(
  response: Response | null,
  expected: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const body = response?.body ?? null;
  if (body === null) {
    if (expected > 0) throw new BapError(unavailableError());
    return;
  }
  const reader = body.getReader();
  let seen = 0;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        throw cutOff(error, signal);
      }
      if (next.done) break;
      seen += next.value.byteLength;
      if (seen > expected) throw new BapError(internalError());
      yield next.value;
    }
    if (seen < expected) throw new BapError(unavailableError());
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * `message download` over HTTP (`GET /v1/teams/<team>/blobs/<sha256>`, with `Range: bytes=N-`
 * when `offset` > 0): an error answer is its envelope's error (a 416 naming a size equal to
 * `offset` is a download already complete: an empty body); a 200 or 206 answer is the open
 * download, its size and start read from `Content-Length` / `Content-Range` (an answer whose range
 * is not the one asked for is `internal`). The body streams; checking it against the digest is
 * the caller's.
 */
export async function openBlobDownload(
  ctx: TeamContext,
  sha256: string,
  offset: number,
  signal: AbortSignal | undefined,
): Promise<BlobDownload> {
  if (!isSha256Hex(sha256)) throw new BapError(invalidInputError("sha256", "invalid_value"));
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new BapError(invalidInputError("offset", "out_of_range"));
  }
  const { transport } = ctx;
  const headers: Record<string, string> = { authorization: `Bearer ${ctx.token}` };
  if (offset > 0) headers.range = `bytes=${offset}-`;
  let response: Response;
  try {
    response = await transport.fetch(`${transport.baseUrl}${teamPath(ctx, `/blobs/${sha256}`)}`, {
      method: "GET",
      headers,
      signal: callSignal(signal, BLOB_TRANSFER_TIMEOUT_MS),
      redirect: "error",
    });
  } catch (error) {
    transport.logger.warn("blob_download_failed", { reason: "network" });
    throw cutOff(error, signal);
  }
  // A resumed download that already holds every byte: the server's 416 names exactly that size.
  if (response.status === 416 && offset > 0) {
    const whole = /^bytes \*\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
    if (whole !== null && Number(whole[1]) === offset) {
      await response.body?.cancel().catch(() => undefined);
      return { sha256, size: offset, offset, body: bodyOf(null, 0, signal) };
    }
  }
  if (response.status !== 200 && response.status !== 206) {
    let answer: Uint8Array;
    try {
      answer = await readBoundedBody(response, MAX_RESPONSE_BYTES);
    } catch (error) {
      throw cutOff(error, signal);
    }
    // Any error the server answers; a non-error status here is no answer we know.
    answerOf(transport.logger, response.status, answer, () => ({
      ok: false,
      error: internalError(),
    }));
    throw new BapError(internalError());
  }
  const range = rangeOf(response, offset);
  // A 200 to a ranged request is the whole blob: only accepted when no range was asked for.
  if (range === null || (offset > 0 && response.status === 200)) {
    await response.body?.cancel().catch(() => undefined);
    throw new BapError(internalError());
  }
  return {
    sha256,
    size: range.size,
    offset: range.first,
    body: bodyOf(response, range.size - range.first, signal),
  };
}
