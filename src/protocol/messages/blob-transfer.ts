import {
  expectObject,
  failField,
  fieldPath,
  optionalInteger,
  requiredInteger,
  requiredString,
  runValidation,
  type WireObject,
} from "../validation/field-rules.ts";
import type { ValidationResult } from "../validation/validation-result.ts";
import { ATTACHMENT_LIMITS, requiredSha256 } from "./attachment.ts";

/**
 * The blob a `message upload` declares **[ours]** (capability `message.attachments`): its SHA-256
 * (64 lowercase hex digits) and size in bytes (at most 25 MiB, `ATTACHMENT_LIMITS`). The server counts and hashes the bytes
 * it receives and keeps nothing unless both match.
 *
 * @example
 * const blob: BlobDeclaration = { sha256: "9f86d081…0f00a08", size: 4 };
 */
export interface BlobDeclaration {
  sha256: string;
  size: number;
}

/**
 * `message upload` stdin **[ours]**: the declaration and the absolute `path` of the file the
 * adapter streams (the process binding opens it; the in-process `Adapter.messageUpload` takes the
 * bytes themselves instead).
 *
 * @example
 * { "path": "/home/dana/build.log", "sha256": "9f86…", "size": 4 }
 */
export interface BlobUploadRequest extends BlobDeclaration {
  path: string;
}

/** `message upload` result **[ours]**: the blob now stored for the team, as declared. */
export interface BlobUploadResult {
  sha256: string;
  size: number;
}

/**
 * `message download` stdin **[ours]**: the blob, the absolute `path` to write it to, and
 * `offset`: how many of its bytes the file at `path` already holds (a resumed download; absent or
 * 0 creates the file, which must not exist).
 */
export interface BlobDownloadRequest {
  sha256: string;
  path: string;
  offset?: number;
}

/**
 * `message download` result **[ours]**: the blob's digest and size, where it was written, and the
 * offset the download started at. The adapter checked the whole file against the digest.
 */
export interface BlobDownloadResult {
  sha256: string;
  size: number;
  path: string;
  offset: number;
}

/** The declaration's members; a size over the per-file limit is the limit's refusal (`too_long`), not this one's. */
function readDeclaration(o: WireObject): BlobDeclaration {
  return {
    sha256: requiredSha256(o, "sha256", ""),
    size: requiredInteger(o, "size", "", 0, Number.MAX_SAFE_INTEGER),
  };
}

function requiredAbsolutePath(o: WireObject, name: string): string {
  const path = requiredString(o, name, "", { nonEmpty: true });
  if (!path.startsWith("/") || path.includes("\u0000"))
    failField(fieldPath("", name), "invalid_value");
  return path;
}

/**
 * Validates a {@link BlobDeclaration} (the query of the upload route): `sha256` 64 lowercase hex
 * (`invalid_value`), `size` a non-negative integer (`out_of_range`); whoever enforces the
 * per-file limit refuses a larger size with `too_long` on `size`.
 *
 * @example validateBlobDeclaration({ sha256: "x", size: 1 }).ok === false; // field "sha256"
 */
export function validateBlobDeclaration(value: unknown): ValidationResult<BlobDeclaration> {
  return runValidation(() => readDeclaration(expectObject(value, "")));
}

/**
 * Validates `message upload` stdin: {@link validateBlobDeclaration}'s rules plus `path`, a
 * non-empty absolute path (`invalid_value`; never resolved against the working directory,
 * docs/spec/protocol.md §1.5).
 *
 * @example validateBlobUploadRequest({ path: "rel", sha256, size: 1 }).ok === false;
 */
export function validateBlobUploadRequest(value: unknown): ValidationResult<BlobUploadRequest> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const declared = readDeclaration(o);
    return { path: requiredAbsolutePath(o, "path"), ...declared };
  });
}

/** Validates a `message upload` result: `sha256` and `size` as declared. */
export function validateBlobUploadResult(value: unknown): ValidationResult<BlobUploadResult> {
  return validateBlobDeclaration(value);
}

/**
 * Validates `message download` stdin: `sha256`, `path` (absolute) and `offset` (an integer
 * 0..26,214,400; absent means 0).
 *
 * @example validateBlobDownloadRequest({ sha256, path: "/tmp/x", offset: -1 }).ok === false;
 */
export function validateBlobDownloadRequest(value: unknown): ValidationResult<BlobDownloadRequest> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const sha256 = requiredSha256(o, "sha256", "");
    const path = requiredAbsolutePath(o, "path");
    const offset = optionalInteger(o, "offset", "", 0, ATTACHMENT_LIMITS.max_attachment_bytes);
    return { sha256, path, ...(offset === undefined ? {} : { offset }) };
  });
}

/** Validates a `message download` result. */
export function validateBlobDownloadResult(value: unknown): ValidationResult<BlobDownloadResult> {
  return runValidation(() => {
    const o = expectObject(value, "");
    const declared = readDeclaration(o);
    return {
      ...declared,
      path: requiredAbsolutePath(o, "path"),
      offset: requiredInteger(o, "offset", "", 0, ATTACHMENT_LIMITS.max_attachment_bytes),
    };
  });
}
