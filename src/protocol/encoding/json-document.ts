import { invalidInputError } from "../errors/error-builders.ts";
import { MAX_STDIN_DOCUMENT_BYTES } from "../limits.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import type { JsonValue } from "./json-value.ts";
import { parseStrictJson } from "./strict-json.ts";

// fatal: invalid UTF-8 (overlongs, surrogates, truncation) throws; ignoreBOM: a BOM stays in the
// text, where the JSON grammar refuses it, instead of being silently dropped.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 strictly; `undefined` when the bytes are not well-formed UTF-8. Never throws.
 *
 * @example
 * decodeUtf8Strict(new Uint8Array([0xc3, 0xa9])) === "é";
 * decodeUtf8Strict(new Uint8Array([0xff])) === undefined;
 */
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Options of {@link parseJsonDocument}. */
export interface JsonDocumentOptions {
  /** Byte cap; defaults to 1 MiB (`MAX_STDIN_DOCUMENT_BYTES`). */
  readonly maxBytes?: number;
}

function isJsonWhitespaceOnly(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

/**
 * Reads one stdin JSON document (docs/spec/protocol.md §1.3, §2.1) and never throws. In order:
 * - over the cap (1 MiB) → `invalid_input`, `field = "stdin"`, `reason = "too_long"`, `limit`,
 *   `actual` (the bytes given), `unit = "bytes"`;
 * - empty or only JSON whitespace → `field = "stdin"`, `reason = "required"`;
 * - not UTF-8, or a lone-surrogate `\u` escape → `field = "stdin"`, `reason = "not_utf8"`;
 * - a repeated member name at any depth → `reason = "duplicate_member"` (no field: the name is
 *   input);
 * - anything else unparsable (incl. a BOM) → `reason = "malformed_json"`, no field.
 * Surrounding JSON whitespace (e.g. one trailing newline) is allowed.
 *
 * @example
 * parseJsonDocument(new TextEncoder().encode('{"message_ids":["m-1"]}\n')); // ok
 * parseJsonDocument(new Uint8Array()); // details { field: "stdin", reason: "required" }
 */
export function parseJsonDocument(
  bytes: Uint8Array,
  options?: JsonDocumentOptions,
): ValidationResult<JsonValue> {
  const maxBytes = options?.maxBytes ?? MAX_STDIN_DOCUMENT_BYTES;
  if (bytes.length > maxBytes) {
    return {
      ok: false,
      error: invalidInputError("stdin", "too_long", {
        limit: String(maxBytes),
        actual: String(bytes.length),
        unit: "bytes",
      }),
    };
  }
  if (isJsonWhitespaceOnly(bytes)) {
    return { ok: false, error: invalidInputError("stdin", "required") };
  }
  const text = decodeUtf8Strict(bytes);
  if (text === undefined) return { ok: false, error: invalidInputError("stdin", "not_utf8") };
  const parsed = parseStrictJson(text);
  if (parsed.ok) return parsed;
  switch (parsed.reason) {
    case "not_utf8":
      return { ok: false, error: invalidInputError("stdin", "not_utf8") };
    case "duplicate_member":
      return { ok: false, error: invalidInputError(undefined, "duplicate_member") };
    case "malformed_json":
      return { ok: false, error: invalidInputError(undefined, "malformed_json") };
  }
}
