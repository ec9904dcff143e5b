import { goTrimSpace, toWellFormed } from "../text/index.ts";
import { MAX_FILES } from "./constants.ts";
import { AttachmentsError } from "./errors.ts";

/** Upload directory, lower-case UUID (no version/variant check), hyphen; no end anchor. */
const PATH_SHAPE =
  /^\/workspace\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/;

/** True when some `/`-separated segment of `p` is exactly `..`. */
function hasDotDotSegment(p: string): boolean {
  if (!p.includes("..")) return false;
  return p.split("/").includes("..");
}

/**
 * Checks a list of attachment paths (docs/spec/formats.md §4.2), shape only: nothing is read from
 * disk and no length is limited. An empty or absent list is valid. The count is checked first, then
 * each entry in order (first failing rule wins): empty or `GO_SPACE`-padded, wrong shape (must
 * start `/workspace/uploads/<lower-case uuid>-`), a `..` segment, an exact duplicate of an earlier
 * entry. Unpaired surrogates count as U+FFFD (docs/spec/formats.md §0).
 *
 * @throws {AttachmentsError} `TOO_MANY_FILES` (more than {@link MAX_FILES}), `INVALID_PATH`,
 *   `DUPLICATE_PATH`, with the exact messages of docs/spec/formats.md §4.2.
 * @example validatePaths(["/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-b/.."]) // throws INVALID_PATH
 */
export function validatePaths(files?: readonly string[]): void {
  if (files === undefined) return;
  if (files.length > MAX_FILES) {
    throw new AttachmentsError(
      "TOO_MANY_FILES",
      `too many files: ${files.length} exceeds the maximum of ${MAX_FILES}`,
    );
  }
  const seen = new Set<string>();
  files.forEach((entry: unknown, index) => {
    if (typeof entry !== "string") {
      throw new AttachmentsError("INVALID_PATH", `invalid attachment path at index ${index}`);
    }
    const p = toWellFormed(entry);
    if (p === "" || goTrimSpace(p) !== p) {
      throw new AttachmentsError(
        "INVALID_PATH",
        `invalid attachment path at index ${index}: empty or whitespace-padded entry`,
      );
    }
    if (!PATH_SHAPE.test(p)) {
      throw new AttachmentsError("INVALID_PATH", `invalid attachment path at index ${index}`);
    }
    if (hasDotDotSegment(p)) {
      throw new AttachmentsError(
        "INVALID_PATH",
        `invalid attachment path at index ${index}: '..' segment`,
      );
    }
    if (seen.has(p)) {
      throw new AttachmentsError("DUPLICATE_PATH", `duplicate file path at index ${index}`);
    }
    seen.add(p);
  });
}
