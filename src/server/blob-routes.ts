import type { Context } from "hono";
import {
  BapError,
  errorEnvelope,
  invalidInputError,
  isBapError,
  okEnvelope,
} from "../protocol/index.ts";
import type { BrigadeService } from "../service/index.ts";

/** The routes' view of a request: the principal the bearer token named. */
type BlobEnv = { Variables: { principal: string } };

/** The media type of a blob's bytes, in an upload and a download. */
export const BLOB_MEDIA_TYPE = "application/octet-stream";

/** HTTP status of a `Range` that starts at or past a blob's end (RFC 9110 §15.5.17). */
const RANGE_NOT_SATISFIABLE = 416;

const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;

/**
 * An upload's request body: `bytes()` hands it to the service as an async iterable, and `drain()`
 * reads and drops whatever the service left unread (a refusal before the first byte, or midway:
 * more bytes than declared), up to `drainLimit` bytes, so the refusal reaches a client that is
 * still writing instead of a reset connection. True when the body was read to its end.
 */
class UploadBody {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | null;
  readonly #drainLimit: number;
  #ended: boolean;

  constructor(body: ReadableStream<Uint8Array> | null, drainLimit: number) {
    this.#reader = body === null ? null : body.getReader();
    this.#ended = body === null;
    this.#drainLimit = drainLimit;
  }

  async *bytes(): AsyncGenerator<Uint8Array> {
    const reader = this.#reader;
    if (reader === null) return;
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch {
        // The connection ended or failed mid-body: the client's doing, as for a JSON body.
        throw new BapError(invalidInputError("stdin", "read_error"));
      }
      const { done, value } = next;
      if (done) {
        this.#ended = true;
        return;
      }
      yield value;
    }
  }

  async drain(): Promise<boolean> {
    const reader = this.#reader;
    if (this.#ended || reader === null) return true;
    let dropped = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          this.#ended = true;
          return true;
        }
        dropped += value.byteLength;
        if (dropped > this.#drainLimit) {
          await reader.cancel();
          return false;
        }
      }
    } catch {
      // The client went away: nothing more to read.
      return false;
    }
  }
}

/**
 * `?size=` of an upload: a decimal without leading zeros; absent is `invalid_input` `required`,
 * anything else `invalid_value`, both on `size`.
 */
function declaredSize(c: Context): number {
  const raw = c.req.query("size");
  if (raw === undefined) throw new BapError(invalidInputError("size", "required"));
  if (!DECIMAL.test(raw)) throw new BapError(invalidInputError("size", "invalid_value"));
  return Number(raw);
}

/**
 * `PUT /v1/teams/:team/blobs/:sha256?size=N` (`message upload`, docs/30-http-api.md): the body is
 * the blob's bytes (`application/octet-stream`, chunked or with a `Content-Length`), streamed to
 * `BrigadeService.uploadBlob`. A `Content-Length` other than the declared size is refused before
 * a byte is read (`invalid_input` `size_mismatch`). A refusal is answered once the rest of the
 * body was read and dropped (at most `drainLimit` bytes; past that, or when the client went away,
 * the answer says `Connection: close` and the connection ends), so a client still sending gets
 * the refusal, not a reset.
 */
export async function uploadBlobRoute(
  c: Context<BlobEnv>,
  service: BrigadeService,
  drainLimit: number,
): Promise<Response> {
  const body = new UploadBody(c.req.raw.body, drainLimit);
  try {
    const size = declaredSize(c);
    const length = c.req.header("content-length");
    if (length !== undefined && length !== String(size)) {
      throw new BapError(invalidInputError("size", "size_mismatch"));
    }
    const { team, sha256 } = c.req.param() as { team: string; sha256: string };
    const result = await service.uploadBlob(
      c.get("principal"),
      team,
      { sha256, size },
      body.bytes(),
    );
    return c.json(okEnvelope(result), 200);
  } catch (error) {
    if (!(await body.drain())) c.header("connection", "close");
    throw error;
  }
}

/** A byte range asked for: from `offset`, `length` bytes or to the end. */
interface AskedRange {
  readonly offset: number;
  readonly length?: number;
}

/**
 * The one range of a `Range: bytes=FIRST-[LAST]` header, or `null` for none. Any other form (a
 * suffix, several ranges, another unit) is ignored and the whole blob sent, as RFC 9110 §14.2
 * allows.
 */
function askedRange(header: string | undefined): AskedRange | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d{1,16})-(\d{0,16})$/.exec(header.trim());
  if (match === null) return null;
  const first = Number(match[1]);
  if (match[2] === "") return { offset: first };
  const last = Number(match[2]);
  if (last < first) return null;
  return { offset: first, length: last - first + 1 };
}

/** Pulls `body` one chunk per read, so a slow reader holds back the store reads. */
function streamOf(body: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
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
 * `GET /v1/teams/:team/blobs/:sha256` (`message download`, docs/30-http-api.md): the bytes of a
 * blob the caller may read (`BrigadeService.openBlob`), 200 whole or 206 for a `Range:
 * bytes=FIRST-[LAST]` (a resumed download), with `Content-Range`, `Accept-Ranges: bytes` and the
 * digest as `ETag`; a range starting at or past the end is 416 with a `Content-Range` naming
 * only the size (RFC 9110 §14.4) and the `invalid_input` envelope. Every refusal before the first
 * byte is an envelope.
 */
export async function downloadBlobRoute(
  c: Context<BlobEnv>,
  service: BrigadeService,
): Promise<Response> {
  const { team, sha256 } = c.req.param() as { team: string; sha256: string };
  const range = askedRange(c.req.header("range"));
  const principal = c.get("principal");
  let open: Awaited<ReturnType<BrigadeService["openBlob"]>>;
  try {
    open = await service.openBlob(principal, team, sha256, range?.offset ?? 0, range?.length);
  } catch (error) {
    if (range !== null && isBapError(error) && error.details?.field === "offset") {
      const size = error.details.max ?? "0";
      return c.json(errorEnvelope(error.toJSON()), RANGE_NOT_SATISFIABLE, {
        "content-range": `bytes */${size}`,
      });
    }
    throw error;
  }
  const whole = range === null || open.length === 0;
  if (range !== null && open.length === 0 && open.size > 0) {
    await open.body[Symbol.asyncIterator]().return?.();
    return c.json(
      errorEnvelope(
        invalidInputError("offset", "out_of_range", { min: "0", max: String(open.size) }),
      ),
      RANGE_NOT_SATISFIABLE,
      { "content-range": `bytes */${open.size}` },
    );
  }
  const headers: Record<string, string> = {
    "content-type": BLOB_MEDIA_TYPE,
    "content-length": String(open.length),
    "accept-ranges": "bytes",
    etag: `"${open.sha256}"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-disposition": "attachment",
  };
  if (whole) return c.body(streamOf(open.body), 200, headers);
  headers["content-range"] = `bytes ${open.offset}-${open.offset + open.length - 1}/${open.size}`;
  return c.body(streamOf(open.body), 206, headers);
}
