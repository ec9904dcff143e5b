import {
  BapError,
  invalidInputError,
  type JsonValue,
  MAX_STDIN_DOCUMENT_BYTES,
  parseJsonDocument,
  valueOrThrow,
} from "../protocol/index.ts";

/**
 * Reads a request body as one strict BAP/1 JSON document: at most 1 MiB (read stops as soon as
 * the cap is passed), valid UTF-8, no duplicate member names. An absent or whitespace-only body
 * reads as `{}` for routes whose verb takes no input; for the others it is `invalid_input`
 * (`field = "stdin"`, as an adapter's empty stdin would be).
 *
 * A body the connection fails to deliver in full (the client hung up or reset mid-body) is
 * `invalid_input`, `field = "stdin"`, `reason = "read_error"`, as an adapter's broken stdin would
 * be: the client's doing, never an `internal` error of the server.
 *
 * @throws BapError `invalid_input` with the protocol's `details` (never the body itself).
 */
export async function readJsonBody(request: Request, required: boolean): Promise<JsonValue> {
  const header = request.headers.get("content-length");
  const declared = Number(header ?? "0");
  if (declared > MAX_STDIN_DOCUMENT_BYTES) throw tooLong(declared);
  // With a declared length within the cap, Node's parser delivers exactly that many bytes, so one
  // buffered read is bounded; it also skips the web-stream body (no stream, reader or chunk list).
  // Without one (chunked), the capped streaming read stops as soon as the cap is passed.
  const bytes = await (header !== null && DECIMAL.test(header)
    ? readDeclared(request, MAX_STDIN_DOCUMENT_BYTES)
    : readLimited(request, MAX_STDIN_DOCUMENT_BYTES)
  ).catch((error: unknown) => {
    // The cap's own refusal passes; any other failure is the connection's, not the server's.
    throw error instanceof BapError
      ? error
      : new BapError(invalidInputError("stdin", "read_error"));
  });
  if (!required && isBlank(bytes)) return {};
  return valueOrThrow(parseJsonDocument(bytes));
}

function tooLong(actual: number): BapError {
  return new BapError(
    invalidInputError("stdin", "too_long", {
      limit: String(MAX_STDIN_DOCUMENT_BYTES),
      actual: String(actual),
      unit: "bytes",
    }),
  );
}

const DECIMAL = /^[0-9]{1,7}$/;

async function readDeclared(request: Request, limit: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > limit) throw tooLong(bytes.byteLength);
  return bytes;
}

async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLong(total);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  return true;
}
