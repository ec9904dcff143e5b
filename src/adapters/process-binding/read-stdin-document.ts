import {
  invalidInputError,
  type JsonValue,
  MAX_STDIN_DOCUMENT_BYTES,
  parseJsonDocument,
  type ValidationResult,
} from "../../protocol/index.ts";

/**
 * Reads one stdin JSON document to EOF (docs/spec/protocol.md §1.3) and never throws: ≤ 1 MiB
 * (bytes past the cap are counted, not kept, so `details.actual` is the size given), UTF-8, one
 * strict JSON document (duplicate members refused); failures are the `parseJsonDocument` ones, plus
 * `field = "stdin"`, `reason = "read_error"` when the stream fails.
 *
 * @example
 * const doc = await readStdinDocument(process.stdin);
 * if (!doc.ok) print(errorEnvelope(doc.error));
 */
export async function readStdinDocument(
  stdin: AsyncIterable<Uint8Array>,
  maxBytes: number = MAX_STDIN_DOCUMENT_BYTES,
): Promise<ValidationResult<JsonValue>> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let total = 0;
  try {
    for await (const chunk of stdin) {
      total += chunk.byteLength;
      if (total <= maxBytes) {
        chunks.push(chunk);
        kept += chunk.byteLength;
      }
    }
  } catch {
    return { ok: false, error: invalidInputError("stdin", "read_error") };
  }
  if (total > maxBytes) {
    return {
      ok: false,
      error: invalidInputError("stdin", "too_long", {
        limit: String(maxBytes),
        actual: String(total),
        unit: "bytes",
      }),
    };
  }
  const bytes = new Uint8Array(kept);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return parseJsonDocument(bytes, { maxBytes });
}
