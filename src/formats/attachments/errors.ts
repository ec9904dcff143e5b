/**
 * Every code an {@link AttachmentsError} can carry (docs/spec/formats.md §4.2).
 *
 * @example ATTACHMENTS_ERROR_CODES.includes(error.code)
 */
export const ATTACHMENTS_ERROR_CODES = [
  "TOO_MANY_FILES",
  "DUPLICATE_PATH",
  "INVALID_PATH",
] as const;

/**
 * The union of {@link ATTACHMENTS_ERROR_CODES}.
 *
 * @example const code: AttachmentsErrorCode = "INVALID_PATH";
 */
export type AttachmentsErrorCode = (typeof ATTACHMENTS_ERROR_CODES)[number];

/**
 * Thrown by `validatePaths` and `compose` for a bad file list. Messages are exactly those of
 * docs/spec/formats.md §4.2 and carry only a count or an index, never the path:
 * - `TOO_MANY_FILES`: `too many files: N exceeds the maximum of 10`
 * - `INVALID_PATH`: `invalid attachment path at index i` (shape), `…: empty or whitespace-padded
 *   entry`, `…: '..' segment`
 * - `DUPLICATE_PATH`: `duplicate file path at index i`
 *
 * @example
 * try { validatePaths(["/etc/passwd"]); }
 * catch (e) { if (e instanceof AttachmentsError) e.code; } // "INVALID_PATH"
 */
export class AttachmentsError extends Error {
  /** Which rule of docs/spec/formats.md §4.2 failed. */
  readonly code: AttachmentsErrorCode;

  /** `message` must be one of the exact texts above. */
  constructor(code: AttachmentsErrorCode, message: string) {
    super(message);
    this.name = "AttachmentsError";
    this.code = code;
  }
}
